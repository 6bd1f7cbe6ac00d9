/**
 * Instances with deferred attributes: a QuerySet narrowed by `deferExcept(paths)` selects only
 * the columns `paths` name (plus primary and foreign keys), and the instances it builds answer
 * every other attribute of their model with a `DeferredAttributeError`. The host framework
 * loads a deferred field on first read (`only()`/`defer()`); a read here is synchronous and
 * cannot query, so it throws instead, and counts (`deferredReadCount()`), so that the code
 * that narrowed can notice the read even when user code caught the error, and fetch the whole
 * object again (`GenericAPIView.getObject()` does, around the object permission checks).
 *
 * The deferred attributes live on the prototype of the instance's `dataValues`, not enumerable:
 * `Object.keys()`, `for...in` and `toJSON()` see the loaded attributes only, as on a Sequelize
 * instance built from a partial SELECT. Setting one in `dataValues` (Sequelize's raw `set()`)
 * makes it an ordinary loaded value; the instance's own setters read the old value first, so
 * they throw too.
 */
import type { ModelCtor } from 'sequelize-typescript';
import { getFieldInfo } from './fieldInfo';

/** Raised when code reads an attribute that a narrowed QuerySet did not load. */
export class DeferredAttributeError extends Error {
  constructor(readonly modelName: string, readonly attribute: string) {
    super(
      `${modelName}.${attribute} was not loaded: this instance comes from a QuerySet narrowed with deferExcept() `
      + '(retrieve() reads only the columns its serializer reads). Override getObject(), or return false from '
      + 'deferredLoadingAllowed() on the view, to get whole instances.',
    );
    this.name = 'DeferredAttributeError';
  }
}

let reads = 0;

/**
 * How many deferred attributes have been read in this process so far: compare it before and
 * after running code on a narrowed instance to learn whether that code needed more columns.
 */
export function deferredReadCount(): number {
  return reads;
}

/** The loaded attributes and joined relations of one level of a narrowed row. */
export interface DeferredNode {
  attributes: ReadonlySet<string>;
  children: ReadonlyMap<string, DeferredNode>;
}

/** What `deferUnloaded()` does at one level of a narrowed row, worked out once per tree node. */
interface DeferPlan {
  /** The prototype for `dataValues` (null: every attribute is loaded). */
  proto: object | null;
  children: Array<{ name: string; model: ModelCtor; plan: DeferPlan }>;
}

const plans = new WeakMap<DeferredNode, DeferPlan>();

function planFor(model: ModelCtor, node: DeferredNode): DeferPlan {
  let plan = plans.get(node);
  if (!plan) {
    const info = getFieldInfo(model);
    const children: DeferPlan['children'] = [];
    for (const [name, child] of node.children) {
      const relation = info.getRelation(name);
      if (relation) children.push({ name, model: relation.target as ModelCtor, plan: planFor(relation.target as ModelCtor, child) });
    }
    plan = { proto: deferredPrototype(model, node.attributes), children };
    plans.set(node, plan);
  }
  return plan;
}

/** The prototype whose accessors stand for the attributes of `model` that `loaded` does not list. */
function deferredPrototype(model: ModelCtor, loaded: ReadonlySet<string>): object | null {
  const descriptors: PropertyDescriptorMap = {};
  for (const field of getFieldInfo(model).fields) {
    const attribute = field.name;
    if (loaded.has(attribute)) continue;
    descriptors[attribute] = {
      enumerable: false,
      configurable: true,
      get(): never {
        reads += 1;
        throw new DeferredAttributeError(model.name, attribute);
      },
      set(this: object, value: unknown): void {
        Object.defineProperty(this, attribute, { value, writable: true, enumerable: true, configurable: true });
      },
    };
  }
  return Object.keys(descriptors).length ? Object.create(Object.prototype, descriptors) as object : null;
}

interface WithDataValues {
  dataValues?: Record<string, unknown>;
}

/**
 * Make the attributes of `instances` (of `model`) that `node` does not list deferred, and so on
 * down the joined relations `node` lists. Call it once on freshly built instances; `node` should
 * be kept (its plan is worked out once per node).
 */
export function deferUnloaded(instances: readonly unknown[], model: ModelCtor, node: DeferredNode): void {
  applyPlan(instances, planFor(model, node));
}

function applyPlan(instances: readonly unknown[], plan: DeferPlan): void {
  for (const instance of instances) applyToInstance(instance, plan);
}

function applyToInstance(instance: unknown, plan: DeferPlan): void {
  const values = (instance as WithDataValues | null)?.dataValues;
  if (!values) return;
  if (plan.proto) Object.setPrototypeOf(values, plan.proto);
  for (const child of plan.children) {
    const related = values[child.name];
    if (related !== null && related !== undefined) applyToInstance(related, child.plan);
  }
}
