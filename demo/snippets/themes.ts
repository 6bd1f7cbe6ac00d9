/**
 * Maps the original tutorial's style names (Pygments styles) to CSS for highlight.js output:
 * the nearest highlight.js theme where one exists (read from `highlight.js/styles` once and
 * cached), else a small theme made here from the Pygments style's own colours.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The colours of a hand-made theme, after the Pygments style of the same name. */
interface Palette {
  background: string;
  foreground: string;
  comment: string;
  keyword: string;
  string: string;
  number: string;
  builtIn: string;
  title: string;
  type: string;
  meta: string;
  attribute: string;
  /** Keywords in bold (most Pygments styles). */
  boldKeywords?: boolean;
  /** Comments in italics (most Pygments styles). */
  italicComments?: boolean;
}

/** Pygments styles with a close highlight.js theme: the theme's file under `styles/`. */
const THEME_FILES: Readonly<Record<string, string>> = {
  'arduino': 'arduino-light.css',
  'dracula': 'base16/dracula.css',
  'github-dark': 'github-dark.css',
  'gruvbox-dark': 'base16/gruvbox-dark-medium.css',
  'gruvbox-light': 'base16/gruvbox-light-medium.css',
  'material': 'base16/material.css',
  'monokai': 'monokai.css',
  'nord': 'nord.css',
  'nord-darker': 'nord.css',
  'one-dark': 'atom-one-dark.css',
  'paraiso-dark': 'paraiso-dark.css',
  'paraiso-light': 'paraiso-light.css',
  'solarized-dark': 'base16/solarized-dark.css',
  'solarized-light': 'base16/solarized-light.css',
  'tango': 'base16/tango.css',
  'vs': 'vs.css',
  'xcode': 'xcode.css',
  'zenburn': 'base16/zenburn.css',
};

const light = { boldKeywords: true, italicComments: true };

