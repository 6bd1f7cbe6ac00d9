/**
 * Reversal candidates: each is one way to build a URL (a template with its converters and
 * default arguments). Resolvers collect them per URL name and view, prefix them with the
 * candidates of the includes above, and `buildUrl()` tries them in declaration order.
 */
import { jsToPythonRegex, type Pattern, type TemplatePart } from './patterns';
import type { PathConverter } from './converters';
import { pythonRepr, pythonStringRepr, pythonTupleRepr } from '../pythonRepr';

/** One way to build a URL: its template, parameter names, converters and regex source. */
export interface ReverseCandidate {
  parts: TemplatePart[];
  params: string[];
  converters: Record<string, PathConverter>;
  defaults: Record<string, unknown>;
  /** Regex source (no leading `^`) that a built URL must match. */
  source: string;
  /** Human-readable pattern for error messages. */
  describe: string;
}

/** The candidates of one pattern, with the default kwargs its `path()` declared. */
export function candidatesOf(pattern: Pattern, defaults: Record<string, unknown>): ReverseCandidate[] {
  return pattern.templates().map((t) => ({
    parts: t.parts,
    params: t.params,
    converters: pattern.converters,
    defaults,
    source: t.source,
    describe: jsToPythonRegex(t.source),
  }));
}

/** Every prefix candidate followed by every sub-pattern candidate (an include's patterns under its route). */
export function combineCandidates(prefixes: ReverseCandidate[], subs: ReverseCandidate[]): ReverseCandidate[] {
  if (!prefixes.length) return subs;
  const out: ReverseCandidate[] = [];
  for (const prefix of prefixes) {
    for (const sub of subs) {
      out.push({
        parts: [...prefix.parts, ...sub.parts],
        params: [...prefix.params, ...sub.params],
        converters: { ...prefix.converters, ...sub.converters },
        defaults: { ...prefix.defaults, ...sub.defaults },
        source: prefix.source + sub.source,
        describe: prefix.describe + sub.describe,
      });
    }
  }
  return out;
}

const compiledSources = new Map<string, RegExp>();

function candidateRegex(source: string): RegExp {
  let regex = compiledSources.get(source);
  if (!regex) {
    // Anchor the whole candidate; `$` inside (from prefixes) stays harmless at the end.
    regex = new RegExp(`^(?:${source})`);
    compiledSources.set(source, regex);
  }
  return regex;
}

const SAFE_CHARS: Record<string, string> = {
  '%21': '!', '%24': '$', '%26': '&', '%27': "'", '%28': '(', '%29': ')', '%2A': '*', '%2B': '+',
  '%2C': ',', '%3B': ';', '%3D': '=', '%2F': '/', '%7E': '~', '%3A': ':', '%40': '@',
};

function quoteUrl(text: string): string {
  return encodeURIComponent(text).replace(/%(21|24|26|27|28|29|2A|2B|2C|3B|3D|2F|7E|3A|40)/g, (m) => SAFE_CHARS[m]);
}

/**
 * The URL `candidate` builds from `args` or `kwargs` (percent-encoded, no leading `/`), or null
 * when the arguments do not fit it: wrong names or count, a converter refusing a value, or a
 * result its regex does not match.
 */
export function buildUrl(candidate: ReverseCandidate, args: unknown[], kwargs: Record<string, unknown>): string | null {
  let subs: Record<string, unknown>;
  if (args.length) {
    if (args.length !== candidate.params.length) return null;
    subs = {};
    candidate.params.forEach((param, index) => (subs[param] = args[index]));
  } else {
    const given = new Set(Object.keys(kwargs));
    const params = new Set(candidate.params);
    for (const key of given) if (!params.has(key) && !(key in candidate.defaults)) return null;
    for (const key of params) if (!given.has(key) && !(key in candidate.defaults)) return null;
    for (const [key, value] of Object.entries(candidate.defaults)) {
      if (key in kwargs && kwargs[key] !== value) return null;
    }
    subs = kwargs;
  }
  const text: Record<string, string> = {};
  for (const param of candidate.params) {
    const value = param in subs ? subs[param] : candidate.defaults[param];
    const converter = candidate.converters[param];
    try {
      text[param] = converter ? converter.toUrl(value) : String(value);
    } catch {
      return null;
    }
  }
  const url = candidate.parts.map((part) => (typeof part === 'string' ? part : text[part.param])).join('');
  const match = candidateRegex(candidate.source).exec(url);
  if (!match || match[0].length !== url.length) return null;
  return quoteUrl(url);
}

/** The original's `NoReverseMatch` text for `view` when none of `tried` fitted the arguments. */
export function noReverseMatchMessage(
  view: string,
  args: unknown[],
  kwargs: Record<string, unknown>,
  tried: ReverseCandidate[],
): string {
  if (!tried.length) return `Reverse for '${view}' not found. '${view}' is not a valid view function or pattern name.`;
  let argMessage = 'no arguments';
  if (args.length) argMessage = `arguments '${pythonTupleRepr(args)}'`;
  else if (Object.keys(kwargs).length) argMessage = `keyword arguments '${pythonRepr(kwargs)}'`;
  const patterns = `[${tried.map((p) => pythonStringRepr(p.describe)).join(', ')}]`;
  return `Reverse for '${view}' with ${argMessage} not found. ${tried.length} pattern(s) tried: ${patterns}`;
}
