/**
 * `BaseModel`: the base class of every model. A sequelize-typescript `Model` with Django's
 * conveniences: `Model.objects` (the root QuerySet), `Model.meta`, `instance.pk`,
 * `DoesNotExist`/`MultipleObjectsReturned`, model signals, `auto_now(_add)` fields, and
 * `save()`/`destroy()` that join the current `atomic()` transaction.
 *
 *     @Table({ tableName: 'snippets_snippet' })
 *     export class Snippet extends BaseModel {
 *       declare static objects: Manager<Snippet>;   // types Snippet.objects.get() as Snippet
 *       static override meta = { appLabel: 'snippets', ordering: ['created'] };
 *       ...
 *     }
 */
import 'reflect-metadata';
import { Model, type ModelCtor } from 'sequelize-typescript';
import type { SaveOptions, InstanceDestroyOptions } from 'sequelize';
import { Manager, type QuerySet } from './queryset';
import type { PkValue } from './lookupTypes';
import { ObjectDoesNotExist, MultipleObjectsReturned } from './errors';
import { preSave, postSave } from './signals';
import { getFieldInfo, type AnyModelClass } from './fieldInfo';
import { deleteInstances } from './deletion';
import { ensureModel } from './connection';
import { compiledSave } from './compiledSave';

/** Django's `Meta` options this layer understands. */
export interface ModelMeta {
  /** The app's label (`auth`, `snippets`): used for permissions and content types. */
  appLabel: string;
  /** Default ordering: `['-created']`, `['owner__username']`. */
  ordering?: readonly string[];
  verboseName?: string;
  verboseNamePlural?: string;
  /** Sets of fields that must be unique together (serializers add validators for them). */
  uniqueTogether?: ReadonlyArray<readonly string[]>;
  /** Named indexes over one or more fields (`makemigrations` creates them). */
  indexes?: ReadonlyArray<{ name: string; fields: readonly string[] }>;
  /** Reverse-relation name used for belongsTo relations declared on this model. */
  defaultRelatedName?: string;
  /** Django's `db_table` is `@Table({ tableName })`; this mirrors it for introspection. */
  dbTable?: string;
}

type ManagerClass = new (model: never) => Manager<BaseModel>;

const managers = new WeakMap<object, Manager<BaseModel>>();
const doesNotExist = new WeakMap<object, typeof ObjectDoesNotExist>();
const multipleReturned = new WeakMap<object, typeof MultipleObjectsReturned>();

/** The base class of all models. */
export abstract class BaseModel extends Model {
  /**
   * The root QuerySet. Redeclare it in each model for precise types:
   * `declare static objects: Manager<Snippet>;` (or your Manager subclass).
   */
  declare static objects: Manager<BaseModel>;

  /** The manager class `objects` is built from (set a `Manager` subclass for helpers). */
  static managerClass: ManagerClass = Manager<BaseModel>;

  /** Django's `Meta`: app label, default ordering, verbose names, unique_together. */
  static meta: ModelMeta = { appLabel: '' };

  /** Raised by `get()` when nothing matches; `instanceof ObjectDoesNotExist` holds too. */
  static get DoesNotExist(): typeof ObjectDoesNotExist {
    let cls = doesNotExist.get(this);
    if (!cls) {
      cls = class extends ObjectDoesNotExist {};
      Object.defineProperty(cls, 'name', { value: `${this.name}.DoesNotExist` });
      doesNotExist.set(this, cls);
    }
    return cls;
  }

  /** Raised by `get()` when several rows match. */
  static get MultipleObjectsReturned(): typeof MultipleObjectsReturned {
    let cls = multipleReturned.get(this);
    if (!cls) {
      cls = class extends MultipleObjectsReturned {};
      Object.defineProperty(cls, 'name', { value: `${this.name}.MultipleObjectsReturned` });
      multipleReturned.set(this, cls);
    }
    return cls;
  }

  /** The value of the primary key attribute (typed as the model's `id`; null before the row is saved). */
  get pk(): PkValue<this> | null {
    return this.get((this.constructor as typeof BaseModel).primaryKeyAttribute) as PkValue<this> | null;
  }

  set pk(value: unknown) {
    this.set((this.constructor as typeof BaseModel).primaryKeyAttribute, value);
  }

  /**
   * The object as text, as the host framework's default: `Snippet object (1)` (`None` before
   * it is saved). Override it to name objects in the admin and in `StringRelatedField`s.
   */
  override toString(): string {
    const pk = this.pk;
    return `${this.constructor.name} object (${pk === null || pk === undefined ? 'None' : String(pk)})`;
  }

  /**
   * Insert or update the row. Sets `autoNow`/`autoNowAdd` fields, sends `preSave` and
   * `postSave` (with `created`), and joins the current `atomic()` transaction.
   */
  override async save(options?: SaveOptions): Promise<this> {
    const model = this.constructor as typeof BaseModel;
    ensureModel(model as never);
    const created = this.isNewRecord;
    const now = new Date();
    for (const field of getFieldInfo(model as never).fields) {
      if (field.autoNow || (field.autoNowAdd && created && this.get(field.name) == null)) this.set(field.name, now);
    }
    // A signal nobody listens to costs no asynchronous step.
    if (preSave.hasListeners(model)) await preSave.send(model, { instance: this, created });
    // The compiled INSERT/UPDATE when the model's save is nothing but the write (see compiledSave.ts).
    if (!(await compiledSave(model as never, this, options))) await super.save(options);
    if (postSave.hasListeners(model)) await postSave.send(model, { instance: this, created });
    return this;
  }

  /**
   * Delete the row: dependents declared `onDelete: 'CASCADE'`/`'SET NULL'` and
   * many-to-many join rows first, with `preDelete`/`postDelete` around it.
   */
  override async destroy(options?: InstanceDestroyOptions): Promise<void> {
    void options;
    const model = this.constructor as typeof BaseModel;
    await deleteInstances(model as never, [this]);
  }

  /** Reload the row's fields from the database (Django's `refresh_from_db()`). */
  async refreshFromDb(): Promise<this> {
    return this.reload();
  }
}

Object.defineProperty(BaseModel, 'objects', {
  configurable: true,
  get(this: typeof BaseModel): Manager<BaseModel> {
    let manager = managers.get(this);
    if (!manager || !(manager instanceof this.managerClass)) {
      manager = new this.managerClass(this as never);
      managers.set(this, manager);
    }
    return manager;
  },
});

/** The model class type for `M` (its constructor plus BaseModel's statics). */
export type ModelClass<M extends BaseModel = BaseModel> = typeof BaseModel & (new (...args: never[]) => M);

/**
 * A fresh root QuerySet for `model` (from its manager, so a custom `getQueryset()` applies),
 * for code generic over models: typed for a model class, untyped for any Sequelize model class.
 */
export function querysetFor<M extends BaseModel>(model: new (...args: never[]) => M): QuerySet<M>;
export function querysetFor(model: AnyModelClass | ModelCtor): QuerySet<BaseModel>;
export function querysetFor(model: AnyModelClass | ModelCtor): QuerySet<BaseModel> {
  return (model as typeof BaseModel).objects.all();
}