/** Pygments styles highlight.js has nothing close to: their colours, taken from Pygments. */
const PALETTES: Readonly<Record<string, Palette>> = {
  abap: { background: '#ffffff', foreground: '#000000', comment: '#888888', keyword: '#0000ff', string: '#55aa22',
    number: '#33aaff', builtIn: '#0000ff', title: '#000000', type: '#0000ff', meta: '#888888', attribute: '#000000',
    italicComments: true },
  algol: { background: '#ffffff', foreground: '#000000', comment: '#888888', keyword: '#000000', string: '#666666',
    number: '#000000', builtIn: '#000000', title: '#000000', type: '#000000', meta: '#888888', attribute: '#000000', ...light },
  algol_nu: { background: '#ffffff', foreground: '#000000', comment: '#888888', keyword: '#000000', string: '#666666',
    number: '#000000', builtIn: '#000000', title: '#000000', type: '#000000', meta: '#888888', attribute: '#000000', ...light },
  autumn: { background: '#ffffff', foreground: '#000000', comment: '#aaaaaa', keyword: '#0000aa', string: '#aa5500',
    number: '#009999', builtIn: '#00aaaa', title: '#00aa00', type: '#00aa00', meta: '#4c8317', attribute: '#1e90ff',
    italicComments: true },
  borland: { background: '#ffffff', foreground: '#000000', comment: '#008800', keyword: '#000080', string: '#0000ff',
    number: '#0000ff', builtIn: '#000080', title: '#000000', type: '#000080', meta: '#008080', attribute: '#ff0000', ...light },
  bw: { background: '#ffffff', foreground: '#000000', comment: '#000000', keyword: '#000000', string: '#000000',
    number: '#000000', builtIn: '#000000', title: '#000000', type: '#000000', meta: '#000000', attribute: '#000000', ...light },
  colorful: { background: '#ffffff', foreground: '#000000', comment: '#888888', keyword: '#008800', string: '#dd2200',
    number: '#0000dd', builtIn: '#007020', title: '#0066bb', type: '#bb0066', meta: '#557799', attribute: '#0000cc',
    boldKeywords: true },
  default: { background: '#f8f8f8', foreground: '#000000', comment: '#3d7b7b', keyword: '#008000', string: '#ba2121',
    number: '#666666', builtIn: '#008000', title: '#0000ff', type: '#0000ff', meta: '#9c6500', attribute: '#687822', ...light },
  emacs: { background: '#f8f8f8', foreground: '#000000', comment: '#008800', keyword: '#aa22ff', string: '#bb4444',
    number: '#666666', builtIn: '#aa22ff', title: '#00a000', type: '#0000ff', meta: '#008800', attribute: '#bb4444', ...light },
  friendly: { background: '#f0f0f0', foreground: '#000000', comment: '#60a0b0', keyword: '#007020', string: '#4070a0',
    number: '#40a070', builtIn: '#007020', title: '#06287e', type: '#0e84b5', meta: '#007020', attribute: '#4070a0', ...light },
  friendly_grayscale: { background: '#f0f0f0', foreground: '#000000', comment: '#959595', keyword: '#575757',
    string: '#585858', number: '#6d6d6d', builtIn: '#575757', title: '#373737', type: '#5b5b5b', meta: '#575757',
    attribute: '#585858', ...light },
  fruity: { background: '#111111', foreground: '#ffffff', comment: '#008800', keyword: '#fb660a', string: '#0086d2',
    number: '#0086f7', builtIn: '#fb660a', title: '#ff0086', type: '#ffffff', meta: '#ff0007', attribute: '#ffffff', ...light },
  igor: { background: '#ffffff', foreground: '#000000', comment: '#ff0000', keyword: '#0000ff', string: '#009c00',
    number: '#000000', builtIn: '#0000ff', title: '#c34e00', type: '#007575', meta: '#0000ff', attribute: '#000000',
    italicComments: true },
  inkpot: { background: '#1e1e27', foreground: '#cfbfad', comment: '#cd8b00', keyword: '#808bed', string: '#ffcd8b',
    number: '#f0ad6d', builtIn: '#808bed', title: '#ff8bff', type: '#ff8bff', meta: '#409090', attribute: '#ffcd8b' },
  lilypond: { background: '#ffffff', foreground: '#000000', comment: '#a3aab2', keyword: '#0000ff', string: '#aa2222',
    number: '#000000', builtIn: '#008000', title: '#008000', type: '#000000', meta: '#8080ff', attribute: '#aa2222', ...light },
  lovelace: { background: '#ffffff', foreground: '#444444', comment: '#888888', keyword: '#2838b0', string: '#b83838',
    number: '#444444', builtIn: '#388038', title: '#785840', type: '#287088', meta: '#a89028', attribute: '#b85820',
    italicComments: true },
  manni: { background: '#f0f3f3', foreground: '#000000', comment: '#0099ff', keyword: '#006699', string: '#cc3300',
    number: '#ff6600', builtIn: '#336666', title: '#cc00ff', type: '#00aa88', meta: '#009999', attribute: '#330099', ...light },
  murphy: { background: '#ffffff', foreground: '#000000', comment: '#666666', keyword: '#228899', string: '#dd2200',
    number: '#6600ee', builtIn: '#007722', title: '#55eedd', type: '#ee99ee', meta: '#557799', attribute: '#0000cc', ...light },
  native: { background: '#202020', foreground: '#d0d0d0', comment: '#ababab', keyword: '#6ebf26', string: '#ed9d13',
    number: '#51b2fd', builtIn: '#2fbccd', title: '#71adff', type: '#71adff', meta: '#cd2828', attribute: '#bbbbbb', ...light },
  pastie: { background: '#ffffff', foreground: '#000000', comment: '#888888', keyword: '#008800', string: '#dd2200',
    number: '#0000dd', builtIn: '#003388', title: '#0066bb', type: '#bb0066', meta: '#cc0000', attribute: '#336699',
    boldKeywords: true },
  perldoc: { background: '#eeeedd', foreground: '#000000', comment: '#228b22', keyword: '#8b008b', string: '#cd5555',
    number: '#b452cd', builtIn: '#658b00', title: '#008b45', type: '#008b45', meta: '#1e889b', attribute: '#00688b',
    boldKeywords: true },
  rainbow_dash: { background: '#ffffff', foreground: '#4d4d4d', comment: '#0080ff', keyword: '#2c5dcd', string: '#00cc66',
    number: '#5918bb', builtIn: '#5918bb', title: '#ff8000', type: '#2c5dcd', meta: '#c5060b', attribute: '#2c5dcd', ...light },
  rrt: { background: '#000000', foreground: '#ffffff', comment: '#00ff00', keyword: '#ff0000', string: '#87ceeb',
    number: '#ff00ff', builtIn: '#ff0000', title: '#ffff00', type: '#ffffff', meta: '#e5e5e5', attribute: '#eedd82' },
  sas: { background: '#ffffff', foreground: '#000000', comment: '#008800', keyword: '#2c2cff', string: '#800080',
    number: '#2e8b57', builtIn: '#2c2cff', title: '#000080', type: '#2c2cff', meta: '#000000', attribute: '#000080',
    italicComments: true },
  staroffice: { background: '#ffffff', foreground: '#000080', comment: '#696969', keyword: '#000080', string: '#ee0000',
    number: '#ee0000', builtIn: '#000080', title: '#008000', type: '#000080', meta: '#000080', attribute: '#008000' },
  stata: { background: '#ffffff', foreground: '#111111', comment: '#008800', keyword: '#353580', string: '#7a2424',
    number: '#2c2cff', builtIn: '#353580', title: '#2c2cff', type: '#353580', meta: '#111111', attribute: '#35baba', ...light },
  'stata-dark': { background: '#232629', foreground: '#cccccc', comment: '#777777', keyword: '#7686bb', string: '#51cc99',
    number: '#4fb8cc', builtIn: '#7686bb', title: '#6a6aff', type: '#7686bb', meta: '#cccccc', attribute: '#7ab7cc', ...light },
  'stata-light': { background: '#ffffff', foreground: '#111111', comment: '#008800', keyword: '#353580', string: '#7a2424',
    number: '#2c2cff', builtIn: '#353580', title: '#2c2cff', type: '#353580', meta: '#111111', attribute: '#35baba', ...light },
  trac: { background: '#ffffff', foreground: '#000000', comment: '#999988', keyword: '#000000', string: '#bb8844',
    number: '#009999', builtIn: '#999999', title: '#990000', type: '#445588', meta: '#999999', attribute: '#008080', ...light },
  vim: { background: '#000000', foreground: '#cccccc', comment: '#000080', keyword: '#cdcd00', string: '#cd0000',
    number: '#cd00cd', builtIn: '#cd00cd', title: '#cccccc', type: '#00cdcd', meta: '#000080', attribute: '#00cd00' },
};

