/**
 * `isModelClass(value)`: the run-time test that a value is a model class of the framework (a
 * subclass of `BaseModel`), so code handed a class as `unknown` or as Sequelize's `ModelCtor`
 * (the app registry, fixtures, the admin) narrows it instead of casting.
 */
import { BaseModel, type ModelClass } from './models';

/** True for a concrete model class: a subclass of `BaseModel` (its `meta`, `objects` and `pk`). */
export function isModelClass(value: unknown): value is ModelClass {
  return typeof value === 'function' && value.prototype instanceof BaseModel;
}

/** The model classes among `values` (e.g. `apps.getModels()`), in order. */
export function modelClasses(values: readonly unknown[]): ModelClass[] {
  return values.filter(isModelClass);
}
