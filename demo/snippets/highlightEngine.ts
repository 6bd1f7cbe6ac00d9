/**
 * highlight.js 11's highlighting loop (`_highlight()` in `highlight.js/lib/core.js`), run on a
 * language highlight.js has compiled, writing through `HtmlEmitter`: the same matches, modes,
 * keywords and emitter calls in the same order, so the same bytes, with its state kept in one
 * object of fixed shape. highlight.js enters a mode through `Object.create(mode, { parent })`,
 * tags every match array with `Object.assign()` and looks keywords up as properties, so its
 * property reads are megamorphic and its keyword lookups internalize each word: this loop reads
 * fixed-shape views of the modes instead and takes about half the time (the benchmark's
 * 20-line Python snippet). `Snippet.save()` highlights on every create and update.
 *
 * Left out, as nothing the demo asks for needs them: sub-languages (`subLanguage`),
 * `on:begin`/`on:end` callbacks, `__emitTokens`, continuations, relevance, and stopping at
 * an illegal lexeme (`ignoreIllegals` is always true). `compiledLanguage()` answers null for
 * a language that uses any of them, and anything thrown while highlighting (highlight.js's own
 * safety nets throw too) sends the text to highlight.js instead: `highlightCompiled()` answers
 * null, and highlight.js's answer is the reference either way. `spec/demo/highlight.spec.ts`
 * compares both on every grammar.
 */
import type { HLJSApi } from 'highlight.js';
import { HtmlEmitter } from './htmlEmitter';

/** What highlight.js's multi-regex registers for each rule: the mode it begins, its kind, its place. */
interface MatchData {
  rule?: CompiledMode;
  type: 'begin' | 'end' | 'illegal';
  position: number;
}

/** highlight.js's `MultiRegex`: the rules of a mode as one alternation. */
interface MultiRegex {
  regexes: Array<[MatchData, RegExp | string]>;
  matcherRe: RegExp;
  matchIndexes: Record<number, MatchData>;
}

/** highlight.js's `ResumableMultiRegex`: one `MultiRegex` per rule to resume from. */
interface ResumableMultiRegex {
  count: number;
  getMatcher(index: number): MultiRegex;
}

/** A compiled `beginScope`/`endScope`: one scope for the match, or one per group. */
interface CompiledScope {
  _wrap?: string;
  _multi?: boolean;
  _emit?: Record<number, boolean>;
  [group: number]: string;
}

/** The response a `__beforeBegin` callback may ignore the match through. */
interface CallbackResponse {
  data: Record<string, unknown>;
  isMatchIgnored: boolean;
  ignoreMatch(): void;
}

type ModeCallback = (match: RegExpExecArray, response: CallbackResponse) => void;

/** A mode as `compileLanguage()` leaves it (the fields the loop reads). */
interface CompiledMode {
  isCompiled?: boolean;
  matcher: ResumableMultiRegex;
  keywords?: Record<string, [string, number]>;
  keywordPatternRe: RegExp;
  endRe?: RegExp;
  scope?: unknown;
  beginScope?: CompiledScope;
  endScope?: CompiledScope;
  skip?: boolean;
  excludeBegin?: boolean;
  excludeEnd?: boolean;
  returnBegin?: boolean;
  returnEnd?: boolean;
  endsParent?: boolean;
  endsWithParent?: boolean;
  starts?: CompiledMode;
  subLanguage?: unknown;
  contains?: CompiledMode[];
  data?: Record<string, unknown>;
  __beforeBegin?: ModeCallback | null;
  'on:begin'?: unknown;
  'on:end'?: unknown;
}

/** A compiled language: its top mode, plus the language-wide settings. */
interface CompiledLanguage extends CompiledMode {
  case_insensitive?: boolean;
  classNameAliases: Record<string, string>;
  __emitTokens?: unknown;
}

/** highlight.js's `Response` (what `__beforeBegin` sees), with the mode's shared `data`. */
class Response implements CallbackResponse {
  data: Record<string, unknown>;
  isMatchIgnored = false;

  constructor(mode: CompiledMode) {
    if (mode.data === undefined) mode.data = {};
    this.data = mode.data;
  }

