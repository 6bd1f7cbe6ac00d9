/**
 * Maps the original tutorial's language names (Pygments lexer aliases) to highlight.js
 * languages: highlight.js's own name or alias when it has one that means the same language, a
 * small table for the common names that differ, the host language of a `host+template` name,
 * and plain text for the rest.
 */
import type { HLJSApi } from 'highlight.js';
import { LANGUAGE_CHOICES } from './choices';

let hljsApi: HLJSApi | null = null;

/**
 * highlight.js with its languages, loaded on first use (the first snippet saved or mapped), so
 * a server that only reads snippets never loads the grammars.
 */
export function highlighter(): HLJSApi {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (!hljsApi) hljsApi = require('highlight.js') as HLJSApi;
  return hljsApi;
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

function known(name: string): string | null {
  const hljs = highlighter();
  const language = hljs.getLanguage(name);
  if (!language) return null;
  // Prefer the registered name over an alias, so `class="language-..."` is canonical.
  return hljs.listLanguages().includes(name) ? name : (findRegisteredName(name) ?? name);
}

function findRegisteredName(alias: string): string | null {
  const hljs = highlighter();
  const language = hljs.getLanguage(alias);
  for (const name of hljs.listLanguages()) {
    if (hljs.getLanguage(name) === language) return name;
  }
  return null;
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
