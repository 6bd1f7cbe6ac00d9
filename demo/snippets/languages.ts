/**
 * Maps the original tutorial's language names (Pygments lexer aliases) to highlight.js
 * languages: highlight.js's own name or alias when it has one that means the same language, a
 * small table for the common names that differ, the host language of a `host+template` name,
 * and plain text for the rest.
 *
 * Names and aliases come from `languageIndex.ts`, so mapping loads no grammar; highlighting
 * registers the one language asked for (and those it embeds) in highlight.js's core at first
 * use, instead of loading all of its ~190 grammars (+16 MB, ~0.4 s).
 */
import type { HLJSApi } from 'highlight.js';
import { LANGUAGE_CHOICES } from './choices';
import { LANGUAGE_INDEX } from './languageIndex';
import { HtmlEmitter } from './htmlEmitter';
import { highlightCompiled } from './highlightEngine';

let coreApi: HLJSApi | null = null;
let fullApi: HLJSApi | null = null;
const registered = new Set<string>();
const registeredNames = new Set(LANGUAGE_INDEX.names);

/** highlight.js with every language (for a language that detects its embedded ones among all). */
function fullHighlighter(): HLJSApi {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  fullApi ??= require('highlight.js') as HLJSApi;
  return fullApi;
}

function register(api: HLJSApi, name: string): void {
  if (registered.has(name)) return;
  registered.add(name);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const definition = require(`highlight.js/lib/languages/${name}`) as Parameters<HLJSApi['registerLanguage']>[1];
  api.registerLanguage(name, definition);
  const embeds = LANGUAGE_INDEX.embeds[name];
  if (Array.isArray(embeds)) for (const embedded of embeds) register(api, embedded);
}

function embedsAll(name: string, seen = new Set<string>()): boolean {
  if (seen.has(name)) return false;
  seen.add(name);
  const embeds = LANGUAGE_INDEX.embeds[name];
  if (embeds === '*') return true;
  return (embeds ?? []).some((embedded) => embedsAll(embedded, seen));
}

/**
 * highlight.js able to highlight `language` (a registered name, as `highlightLanguage()`
 * answers): its own core instance with that language and the ones it embeds registered on
 * first use; every language only for one that detects its embedded language among all.
 */
export function highlighterFor(language: string): HLJSApi {
  if (!registeredNames.has(language) || embedsAll(language)) return fullHighlighter();
  if (coreApi === null) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    coreApi = (require('highlight.js/lib/core') as HLJSApi).newInstance();
    // Our own instance: it writes its HTML directly (the same bytes; see htmlEmitter.ts).
    coreApi.configure({ __emitter: HtmlEmitter });
  }
  register(coreApi, language);
  return coreApi;
}

/**
 * `code` highlighted as `language` (a registered name, as `highlightLanguage()` answers), illegal
 * lexemes ignored: highlight.js's HTML. On our own core instance (no plugins, `HtmlEmitter`) a
 * language the loop of `highlightEngine.ts` supports is highlighted there, with the same bytes.
 */
export function highlightHtml(code: string, language: string): string {
  const api = highlighterFor(language);
  if (api === coreApi) {
    const html = highlightCompiled(api, language, code);
    if (html !== null) return html;
  }
  return api.highlight(code, { language, ignoreIllegals: true }).value;
}

/** The highlight.js language for text it has no grammar for. */
export const PLAIN_TEXT = 'plaintext';

/**
 * Pygments names whose highlight.js counterpart has another name, and the few names that
 * highlight.js knows as a *different* language (`asc` is ASCII armor, not AngelScript).
 */
const DIFFERENT_NAMES: Readonly<Record<string, string>> = {
  'actionscript3': 'actionscript',
  'asc': PLAIN_TEXT,
  'aspx-cs': 'csharp',
  'aspx-vb': 'vbnet',
  'cbmbas': 'basic',
  'clojurescript': 'clojure',
  'common-lisp': 'lisp',
  'cuda': 'cpp',
  'cython': 'python',
  'doscon': 'dos',
  'dtd': 'xml',
  'emacs-lisp': 'lisp',
  'fish': 'bash',
  'gas': 'x86asm',
  'genshi': 'xml',
  'html+django': 'django',
  'html+handlebars': 'handlebars',
  'html+php': 'php-template',
  'html+twig': 'twig',
  'iex': 'elixir',
  'jlcon': 'julia-repl',
  'jsonld': 'json',
  'liquid': 'django',
  'literate-haskell': 'haskell',
  'matlabsession': 'matlab',
  'mxml': 'xml',
  'mysql': 'sql',
  'nasm': 'x86asm',
  'newlisp': 'lisp',
  'nodejsrepl': 'javascript',
  'numpy': 'python',
  'objdump-nasm': 'x86asm',
  'objective-c': 'objectivec',
  'objective-j': 'objectivec',
  'octave': 'matlab',
  'perl6': 'perl',
  'plpgsql': 'pgsql',
  'psql': 'pgsql',
  'psysh': 'php',
  'pwsh-session': 'powershell',
  'py2tb': 'python',
  'pytb': 'python',
  'python2': 'python',
  'qbasic': 'basic',
  'racket': 'scheme',
  'rbcon': 'ruby',
  'rconsole': 'r',
  'rhtml': 'erb',
  'rsl': PLAIN_TEXT,
  'sass': 'scss',
  'scaml': 'haml',
  'splus': 'r',
  'sqlite3': 'sql',
  'systemverilog': 'verilog',
  'tasm': 'x86asm',
  'tcsh': 'bash',
  'tcshcon': 'shell',
  'teal': 'lua',
  'tsql': 'sql',
  'vb.net': 'vbnet',
  'xslt': 'xml',
};

/** highlight.js's registered name for `name` (a name or an alias, any case), or null. */
function known(name: string): string | null {
  const lower = name.toLowerCase();
  if (registeredNames.has(lower)) return lower;
  return LANGUAGE_INDEX.aliases[lower] ?? null;
}

function resolve(pygmentsName: string): string {
  const listed = DIFFERENT_NAMES[pygmentsName];
  if (listed !== undefined) return listed;
  const direct = known(pygmentsName);
  if (direct) return direct;
  const plus = pygmentsName.indexOf('+');
  if (plus > 0) {
    // `css+mako`, `xml+ruby`, `javascript+php`: the host language carries most of the text.
    const host = pygmentsName.slice(0, plus);
    return DIFFERENT_NAMES[host] ?? known(host) ?? PLAIN_TEXT;
  }
  return PLAIN_TEXT;
}

/** Every choice resolved once, at first use. */
let table: Map<string, string> | null = null;

/** The highlight.js language used for the Pygments lexer name `pygmentsName`. */
export function highlightLanguage(pygmentsName: string): string {
  if (table === null) {
    table = new Map(LANGUAGE_CHOICES.map(([value]) => [value, resolve(value)]));
  }
  return table.get(pygmentsName) ?? resolve(pygmentsName);
}