  /** Ignore the match: highlighting goes on as if the rule had not matched. */
  ignoreMatch(): void {
    this.isMatchIgnored = true;
  }
}

/** doEndMatch()'s answer when the mode did not end after all. */
const NO_MATCH = -1;
/** The emitter options of the instances `highlightCompiled()` serves (highlight.js's default prefix). */
const EMITTER_OPTIONS = { classPrefix: 'hljs-' };

/**
 * What the loop reads of one compiled mode, in one fixed shape: modes are object literals of
 * many shapes, so reading their fields directly is megamorphic. Built once per mode (compiled
 * modes do not change; only `data`, which is read on the mode itself). Class name aliases stay
 * looked up per language: grammars share mode objects.
 */
class ModeView {
  readonly matcher: ResumableMultiRegex;
  /** Keywords by word (a Map lookup does not internalize the word, as a property lookup does); null: none. */
  readonly keywords: Map<string, [string, number]> | null;
  readonly keywordPattern: RegExp;
  /** `endRe`, sticky: "matches at the start" without scanning the rest of the text. */
  readonly end: RegExp | null;
  /** The scope a span is opened for (a string `scope`), or null. */
  readonly openScope: string | null;
  /** The mode has a scope (its span is closed when it ends). */
  readonly closes: boolean;
  readonly beginScope: CompiledScope | null;
  readonly endScope: CompiledScope | null;
  readonly skip: boolean;
  readonly excludeBegin: boolean;
  readonly excludeEnd: boolean;
  readonly returnBegin: boolean;
  readonly returnEnd: boolean;
  readonly endsParent: boolean;
  readonly endsWithParent: boolean;
  readonly beforeBegin: ModeCallback | null;
  private startsView: ModeView | null | undefined = undefined;
  /** `matcher.getMatcher(index)` and its locator, by index, as first asked for. */
  private readonly searches: Array<MatcherSearch | undefined> = [];

  constructor(readonly mode: CompiledMode) {
    this.matcher = mode.matcher;
    const keywords = mode.keywords;
    this.keywords = keywords ? new Map(Object.keys(keywords).map((word) => [word, keywords[word]])) : null;
    this.keywordPattern = mode.keywordPatternRe;
    this.end = mode.endRe ? new RegExp(mode.endRe.source, `${mode.endRe.flags.replace(/[gy]/g, '')}y`) : null;
    this.openScope = mode.scope && typeof mode.scope === 'string' ? mode.scope : null;
    this.closes = Boolean(mode.scope);
    this.beginScope = mode.beginScope ?? null;
    this.endScope = mode.endScope ?? null;
    this.skip = Boolean(mode.skip);
    this.excludeBegin = Boolean(mode.excludeBegin);
    this.excludeEnd = Boolean(mode.excludeEnd);
    this.returnBegin = Boolean(mode.returnBegin);
    this.returnEnd = Boolean(mode.returnEnd);
    this.endsParent = Boolean(mode.endsParent);
    this.endsWithParent = Boolean(mode.endsWithParent);
    this.beforeBegin = mode.__beforeBegin ?? null;
  }

  /** The view of the mode this one starts when it ends (`starts`), or null. */
  get starts(): ModeView | null {
    if (this.startsView === undefined) this.startsView = this.mode.starts ? viewOf(this.mode.starts) : null;
    return this.startsView;
  }

  /**
   * highlight.js's `getMatcher(index)` (the rules from `index` on; compiled on first use, as
   * highlight.js compiles it) with its locator, looked up once per index.
   */
  searchAt(index: number): MatcherSearch {
    let search = this.searches[index];
    if (search === undefined) {
      const multi = this.matcher.getMatcher(index);
      search = { multi, locator: multi.regexes.length === 0 ? null : buildLocator(multi) };
      this.searches[index] = search;
    }
    return search;
  }

  /** highlight.js's `startsWith(endRe, text)`: the mode's end matches `text` at index 0. */
  endsAt(text: string): boolean {
    const end = this.end;
    if (end === null) return false;
    end.lastIndex = 0;
    return end.test(text);
  }
}

const views = new WeakMap<CompiledMode, ModeView>();

