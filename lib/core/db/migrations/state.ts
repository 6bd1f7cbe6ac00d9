/**
 * The project state: every model as the migrations so far describe it (Django's
 * `ProjectState`/`ModelState`). Built by replaying operations, no database involved; the
 * schema editor reads tables, columns and indexes from it, the autodetector compares it with
 * the models.
 */
import { columnOf, isManyToMany, type FieldSpec, type NamedField } from './fieldSpec';

/** An index a model declares in `meta.indexes`. */
export interface IndexSpec {
  name: string;
  fields: readonly string[];
}

/** The `meta` options migrations track. */
export interface ModelOptions {
  ordering?: readonly string[];
  verboseName?: string;
  verboseNamePlural?: string;
  /** Sets of field names unique together. */
  uniqueTogether?: ReadonlyArray<readonly string[]>;
  indexes?: readonly IndexSpec[];
}

/** The option keys `AlterModelOptions` changes (the others have their own operations). */
export const ALTERABLE_OPTIONS = ['ordering', 'verboseName', 'verboseNamePlural'] as const;

/** One model at one point of the history. */
export class ModelState {
  constructor(
    /** The label of the app whose migrations own the model. */
    readonly app: string,
    /** The class name (`Snippet`). */
    readonly name: string,
    readonly table: string,
    readonly fields: NamedField[],
    readonly options: ModelOptions = {},
  ) {}

  /** `app.modelname`, the key models are stored under. */
  get key(): string {
    return modelKey(this.app, this.name);
  }

  /** A deep copy that can be changed without touching this one. */
  clone(changes: Partial<{ name: string; table: string; fields: NamedField[]; options: ModelOptions }> = {}): ModelState {
    return new ModelState(
      this.app,
      changes.name ?? this.name,
      changes.table ?? this.table,
      (changes.fields ?? this.fields).map(([n, s]) => [n, { ...s }] as const),
      { ...(changes.options ?? this.options) },
    );
  }

  /** The spec of field `name`; throws when the model has none. */
  field(name: string): FieldSpec {
    const found = this.fields.find(([n]) => n === name);
    if (!found) throw new Error(`Model ${this.app}.${this.name} has no field '${name}'.`);
    return found[1];
  }

  /** True when the model has field `name`. */
  hasField(name: string): boolean {
    return this.fields.some(([n]) => n === name);
  }

  /** The primary key field. */
  get pk(): NamedField {
    const pk = this.fields.find(([, s]) => s.primaryKey);
    if (!pk) throw new Error(`Model ${this.app}.${this.name} has no primary key field.`);
    return pk;
  }

  /** Fields stored as columns of the table (many-to-many ones excluded). */
  get concreteFields(): NamedField[] {
    return this.fields.filter(([, s]) => !isManyToMany(s));
  }

  /** The column of field `name` (field names or columns accepted, as `uniqueTogether` allows both). */
  column(name: string): string {
    const byName = this.fields.find(([n]) => n === name);
    if (byName) return columnOf(byName[0], byName[1]);
    const byColumn = this.fields.find(([n, s]) => !isManyToMany(s) && columnOf(n, s) === name);
    if (byColumn) return name;
    throw new Error(`Model ${this.app}.${this.name} has no field '${name}'.`);
  }
}

/** `app.modelname` (lower case), how models are keyed. */
export function modelKey(app: string, name: string): string {
  return `${app}.${name.toLowerCase()}`;
}

/** Every model at one point of the history. */
export class ProjectState {
  readonly models = new Map<string, ModelState>();

  /** A copy whose models can be replaced without touching this one. */
  clone(): ProjectState {
    const copy = new ProjectState();
    for (const [key, model] of this.models) copy.models.set(key, model.clone());
    return copy;
  }

  /** Add (or replace) a model. */
  add(model: ModelState): void {
    this.models.set(model.key, model);
  }

  /** Remove a model; throws when it is not there. */
  remove(app: string, name: string): ModelState {
    const model = this.get(app, name);
    this.models.delete(model.key);
    return model;
  }

  /** The model `name` of `app`; throws when the history has not created it. */
  get(app: string, name: string): ModelState {
    const model = this.models.get(modelKey(app, name));
    if (!model) throw new Error(`The migration history has no model ${app}.${name}.`);
    return model;
  }

  /** The model a reference (`auth.User`, or `User` inside `app`) points at. */
  resolve(reference: string, app: string): ModelState {
    const dot = reference.indexOf('.');
    return dot < 0 ? this.get(app, reference) : this.get(reference.slice(0, dot), reference.slice(dot + 1));
  }

  /** Every field (of any model) pointing at `target`, as `[model, fieldName, spec]`. */
  relationsTo(target: ModelState): Array<[ModelState, string, FieldSpec]> {
    const found: Array<[ModelState, string, FieldSpec]> = [];
    for (const model of this.models.values()) {
      for (const [name, spec] of model.fields) {
        if (spec.to && modelKeyOf(spec.to, model.app) === target.key) found.push([model, name, spec]);
      }
    }
    return found;
  }
}

/** The key of a model reference, relative to `app` when it has no app label. */
export function modelKeyOf(reference: string, app: string): string {
  const dot = reference.indexOf('.');
  return dot < 0 ? modelKey(app, reference) : modelKey(reference.slice(0, dot), reference.slice(dot + 1));
}
