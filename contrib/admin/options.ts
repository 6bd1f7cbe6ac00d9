/**
 * `ModelAdmin`: how the admin shows one model — the changelist columns (`listDisplay`), the
 * search (`searchFields`, across relations too), the sidebar filters (`listFilter`), the bulk
 * actions (`actions`: "Delete selected …" by default), the form (`fields`, or a
 * `serializerClass` of your own) and the permissions a staff user needs. Subclass it, or pass
 * the options to `adminSite.register()`.
 *
 * @example
 * adminSite.register(Snippet, { listDisplay: ['title', 'language', 'owner'], listFilter: ['language', 'owner'],
 *   searchFields: ['title', 'owner__username'] });
 */
import { Model, type ModelCtor } from 'sequelize-typescript';
import { flattenChoices, getFieldInfo, Q, type QuerySet } from '../../lib/core/db';
import { getDecimal, quantizeDecimal } from '../../lib/utils/decimal';
import type { AuthUser } from '../../lib/core/http';
import { ModelSerializer, type Serializer } from '../../lib/serializers';
import { capitalize } from './text';

/** A model the admin can manage: a model class with `objects` and `meta`. */
export type AdminModel = ModelCtor<Model> & {
  objects: { all(): QuerySet<Model> };
  meta?: { appLabel?: string; modelName?: string; verboseName?: string; verboseNamePlural?: string; ordering?: readonly string[] };
};

/** The options `adminSite.register()` accepts (all optional). */
export interface ModelAdminOptions {
  /** Changelist columns: field names, `'__str__'`, or functions of the object. */
  listDisplay?: Array<string | ((obj: Model) => unknown)>;
  /** Fields searched by the changelist's search box (`name`, `=exact`, `^prefix`, `relation__field`). */
  searchFields?: string[];
  /** Sidebar filters: columns (choices, booleans, plain values) and foreign-key relations. */
  listFilter?: string[];
  /** Bulk actions of the changelist (default: delete the selected objects); `[]` for none. */
  actions?: string[];
  /** Form fields (default: every editable field). */
  fields?: string[] | null;
  /** Changelist ordering (default: the model's). */
  ordering?: string[] | null;
  /** Rows per changelist page. */
  listPerPage?: number;
  /** A serializer class for the form instead of one generated from `fields`. */
  serializerClass?: (new (options?: Record<string, unknown>) => Serializer) | null;
}

/** The serializer class the admin builds for a model admin (one per admin, created once). */
const generated = new WeakMap<ModelAdmin, new (options?: Record<string, unknown>) => Serializer>();

/**
 * Encapsulates all admin options and functionality for a given model. Override the `get*()`
 * and `has*Permission()` methods to change them per request.
 */
export class ModelAdmin implements ModelAdminOptions {
  listDisplay: Array<string | ((obj: Model) => unknown)> = ['__str__'];
  searchFields: string[] = [];
  listFilter: string[] = [];
  actions: string[] = ['delete_selected'];
  fields: string[] | null = null;
  ordering: string[] | null = null;
  listPerPage = 100;
  serializerClass: (new (options?: Record<string, unknown>) => Serializer) | null = null;

  constructor(readonly model: AdminModel, options: ModelAdminOptions = {}) {
    Object.assign(this, options);
  }

  /** The model's app label (`auth`). */
  get appLabel(): string {
    return this.model.meta?.appLabel ?? 'app';
  }

  /** The model's lower-case name (`user`). */
  get modelName(): string {
    return this.model.meta?.modelName ?? this.model.name.toLowerCase();
  }

  /** The singular human name (`user`). */
  get verboseName(): string {
    return this.model.meta?.verboseName ?? this.model.name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  }

  /** The plural human name (`users`). */
  get verboseNamePlural(): string {
    return this.model.meta?.verboseNamePlural ?? `${this.verboseName}s`;
  }

  /** The rows of the changelist: every object, in `ordering`. */
  getQueryset(): QuerySet<Model> {
    const queryset = this.model.objects.all();
    return this.ordering ? queryset.orderBy(...this.ordering) : queryset;
  }