function viewOf(mode: CompiledMode): ModeView {
  let view = views.get(mode);
  if (view === undefined) {
    view = new ModeView(mode);
    views.set(mode, view);
  }
  return view;
}

/** One rule of a locator: what highlight.js registered for it, and its pattern alone (sticky). */
interface LocatedRule {
  readonly data: MatchData;
  readonly alone: RegExp;
  /** The view of the mode a `begin` rule starts, once looked up. */
  view: ModeView | null;
}

/** A matcher of a mode (`getMatcher(index)`) and its locator (null: search with `matcherRe`). */
interface MatcherSearch {
  readonly multi: MultiRegex;
  readonly locator: Locator | null;
}

/**
 * A mode's rules as one alternation in which only each rule's whole match is a group: where
 * the next match is and which rule made it, as `matcherRe` answers, without filling the
 * rules' own groups on every search (the Python mode's alternation has some sixty).
 */
interface Locator {
  readonly re: RegExp;
  readonly rules: LocatedRule[];
}

/**
 * highlight.js's tokens of a pattern: a character class, a named group, an opening
 * parenthesis (capturing when bare), a backreference, any other escape.
 */
const PATTERN_TOKEN = /\[(?:[^\\\]]|\\.)*\]|\(\?<(?![=!])[^>]+>|\(\?'[^']+'|\(\??|\\([1-9][0-9]*)|\\./g;

/** `pattern` with its capturing groups made non-capturing; null when it has backreferences or named groups. */
function withoutGroups(pattern: string): string | null {
  let out = '';
  let last = 0;
  PATTERN_TOKEN.lastIndex = 0;
  for (let token = PATTERN_TOKEN.exec(pattern); token !== null; token = PATTERN_TOKEN.exec(pattern)) {
    const text = token[0];
    if (token[1] !== undefined || text.startsWith('(?<') || text.startsWith("(?'")) return null;
    if (text === '(') {
      out += `${pattern.slice(last, token.index)}(?:`;
      last = token.index + 1;
    }
  }
  return out + pattern.slice(last);
}

function patternSource(pattern: RegExp | string): string {
  return typeof pattern === 'string' ? pattern : pattern.source;
}

/**
 * The locator of `multi` (built once per matcher, by `ModeView.searchAt()`); null when a rule's
 * pattern cannot be rewritten: then `matcherRe` is used.
 */
function buildLocator(multi: MultiRegex): Locator | null {
  const sources: string[] = [];
  for (const [, pattern] of multi.regexes) {
    const rewritten = withoutGroups(patternSource(pattern));
    if (rewritten === null) return null;
    sources.push(`(${rewritten})`);
  }
  const flags = multi.matcherRe.flags;
  const plainFlags = flags.replace(/[gy]/g, '');
  let re: RegExp;
  try {
    re = new RegExp(sources.join('|'), flags);
  } catch {
    return null;
  }
  // One group per rule, no more: the rewriting understood every pattern.
  if (new RegExp(`${re.source}|`, plainFlags).exec('')?.length !== sources.length + 1) return null;
  const rules = multi.regexes.map(([data, pattern]) => ({ data, alone: new RegExp(patternSource(pattern), `${plainFlags}y`), view: null }));
  return { re, rules };
}

/** One highlighting of one text: highlight.js's `_highlight()` locals as fields. */
class Highlighting {
  private readonly emitter = new HtmlEmitter(EMITTER_OPTIONS);
  private readonly aliases: Record<string, string>;
  private readonly caseInsensitive: boolean;
  /** The open modes, outermost (the language) first; highlight.js chains them through `parent`. */
  private readonly stack: ModeView[];
  private top: ModeView;
  private modeBuffer = '';
  private iterations = 0;
  private resumeScanAtSamePosition = false;
  /** `top.matcher`'s resume point (`regexIndex` of highlight.js's matcher). */
  private regexIndex = 0;
  /** The current match, the group its rule matched with, and what the rule registered. */
  private match: RegExpExecArray = null as unknown as RegExpExecArray;
  private group = 0;
  private data: MatchData = null as unknown as MatchData;
  /**
   * The locator rule the current match was found with, else null. While `group` is not 0, the
   * match holds the locator's groups, not the rule's own (`withGroups()`).
   */
  private located: LocatedRule | null = null;
  /** Whether the current match was already turned into highlight.js's form (for a callback). */
  private tagged = false;
  private lastType: string | undefined = undefined;
  private lastIndex = -1;

  constructor(language: CompiledLanguage, private readonly code: string) {
    this.aliases = language.classNameAliases;
    this.caseInsensitive = Boolean(language.case_insensitive);
    this.top = viewOf(language);
    this.stack = [this.top];
  }

  /** The highlighted HTML. */
  run(): string {
    const code = this.code;
    let index = 0;
    for (;;) {
      this.iterations++;
      if (this.resumeScanAtSamePosition) this.resumeScanAtSamePosition = false;
      else this.regexIndex = 0;
      if (!this.exec(index)) break;
      const at = this.match.index;
      index = at + this.processLexeme(code.substring(index, at));
    }
    this.modeBuffer += code.substring(index);
    this.processBuffer();
    this.emitter.finalize();
    return this.emitter.toHTML();
  }

  /** `ResumableMultiRegex#exec()` of the top mode at `lastIndex`. */
  private exec(lastIndex: number): boolean {
    const top = this.top;
    const matcher = top.matcher;
    let found = this.execMulti(top.searchAt(this.regexIndex), lastIndex);
    if (this.regexIndex !== 0 && !(found && this.match.index === lastIndex)) {
      found = this.execMulti(top.searchAt(0), lastIndex + 1);
    }
    if (found) {
      this.regexIndex += this.data.position + 1;
      if (this.regexIndex === matcher.count) this.regexIndex = 0;
    }
    return found;
  }

  /**
   * `MultiRegex#exec()`: the first rule matching from `lastIndex`, without tagging the match.
   * The search runs on the matcher's locator (`buildLocator()`) when it has one: the match array then
   * holds each rule's whole match only, and a rule's own groups are read when something asks
   * for them (`withGroups()`).
   */
  private execMulti(search: MatcherSearch, lastIndex: number): boolean {
    const multi = search.multi;
    if (multi.regexes.length === 0) return false;
    const locator = search.locator;
    const re = locator === null ? multi.matcherRe : locator.re;
    re.lastIndex = lastIndex;
    const match = re.exec(this.code);
    if (match === null) return false;
    let group = 1;
    while (group < match.length && match[group] === undefined) group++;
    if (group === match.length) throw new Error('no rule matched');
    this.match = match;
    this.group = group;
    if (locator === null) {
      this.data = multi.matchIndexes[group];
      this.located = null;
    } else {
      this.located = locator.rules[group - 1];
      this.data = this.located.data;
    }
    this.tagged = false;
    return true;
  }

  /**
   * The current match with the matched rule's own groups, from its group on (as `match` and
   * `group` are read by `taggedMatch()` and `emitMultiClass()`): a match found by a locator
   * is matched again by the rule alone, at the same place.
   */
  private withGroups(): void {
    const rule = this.located;
    if (rule === null || this.group === 0) return;
    const whole = this.match[0];
    rule.alone.lastIndex = this.match.index;
    const match = rule.alone.exec(this.code);
    if (match === null || match[0] !== whole) throw new Error('a rule matched differently alone');
    this.match = match;
    this.group = 0;
  }

  /** The current match as highlight.js hands it to callbacks: from the rule's group on, tagged. */
  private taggedMatch(): RegExpExecArray {
    if (!this.tagged) {
      this.withGroups();
      this.match.splice(0, this.group);
      Object.assign(this.match, this.data);
      this.group = 0;
      this.tagged = true;
    }
    return this.match;
  }

  private processLexeme(textBeforeMatch: string): number {
    const match = this.match;
    const lexeme = match[0];
    const type = this.data.type;
    this.modeBuffer += textBeforeMatch;
    // A 0-width end right after a begin at the same place: skip a character (highlight.js's safe mode).
    if (this.lastType === 'begin' && type === 'end' && this.lastIndex === match.index && lexeme === '') {
      this.modeBuffer += this.code.slice(match.index, match.index + 1);
      return 1;
    }
    this.lastType = type;
    this.lastIndex = match.index;
    if (type === 'begin') return this.doBeginMatch();
    if (type === 'end') {
      const processed = this.doEndMatch();
      if (processed !== NO_MATCH) return processed;
    }
    if (type === 'illegal' && lexeme === '') {
      if (match.index !== this.code.length) this.modeBuffer += '\n';
      return 1;
    }
    if (this.iterations > 100000 && this.iterations > match.index * 3) {
      throw new Error('potential infinite loop, way more iterations than matches');
    }
    this.modeBuffer += lexeme;
    return lexeme.length;
  }

  private doBeginMatch(): number {
    const lexeme = this.match[0];
    const rule = this.data.rule as CompiledMode;
    // highlight.js makes a Response for every begin, which gives the mode its `data`.
    if (rule.data === undefined) rule.data = {};
    const located = this.located;
    let newMode: ModeView;
    if (located === null) newMode = viewOf(rule);
    else newMode = located.view ?? (located.view = viewOf(rule));
    const before = newMode.beforeBegin;
    if (before !== null) {
      const response = new Response(rule);
      before(this.taggedMatch(), response);
      if (response.isMatchIgnored) return this.doIgnore(lexeme);
    }
    if (newMode.skip) {
      this.modeBuffer += lexeme;
    } else {
      if (newMode.excludeBegin) this.modeBuffer += lexeme;
      this.processBuffer();
      if (!newMode.returnBegin && !newMode.excludeBegin) this.modeBuffer = lexeme;
    }
    this.startNewMode(newMode);
    return newMode.returnBegin ? 0 : lexeme.length;
  }

  private doIgnore(lexeme: string): number {
    if (this.regexIndex === 0) {
      this.modeBuffer += lexeme[0];
      return 1;
    }
    this.resumeScanAtSamePosition = true;
    return 0;
  }

  private doEndMatch(): number {
    const lexeme = this.match[0];
    const endDepth = this.endOfMode(this.stack.length - 1, this.code.substring(this.match.index));
    if (endDepth < 0) return NO_MATCH;
    const endMode = this.stack[endDepth];
    const origin = this.top;
    const endScope = origin.endScope;
    if (endScope && endScope._wrap) {
      this.processBuffer();
      this.emitKeyword(lexeme, endScope._wrap);
    } else if (endScope && endScope._multi) {
      this.processBuffer();
      this.emitMultiClass(endScope);
    } else if (origin.skip) {
      this.modeBuffer += lexeme;
    } else {
      if (!(origin.returnEnd || origin.excludeEnd)) this.modeBuffer += lexeme;
      this.processBuffer();
      if (origin.excludeEnd) this.modeBuffer = lexeme;
    }
    do {
      if (this.top.closes) this.emitter.closeNode();
      this.stack.pop();
      this.top = this.stack[this.stack.length - 1];
    } while (this.stack.length > endDepth);
    const starts = endMode.starts;
    if (starts !== null) this.startNewMode(starts);
    return origin.returnEnd ? 0 : lexeme.length;
  }

  /** The depth of the mode the match ends (`endOfMode()`), or -1. */
  private endOfMode(depth: number, matchPlusRemainder: string): number {
    const mode = this.stack[depth];
    if (mode.endsAt(matchPlusRemainder)) {
      let ended = depth;
      while (this.stack[ended].endsParent && ended > 0) ended--;
      return ended;
    }
    if (mode.endsWithParent) return this.endOfMode(depth - 1, matchPlusRemainder);
    return -1;
  }

  private startNewMode(mode: ModeView): void {
    const aliases = this.aliases;
    const openScope = mode.openScope;
    if (openScope !== null) this.emitter.openNode(aliases[openScope] || openScope);
    const beginScope = mode.beginScope;
    if (beginScope) {
      if (beginScope._wrap) {
        this.emitKeyword(this.modeBuffer, aliases[beginScope._wrap] || beginScope._wrap);
        this.modeBuffer = '';
      } else if (beginScope._multi) {
        this.emitMultiClass(beginScope);
        this.modeBuffer = '';
      }
    }
    this.stack.push(mode);
    this.top = mode;
  }

  private emitKeyword(keyword: string, scope: string): void {
    if (keyword === '') return;
    this.emitter.startScope(scope);
    this.emitter.addText(keyword);
    this.emitter.endScope();
  }

  /** A scope per group of the current match (`beginScope`/`endScope` given per group). */
  private emitMultiClass(scope: CompiledScope): void {
    this.withGroups();
    const match = this.match;
    const offset = this.group;
    const max = match.length - offset - 1;
    const emit = scope._emit as Record<number, boolean>;
    for (let i = 1; i <= max; i++) {
      if (!emit[i]) continue;
      const klass = this.aliases[scope[i]] || scope[i];
      const text = match[offset + i];
      if (klass) {
        this.emitKeyword(text, klass);
      } else {
        this.modeBuffer = text;
        this.processKeywords();
        this.modeBuffer = '';
      }
    }
  }

  private processBuffer(): void {
    this.processKeywords();
    this.modeBuffer = '';
  }

  private processKeywords(): void {
    const top = this.top;
    const buffer = this.modeBuffer;
    const keywords = top.keywords;
    if (keywords === null) {
      this.emitter.addText(buffer);
      return;
    }
    const pattern = top.keywordPattern;
    // The text between keywords is a stretch of the buffer, written when a keyword ends it
    // (the emitter escapes text piece by piece: writing it in one piece or several is the same).
    let textStart = 0;
    pattern.lastIndex = 0;
    let match = pattern.exec(buffer);
    while (match) {
      const word = this.caseInsensitive ? match[0].toLowerCase() : match[0];
      const data = keywords.get(word);
      if (data && !data[0].startsWith('_')) {
        const kind = data[0];
        this.emitter.addText(buffer.substring(textStart, match.index));
        this.emitKeyword(match[0], this.aliases[kind] || kind);
        textStart = pattern.lastIndex;
      }
      match = pattern.exec(buffer);
    }
    this.emitter.addText(buffer.substring(textStart));
  }
}

/** True when the loop here can highlight every mode of `language` (see the module comment). */
function supported(language: CompiledLanguage): boolean {
  if (language.__emitTokens || !language.classNameAliases) return false;
  const seen = new Set<CompiledMode>();
  const pending: CompiledMode[] = [language];
  while (pending.length) {
    const mode = pending.pop() as CompiledMode;
    if (seen.has(mode)) continue;
    seen.add(mode);
    if (!mode.isCompiled || typeof mode.matcher?.getMatcher !== 'function' || !(mode.keywordPatternRe instanceof RegExp)) return false;
    if (mode.subLanguage != null || mode['on:begin'] || mode['on:end']) return false;
    for (const child of mode.contains ?? []) pending.push(child);
    if (mode.starts) pending.push(mode.starts);
  }
  return true;
}

/** Per instance and name: the language object seen, and it compiled when the loop here supports it. */
const compiled = new WeakMap<HLJSApi, Map<string, { registered: object; language: CompiledLanguage | null }>>();

/**
 * `language` (a registered name) of `api` as highlight.js compiled it, when the loop here
 * supports it; else null. The first call compiles it (by highlighting an empty text); a name
 * registered again is looked at again.
 */
export function compiledLanguage(api: HLJSApi, language: string): CompiledLanguage | null {
  const registered = api.getLanguage(language) as unknown as CompiledLanguage | undefined;
  if (registered === undefined || !api.versionString.startsWith('11.')) return null;
  let byName = compiled.get(api);
  if (byName === undefined) {
    byName = new Map();
    compiled.set(api, byName);
  }
  let entry = byName.get(language);
  if (entry === undefined || entry.registered !== registered) {
    api.highlight('', { language, ignoreIllegals: true });
    entry = { registered, language: supported(registered) ? registered : null };
    byName.set(language, entry);
  }
  return entry.language;
}

/**
 * `code` highlighted as `api.highlight(code, { language, ignoreIllegals: true }).value` answers
 * it when `api` writes through `HtmlEmitter` with highlight.js's default class prefix and has no
 * plugins; null when highlight.js must do it (an unsupported language, or an error).
 */
export function highlightCompiled(api: HLJSApi, language: string, code: string): string | null {
  const compiledMode = compiledLanguage(api, language);
  if (compiledMode === null) return null;
  try {
    return new Highlighting(compiledMode, code).run();
  } catch {
    return null;
  }
}
