/**
 * `shallowClone(source)`: a new object with `source`'s prototype and a copy of its own
 * enumerable properties — what `Object.assign(Object.create(Object.getPrototypeOf(source)), source)`
 * builds, with the same [[Get]]/[[Set]] semantics — but through an assignment function
 * compiled once per prototype and property list. `Object.assign` onto an empty object grows
 * its hidden class one property at a time on every call (about 1.5 µs for a field's ~22
 * properties); the compiled function stores the properties in a fixed order, so every clone
 * of one shape shares one hidden class (about 0.1 µs). Serializers copy each declared field
 * per instance (`Field.copy()`), so this runs per request.
 *
 * Objects with enumerable symbol keys are cloned with `Object.assign` itself.
 */

type Cloner = (source: object, prototype: object | null) => object;

interface ClonerEntry {
  keys: string[];
  clone: Cloner;
}

/** The most property lists kept per prototype (an object whose shape varies a lot falls back). */
const MAX_SHAPES = 8;

const cloners = new WeakMap<object, ClonerEntry[]>();
/** The cache key of objects without a prototype (`Object.create(null)`). */
const NULL_PROTOTYPE = {};

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The cloner of one property list (each name is quoted by JSON.stringify: nothing of it runs as code). */
function compile(keys: readonly string[]): Cloner {
  const body = keys.map((key) => {
    const name = JSON.stringify(key);
    return `clone[${name}] = source[${name}];`;
  });
  return new Function('source', 'prototype', `const clone = Object.create(prototype);\n${body.join('\n')}\nreturn clone;`) as Cloner;
}

/** A shallow copy of `source` with the same prototype (see the module comment). */
export function shallowClone<T extends object>(source: T): T {
  const prototype = Object.getPrototypeOf(source) as object | null;
  if (Object.getOwnPropertySymbols(source).length) {
    return Object.assign(Object.create(prototype) as object, source) as T;
  }
  const keys = Object.keys(source);
  let entries = cloners.get(prototype ?? NULL_PROTOTYPE);
  if (entries === undefined) {
    entries = [];
    cloners.set(prototype ?? NULL_PROTOTYPE, entries);
  }
  for (let i = 0; i < entries.length; i++) {
    if (sameKeys(entries[i].keys, keys)) return entries[i].clone(source, prototype) as T;
  }
  if (entries.length >= MAX_SHAPES) {
    return Object.assign(Object.create(prototype) as object, source) as T;
  }
  const entry = { keys, clone: compile(keys) };
  entries.push(entry);
  return entry.clone(source, prototype) as T;
}
