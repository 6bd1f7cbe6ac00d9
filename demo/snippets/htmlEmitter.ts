/**
 * A highlight.js emitter (its `__emitter` option) that writes the HTML as it goes, instead of
 * building highlight.js's token tree and walking it afterwards (`TokenTreeEmitter` +
 * `HTMLRenderer`). The output is byte for byte highlight.js's own: the same `<span class>`
 * names (`hljs-` prefix, `a.b` scopes as `hljs-a b_`, `language-x` for embedded languages),
 * the same escaping, and a span for every scope opened, closed even when highlighting stopped
 * early (an embedded language that met an illegal lexeme). `spec/demo/highlight.spec.ts`
 * compares the two on every language.
 *
 * Highlighting runs in `Snippet.save()`, once per create or update; skipping the tree saves
 * about a fifth of it.
 */
import type { Emitter, HLJSOptions } from 'highlight.js';

const SPECIAL = /[&<>"']/;
const SPECIALS = /[&<>"']/g;
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

/** highlight.js's `escapeHTML()`, without the five passes when there is nothing to escape. */
function escapeText(text: string): string {
  return SPECIAL.test(text) ? text.replace(SPECIALS, (char) => ESCAPES[char]) : text;
}

/** highlight.js's `scopeToCSSClass()`: the class attribute of a scope's span. */
function scopeClass(scope: string, prefix: string): string {
  if (scope.startsWith('language:')) return scope.replace('language:', 'language-');
  if (scope.includes('.')) {
    const [first, ...rest] = scope.split('.');
    return [`${prefix}${first}`, ...rest.map((piece, index) => `${piece}${'_'.repeat(index + 1)}`)].join(' ');
  }
  return `${prefix}${scope}`;
}

/** The most scope names whose class attribute is kept per prefix (grammars name a few hundred). */
const MAX_CLASSES = 2048;
/** Class attributes by scope name, per class prefix: computed once, not once per document. */
const classesByPrefix = new Map<string, Map<string, string>>();

/** The class attribute cache of `prefix` (started over when it grows past MAX_CLASSES). */
function classesFor(prefix: string): Map<string, string> {
  let classes = classesByPrefix.get(prefix);
  if (classes === undefined) {
    if (classesByPrefix.size >= 16) classesByPrefix.clear();
    classes = new Map();
    classesByPrefix.set(prefix, classes);
  }
  if (classes.size >= MAX_CLASSES) classes.clear();
  return classes;
}

/** The HTML emitter; give it to a highlight.js instance with `configure({ __emitter: HtmlEmitter })`. */
export class HtmlEmitter implements Emitter {
  private html = '';
  /** Per open scope (innermost last): whether it wrote a `<span>` (a scope may be empty). */
  private readonly open: boolean[] = [];
  private readonly prefix: string;
  /** Class attributes by scope (shared by the emitters of this prefix). */
  private readonly classes: Map<string, string>;

  constructor(options: Pick<HLJSOptions, 'classPrefix'>) {
    this.prefix = options.classPrefix;
    this.classes = classesFor(this.prefix);
  }

  /** Text of the current scope. */
  addText(text: string): void {
    if (text !== '') this.html += escapeText(text);
  }

  /** Open a scope (a span when the scope has a name). */
  startScope(scope: string): void {
    if (scope) {
      let name = this.classes.get(scope);
      if (name === undefined) {
        name = scopeClass(scope, this.prefix);
        this.classes.set(scope, name);
      }
      this.html += `<span class="${name}">`;
    }
    this.open.push(Boolean(scope));
  }

  /** Close the innermost open scope (nothing when none is open, as the token tree). */
  endScope(): void {
    if (this.open.length && this.open.pop()) this.html += '</span>';
  }

  /** highlight.js's parser opens mode scopes through the token tree's name for `startScope()`. */
  openNode(scope: string): void {
    this.startScope(scope);
  }

  /** highlight.js's parser closes mode scopes through the token tree's name for `endScope()`. */
  closeNode(): void {
    this.endScope();
  }

  /** Add what an embedded language's emitter wrote, in a `language-<name>` span when named. */
  __addSublanguage(emitter: Emitter, name: string): void {
    const inner = emitter instanceof HtmlEmitter ? emitter.closedHtml() : emitter.toHTML();
    this.html += name ? `<span class="language-${name}">${inner}</span>` : inner;
  }

  /** Close every open scope. */
  finalize(): void {
    while (this.open.length) this.endScope();
  }

  /** The HTML written so far, with the scopes still open closed. */
  toHTML(): string {
    return this.closedHtml();
  }

  private closedHtml(): string {
    let html = this.html;
    for (const wroteSpan of this.open) if (wroteSpan) html += '</span>';
    return html;
  }
}
