/**
 * Path converters: `<int:pk>`, `<str:name>`, `<slug:slug>`, `<path:rest>`, `<uuid:id>` in
 * `path()` routes, and `registerConverter()` for project-defined ones.
 */

/**
 * Turns a path segment into a value and back. `toPython` throws to reject a segment (the
 * next pattern is tried); `toUrl` throws to reject a value when reversing.
 */
export interface PathConverter {
  regex: string;
  toPython(value: string): unknown;
  toUrl(value: unknown): string;
}

/** `<int:pk>`: a non-negative integer. */
export class IntConverter implements PathConverter {
  regex = '[0-9]+';
  /** The number. */
  toPython(value: string): unknown {
    return Number(value);
  }
  /** The number as text. */
  toUrl(value: unknown): string {
    return String(value);
  }
}

/** `<str:name>` (the default): any non-empty segment without `/`. */
export class StringConverter implements PathConverter {
  regex = '[^/]+';
  /** The segment itself. */
  toPython(value: string): unknown {
    return value;
  }
  /** The value as text. */
  toUrl(value: unknown): string {
    return String(value);
  }
}

/** `<slug:slug>`: letters, digits, hyphens and underscores. */
export class SlugConverter extends StringConverter {
  override regex = '[-a-zA-Z0-9_]+';
}

/** `<path:rest>`: any non-empty string, `/` included. */
export class PathSegmentsConverter extends StringConverter {
  override regex = '.+';
}

/** `<uuid:id>`: a lower-case, hyphenated UUID. */
export class UUIDConverter extends StringConverter {
  override regex = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
}

const converters = new Map<string, PathConverter>([
  ['int', new IntConverter()],
  ['str', new StringConverter()],
  ['slug', new SlugConverter()],
  ['path', new PathSegmentsConverter()],
  ['uuid', new UUIDConverter()],
]);

/** The framework's own converter instances: pure functions of the segment. */
const builtinConverters = new WeakSet<PathConverter>(converters.values());

/**
 * True for the framework's own converters (`int`, `str`, `slug`, `path`, `uuid` as declared
 * here, not a project converter registered under one of those names): their `toPython` depends
 * on the segment only, so a resolution through them may be memoised.
 */
export function isBuiltinConverter(converter: PathConverter): boolean {
  return builtinConverters.has(converter);
}

/** Make `<typeName:param>` available in `path()` routes declared afterwards. */
export function registerConverter(converter: PathConverter | (new () => PathConverter), typeName: string): void {
  converters.set(typeName, typeof converter === 'function' ? new converter() : converter);
}

/** The converter registered as `typeName`, or undefined. */
export function getConverter(typeName: string): PathConverter | undefined {
  return converters.get(typeName);
}