/** The theme used for a style name that is neither mapped nor hand-made. */
const FALLBACK_STYLE = 'friendly';

function paletteCss(palette: Palette): string {
  const bold = palette.boldKeywords ? ';font-weight:bold' : '';
  const italic = palette.italicComments ? ';font-style:italic' : '';
  return [
    'pre code.hljs{display:block;overflow-x:auto;padding:1em}',
    'code.hljs{padding:3px 5px}',
    `.hljs{background:${palette.background};color:${palette.foreground}}`,
    `.hljs-comment,.hljs-quote{color:${palette.comment}${italic}}`,
    `.hljs-keyword,.hljs-selector-tag,.hljs-literal,.hljs-doctag{color:${palette.keyword}${bold}}`,
    `.hljs-string,.hljs-regexp,.hljs-char.escape_,.hljs-link{color:${palette.string}}`,
    `.hljs-number,.hljs-symbol,.hljs-bullet{color:${palette.number}}`,
    `.hljs-built_in{color:${palette.builtIn}}`,
    `.hljs-title,.hljs-title.function_,.hljs-section,.hljs-selector-id{color:${palette.title}}`,
    `.hljs-title.class_,.hljs-type,.hljs-selector-class{color:${palette.type};font-weight:bold}`,
    `.hljs-meta,.hljs-meta .hljs-keyword{color:${palette.meta}}`,
    `.hljs-attr,.hljs-attribute,.hljs-variable,.hljs-template-variable,.hljs-property,.hljs-name{color:${palette.attribute}}`,
    '.hljs-addition{background:#ddffdd}.hljs-deletion{background:#ffdddd}',
    '.hljs-emphasis{font-style:italic}.hljs-strong{font-weight:bold}',
  ].join('\n');
}

const stylesDir = path.join(path.dirname(require.resolve('highlight.js/package.json')), 'styles');
const cssCache = new Map<string, string>();

/** True when `style` is one of the style names this module knows. */
export function isKnownStyle(style: string): boolean {
  return style in THEME_FILES || style in PALETTES;
}

/**
 * The CSS of the theme nearest to the Pygments style `style` (read or built once, then
 * cached). An unknown name gets the tutorial's default style, `friendly`.
 */
export function themeCss(style: string): string {
  const name = isKnownStyle(style) ? style : FALLBACK_STYLE;
  let css = cssCache.get(name);
  if (css === undefined) {
    const file = THEME_FILES[name];
    css = file !== undefined ? fs.readFileSync(path.join(stylesDir, file), 'utf8').trim() : paletteCss(PALETTES[name]);
    cssCache.set(name, css);
  }
  return css;
}
