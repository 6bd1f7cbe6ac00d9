/**
 * What the demo needs to know of highlight.js's languages without loading them: every
 * registered name, every alias (to its registered name) and the languages each one embeds
 * (`subLanguage`, aliases resolved; `'*'` when it detects the embedded language among all of
 * them, as `http` does). Computed from a highlight.js with every language; the result is kept
 * in `languageIndex.ts` (`npx ts-node scripts/highlightIndex.ts` writes it again after an
 * upgrade; spec demo/highlight fails while it is stale).
 */
import type { HLJSApi, Language, Mode } from 'highlight.js';

/** The index of highlight.js's languages. */
export interface LanguageIndex {
  /** highlight.js's version the index was taken from. */
  version: string;
  /** The registered names, sorted. */
  names: readonly string[];
  /** Alias (lower case) -> registered name, for aliases that are not registered names. */
  aliases: Readonly<Record<string, string>>;
  /** Registered name -> the registered names it embeds, or '*' for all of them. */
  embeds: Readonly<Record<string, readonly string[] | '*'>>;
}

/** The index of the languages registered in `hljs`. */
export function languageIndexOf(hljs: HLJSApi, version: string): LanguageIndex {
  const names = [...hljs.listLanguages()].sort();
  const canonical = new Map<Language, string>();
  for (const name of names) canonical.set(hljs.getLanguage(name) as Language, name);
  const aliases: Record<string, string> = {};
  const embeds: Record<string, readonly string[] | '*'> = {};
  for (const name of names) {
    const language = hljs.getLanguage(name) as Language;
    for (const alias of language.aliases ?? []) {
      const lower = alias.toLowerCase();
      if (!names.includes(lower) && hljs.getLanguage(lower) === language) aliases[lower] = name;
    }
    const embedded = new Set<string>();
    let all = false;
    const seen = new Set<object>();
    const walk = (mode: unknown): void => {
      if (!mode || typeof mode !== 'object' || seen.has(mode)) return;
      seen.add(mode);
      const { subLanguage } = mode as Mode;
      if (Array.isArray(subLanguage) && subLanguage.length === 0) all = true;
      for (const sub of subLanguage === undefined ? [] : Array.isArray(subLanguage) ? subLanguage : [subLanguage]) {
        const target = hljs.getLanguage(sub);
        if (target) embedded.add(canonical.get(target) as string);
      }
      for (const key of ['contains', 'variants', 'starts', 'cachedVariants']) {
        const value = (mode as Record<string, unknown>)[key];
        if (Array.isArray(value)) value.forEach(walk);
        else walk(value);
      }
    };
    walk(language);
    walk(language.rawDefinition?.());
    embedded.delete(name);
    if (all) embeds[name] = '*';
    else if (embedded.size) embeds[name] = [...embedded].sort();
  }
  return { version, names, aliases, embeds };
}
