/**
 * Type guards shared by the whole framework, so that code narrows `unknown` values instead of
 * casting them. One copy each: use these rather than writing another.
 */

/**
 * True for a plain object: an object literal, `JSON.parse()` output or `Object.create(null)`
 * (its prototype is `Object.prototype` or null), not an array, a class instance or a model.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
