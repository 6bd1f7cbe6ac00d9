/**
 * The host layer's message catalogs, one JSON file per language: the English message id
 * mapped to its translation, or for plural messages (keyed by the singular id) to the list
 * of plural forms. Imported statically so the compiled build carries them.
 */
import de from './de.json';
import es from './es.json';
import fr from './fr.json';

/** One catalog: msgid -> translation, or msgid (singular) -> plural forms. */
export type Catalog = Record<string, string | string[]>;

/** The built-in catalogs by language code. */
export const builtinCatalogs: Record<string, Catalog> = { de, es, fr };
