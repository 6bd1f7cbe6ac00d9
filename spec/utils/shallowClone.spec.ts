import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { shallowClone } from '../../lib/utils/shallowClone';
import { BooleanField, CharField, ChoiceField, Field, ListField } from '../../lib/fields';

const test = suite('utils/shallowClone');

/** What `shallowClone()` must build: `Object.assign` onto an object with the same prototype. */
function reference<T extends object>(source: T): T {
  return Object.assign(Object.create(Object.getPrototypeOf(source) as object) as object, source) as T;
}

/** Own property descriptors (values, enumerability, order) and the prototype of `value`. */
function shape(value: object): unknown {
  return {
    prototype: Object.getPrototypeOf(value) as unknown,
    keys: Reflect.ownKeys(value),
    descriptors: Object.getOwnPropertyDescriptors(value),
  };
}

class Point {
  constructor(public x: number, public y: number) {}
  get sum(): number {
    return this.x + this.y;
  }
}

const hidden = Symbol('hidden');
const withSymbol = { a: 1, [hidden]: 2 };
const withAccessor = Object.defineProperty({ a: 1 }, 'computed', { get: () => 42, enumerable: true });
const withHidden = Object.defineProperty({ a: 1 }, 'secret', { value: 'no', enumerable: false });
const nullPrototype = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: 'two' });
const protoKey = JSON.parse('{"__proto__": {"polluted": true}, "b": 2}') as Record<string, unknown>;

const rows: Array<[string, object]> = [
  ['a plain object', { a: 1, b: 'two', c: [3], d: null, e: undefined }],
  ['a class instance', new Point(1, 2)],
  ['another shape of the same class', Object.assign(new Point(3, 4), { extra: true })],
  ['an empty object', {}],
  ['an object with a symbol key (Object.assign path)', withSymbol],
  ['an own enumerable accessor (read as a value)', withAccessor],
  ['a non-enumerable own property (left out)', withHidden],
  ['a null prototype', nullPrototype],
  ['an own "__proto__" key (set through [[Set]] as Object.assign does)', protoKey],
  ['a CharField', new CharField({ maxLength: 10, allowBlank: true })],
  ['a ChoiceField', new ChoiceField({ choices: [['a', 'A'], ['b', 'B']], required: false })],
  ['a BooleanField', new BooleanField({ default: true })],
  ['a ListField', new ListField({ child: new CharField() })],
];

for (const [name, source] of rows) {
  test(`shallowClone :: ${name}: the same object as Object.assign builds`, () => {
    // Twice: the first call compiles the cloner of the shape, the second reuses it.
    for (let round = 0; round < 2; round++) {
      const clone = shallowClone(source);
      assert.is.not(clone, source, name);
      assert.equal(shape(clone), shape(reference(source)), `${name} (round ${round})`);
    }
  });
}

test('shallowClone :: the clone shares values but not its own properties', () => {
  const source = { list: [1], name: 'a' };
  const clone = shallowClone(source);
  assert.is(clone.list, source.list);
  clone.name = 'b';
  assert.is(source.name, 'a');
});

test('shallowClone :: many shapes of one prototype still clone exactly (past the kept cloners)', () => {
  class Bag {}
  for (let i = 0; i < 20; i++) {
    const source = Object.assign(new Bag(), { [`key${i}`]: i, common: 'x' });
    assert.equal(shape(shallowClone(source)), shape(reference(source)), `shape ${i}`);
  }
});

test('Field.copy :: an unbound copy with the declared source and label, validators copied', () => {
  const field = new CharField({ maxLength: 5, source: 'title', label: 'Title' });
  const bound = field.copy();
  bound.bind('name', { parent: null } as never);
  assert.is(bound.fieldName, 'name');
  const copy = bound.copy();
  assert.ok(copy instanceof CharField);
  assert.is(copy.fieldName, '');
  assert.is(copy.parent, null);
  assert.is(copy.source, 'title');
  assert.is(copy.label, 'Title');
  assert.equal(copy.sourceAttrs, []);
  assert.is.not(copy.validators, bound.validators);
  assert.equal(copy.validators, bound.validators);
  assert.is(copy.maxLength, 5);
});

test('Field.bind :: source equal to the field name is refused with the original message', () => {
  const field = new CharField({ source: 'title' });
  assert.throws(() => field.copy().bind('title', new (class Owner {})() as never),
    (error: Error) => error.message === "It is redundant to specify `source: 'title'` on field 'CharField' in serializer 'Owner', "
      + 'because it is the same as the field name. Remove the `source` option.');
  assert.ok(new Field({ source: 'x' }).copy());
});

test.run();
