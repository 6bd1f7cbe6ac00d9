/**
 * Index and constraint names exactly as the host framework makes them
 * (`auth_permission_content_type_id_2f476e4b`, `..._uniq`, `..._fk_auth_user_id`), so tables
 * created here and by the original carry the same names.
 */
import crypto from 'node:crypto';

/** The first `length` hex digits of the MD5 of the names joined (Django's `names_digest`). */
export function namesDigest(names: readonly string[], length = 8): string {
  const hash = crypto.createHash('md5');
  for (const name of names) hash.update(name);
  return hash.digest('hex').slice(0, length);
}

/**
 * `<table>_<columns>_<digest><suffix>`, shortened to `maxLength` as Django's
 * `_create_index_name` does (MySQL: 64; SQLite: 200).
 */
export function indexName(table: string, columns: readonly string[], suffix = '', maxLength = 200): string {
  let hashSuffix = `${namesDigest([table, ...columns])}${suffix}`;
  const full = `${table}_${columns.join('_')}_${hashSuffix}`;
  if (full.length <= maxLength) return full;
  if (hashSuffix.length > maxLength / 3) hashSuffix = hashSuffix.slice(0, Math.floor(maxLength / 3));
  const other = Math.floor((maxLength - hashSuffix.length) / 2) - 1;
  let name = `${table.slice(0, other)}_${columns.join('_').slice(0, other)}_${hashSuffix}`;
  if (name.startsWith('_') || /^\d/.test(name)) name = `D${name.slice(0, -1)}`;
  return name;
}