  /**
   * Filter `queryset` by the search `term`: every word must match one of `searchFields`
   * (`relation__field` follows relations; rows found through a to-many relation are listed
   * once).
   */
  getSearchResults(queryset: QuerySet<Model>, term: string): QuerySet<Model> {
    const words = term.split(/\s+/).filter(Boolean);
    if (!this.searchFields.length || !words.length) return queryset;
    let result = queryset;
    for (const word of words) {
      const alternatives = this.searchFields.map((name) => {
        if (name.startsWith('=')) return { [`${name.slice(1)}__iexact`]: word };
        if (name.startsWith('^')) return { [`${name.slice(1)}__istartswith`]: word };
        return { [`${name}__icontains`]: word };
      });
      result = result.filter(Q.or(...alternatives));
    }
    const info = getFieldInfo(this.model);
    const throughMany = this.searchFields.some((name) => {
      const relation = info.getRelation(name.replace(/^[=^@]/, '').split('__')[0]);
      return relation !== undefined && relation !== null && relation.kind !== 'belongsTo' && relation.kind !== 'hasOne';
    });
    return throughMany ? result.distinct() : result;
  }

  /** The foreign-key relations shown as changelist columns (loaded with the rows). */
  getListSelectRelated(): string[] {
    const info = getFieldInfo(this.model);
    return this.listDisplay.filter((item): item is string => typeof item === 'string'
      && info.getRelation(item)?.kind === 'belongsTo');
  }

  /** The form fields: `fields`, else every editable column and to-many relation. */
  getFields(): string[] {
    if (this.fields) return this.fields;
    const info = getFieldInfo(this.model);
    const names: string[] = [];
    for (const column of info.fields) {
      if (column.primaryKey && column.autoIncrement) continue;
      if (column.editable === false || column.autoNow || column.autoNowAdd) continue;
      names.push(column.relation ?? column.name);
    }
    for (const relation of info.relations) if (relation.kind === 'belongsToMany' && !relation.reverse) names.push(relation.name);
    return names;
  }

  /** The serializer class of the add/change form (generated once from `getFields()`). */
  getSerializerClass(): new (options?: Record<string, unknown>) => Serializer {
    if (this.serializerClass) return this.serializerClass;
    let cls = generated.get(this);
    if (!cls) {
      const model = this.model;
      const fields = this.getFields();
      cls = class AdminForm extends ModelSerializer {
        static Meta = { model, fields };
      } as unknown as new (options?: Record<string, unknown>) => Serializer;
      generated.set(this, cls);
    }
    return cls;
  }

  /** The column headers of the changelist. */
  getListHeaders(): string[] {
    const info = getFieldInfo(this.model);
    return this.listDisplay.map((item) => {
      if (typeof item === 'function') return capitalize(item.name || '');
      if (item === '__str__') return capitalize(this.verboseName);
      const column = info.fields.find((f) => f.name === item || f.relation === item);
      return capitalize(column?.verboseName ?? item.replace(/_/g, ' '));
    });
  }

  /**
   * The value of one changelist cell: a related object's text for a foreign key, a decimal
   * with its places (`3.10`, also where SQLite gives back `3.1`), the display text of a choice.
   */
  getListValue(obj: Model, item: string | ((obj: Model) => unknown)): unknown {
    if (typeof item === 'function') return item(obj);
    if (item === '__str__') return String(obj);
    const value = (obj as Model & Record<string, unknown>)[item];
    if (typeof value === 'function') return (value as () => unknown).call(obj);
    if (value === null || value === undefined) return value;
    const column = getFieldInfo(this.model).fields.find((f) => f.name === item);
    if (column?.choices) {
      const label = flattenChoices(column.choices).find(([choice]) => String(choice) === String(value));
      if (label) return label[1];
    }
    if (column?.type === 'DECIMAL' && column.decimalPlaces !== null && (typeof value === 'number' || typeof value === 'string')) {
      const decimal = getDecimal(String(value));
      if (decimal) return quantizeDecimal(decimal, column.decimalPlaces, 'ROUND_HALF_EVEN');
    }
    if (value instanceof Model) return String(value);
    return value;
  }

  private permission(user: AuthUser, action: string): Promise<boolean> | boolean {
    if (!user.is_active || !user.is_staff) return false;
    if (user.is_superuser) return true;
    return user.hasPerm(`${this.appLabel}.${action}_${this.modelName}`);
  }

  /** May `user` see the changelist and forms? (`view` or `change` permission) */
  async hasViewPermission(user: AuthUser): Promise<boolean> {
    return (await this.permission(user, 'view')) || (await this.permission(user, 'change'));
  }

  /** May `user` add objects? */
  async hasAddPermission(user: AuthUser): Promise<boolean> {
    return this.permission(user, 'add');
  }

  /** May `user` change objects? */
  async hasChangePermission(user: AuthUser): Promise<boolean> {
    return this.permission(user, 'change');
  }

  /** May `user` delete objects? */
  async hasDeletePermission(user: AuthUser): Promise<boolean> {
    return this.permission(user, 'delete');
  }
}
