/**
 * Generic filter backends for list views: `SearchFilter` (`?search=`), `OrderingFilter`
 * (`?ordering=`) and `FieldFilterBackend` (`?language=python`, in the spirit of django-filter's
 * `filterset_fields`). Enable them with `filterBackends` on a view or `DEFAULT_FILTER_BACKENDS`.
 *
 * Client input never reaches SQL as a name: every field a client names is checked against the
 * view's allowed list and the model's fields; values only travel as bound parameters.
 */
import { getFieldInfo, type FieldInfo, type ModelInfo } from './core/db/fieldInfo';
import { Q } from './core/db/q';
import { getVendor } from './core/db/connection';
import { ImproperlyConfigured } from './core/conf';
import { gettext } from './core/i18n';
import { ValidationError } from './exceptions';
import { DateTimeField } from './fields';
import type { GenericQuerySet } from './generics';
import type { Request } from './request';
import type { SchemaField, SchemaParameter } from './pagination';
import { apiSettings } from './settings';
import { escapeHtml } from './core/html';
import { DateValueError, parseDate } from './utils/datetimeFormat';
import { replaceQueryParam } from './utils/urls';

/** A queryset that filter backends can narrow: `QuerySet` satisfies it. */
export interface FilterableQuerySet extends GenericQuerySet<unknown> {
  distinct(): FilterableQuerySet;
  none?(): FilterableQuerySet;
}

/** True for a queryset that can drop repeated rows (`QuerySet.distinct()` keeps its type). */
function isDistinctable<QS extends GenericQuerySet<unknown>>(queryset: QS): queryset is QS & { distinct(): QS } {
  return 'distinct' in queryset && typeof queryset.distinct === 'function';
}

/** `queryset.distinct()`: the rows a to-many lookup may repeat, once each. */
function distinct<QS extends GenericQuerySet<unknown>>(queryset: QS): QS {
  if (!isDistinctable(queryset)) throw new TypeError(`${queryset.model.name} querysets cannot be made distinct (no distinct())`);
  return queryset.distinct();
}

/** The view as filter backends see it: the attributes they read, all optional. */
export interface FilterView {
  searchFields?: readonly string[] | null;
  orderingFields?: readonly (string | readonly [string, string])[] | '__all__' | null;
  ordering?: string | readonly string[] | null;
  filtersetFields?: readonly string[] | null;
  getSerializerClass?: () => unknown;
  serializerClass?: unknown;
}

function modelInfoOf(queryset: GenericQuerySet<unknown>): ModelInfo {
  return getFieldInfo(queryset.model);
}

/** Where a `__`-separated field path leads: the final concrete field and whether it crossed a to-many relation. */
interface ResolvedPath {
  field: FieldInfo;
  throughMany: boolean;
}

/** Follow `owner__username` through the model's relations; null when any part is unknown. */
function resolveFieldPath(info: ModelInfo, path: string): ResolvedPath | null {
  const parts = path.split('__');
  let current = info;
  let throughMany = false;
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i];
    const last = i === parts.length - 1;
    const relation = current.getRelation(part);
    if (relation) {
      throughMany = throughMany || relation.many;
      current = getFieldInfo(relation.target);
      if (last) return { field: current.pk, throughMany };
      continue;
    }
    const field = part === 'pk' ? current.pk : current.getField(part);
    if (!field || !last) return null;
    return { field, throughMany };
  }
  return null;
}

/**
 * A base class from which all filter backend classes should inherit. Override
 * `filterQueryset()` to narrow the queryset for a request.
 */
export abstract class BaseFilterBackend {
  /** Return a filtered queryset. */
  abstract filterQueryset<Q extends GenericQuerySet<unknown>>(request: Request, queryset: Q, view: FilterView): Q | Promise<Q>;

  /** The query parameters this backend reads, as schema fields. */
  getSchemaFields(_view?: unknown): SchemaField[] {
    return [];
  }

  /** The query parameters this backend reads, as OpenAPI parameters. */
  getSchemaOperationParameters(_view?: unknown): SchemaParameter[] {
    return [];
  }
}

/**
 * Split a search string into terms: on whitespace and commas, keeping quoted phrases
 * (`"a b"` or `'a b'`) together, as the original's `search_smart_split`.
 */
export function searchSmartSplit(search: string): string[] {
  const tokens = search.match(/(?:[^\s'"]*(?:(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')[^\s'"]*)+)|\S+/g) ?? [];
  const terms: string[] = [];
  for (const raw of tokens) {
    const token = raw.replace(/^,+|,+$/g, '');
    const quote = token[0];
    if (token.length >= 2 && (quote === '"' || quote === "'") && token[token.length - 1] === quote) {
      const phrase = token.slice(1, -1).split(`\\${quote}`).join(quote).split('\\\\').join('\\');
      if (phrase) terms.push(phrase);
    } else {
      for (const sub of token.split(',')) if (sub.trim()) terms.push(sub.trim());
    }
  }
  return terms;
}

/**
 * Search: `?search=term` matches when every term is found in at least one of the view's
 * `searchFields`. Prefixes choose the lookup: `^` starts-with, `=` exact (case-insensitive),
 * `@` full-text (a contains search on SQLite and MySQL), `$` regex; default contains.
 */
export class SearchFilter extends BaseFilterBackend {
  /** The query parameter holding the search terms; `undefined` means `SEARCH_PARAM`. */
  searchParam?: string;
  template = 'api_framework/filters/search.html';
  lookupPrefixes: Readonly<Record<string, string>> = { '^': 'istartswith', '=': 'iexact', '@': 'search', '$': 'iregex' };
  searchTitle = 'Search';
  searchDescription = 'A search term.';

  /** The name of the search query parameter. */
  getSearchParam(): string {
    return this.searchParam ?? apiSettings.SEARCH_PARAM;
  }

  /** The fields to search: the view's `searchFields`. Override to vary them per request. */
  getSearchFields(view: FilterView, _request: Request): readonly string[] | null {
    return view.searchFields ?? null;
  }

  /** The search terms of the request (null characters removed). */
  getSearchTerms(request: Request): string[] {
    const value = request.queryParams.get(this.getSearchParam()) ?? '';
    return searchSmartSplit(String(value).split('\u0000').join(''));
  }

  /** The lookup for a search field: `^title` -> `title__istartswith`, `title` -> `title__icontains`. */
  constructSearch(fieldName: string): string {
    let lookup = this.lookupPrefixes[fieldName[0]];
    let name = fieldName;
    if (lookup) name = fieldName.slice(1);
    else lookup = 'icontains';
    // Full-text search needs a database-specific index; SQLite and MySQL use a contains search.
    if (lookup === 'search') lookup = 'icontains';
    return `${name}__${lookup}`;
  }

  /** True when a search field crosses a to-many relation, so rows could repeat. */
  mustCallDistinct(queryset: GenericQuerySet<unknown>, searchFields: readonly string[]): boolean {
    const info = modelInfoOf(queryset);
    return searchFields.some((field) => {
      const name = field[0] in this.lookupPrefixes ? field.slice(1) : field;
      return resolveFieldPath(info, name)?.throughMany ?? false;
    });
  }

  /** Keep the rows where every term matches at least one search field. */
  filterQueryset<QS extends GenericQuerySet<unknown>>(request: Request, queryset: QS, view: FilterView): QS {
    const searchFields = this.getSearchFields(view, request);
    const searchTerms = this.getSearchTerms(request);
    if (!searchFields || !searchFields.length || !searchTerms.length) return queryset;
    const info = modelInfoOf(queryset);
    for (const field of searchFields) {
      const name = field[0] in this.lookupPrefixes ? field.slice(1) : field;
      if (!resolveFieldPath(info, name)) {
        throw new ImproperlyConfigured(`Invalid search field '${field}' on ${view.constructor.name}: the model has no such field.`);
      }
      if (this.constructSearch(String(field)).endsWith('regex') && getVendor() === 'sqlite') {
        throw new ImproperlyConfigured(
          `Search field '${field}' on ${view.constructor.name} uses a regex lookup, which the SQLite backend does not ` +
            "support (node's sqlite3 driver cannot register a REGEXP function). Use MySQL/MariaDB or another prefix.",
        );
      }
    }
    const ormLookups = searchFields.map((field) => this.constructSearch(String(field)));
    const conditions = searchTerms.map((term) => Q.or(...ormLookups.map((lookup) => ({ [lookup]: term }))));
    let result = queryset.filter(Q.and(...conditions)) as QS;
    if (this.mustCallDistinct(queryset, searchFields)) {
      // Searching across a to-many relation can repeat rows; only then pay for DISTINCT.
      result = distinct(result);
    }
    return result;
  }

  /** The search box of the browsable API. */
  toHtml(request: Request, _queryset: unknown, view: FilterView): string {
    if (!view.searchFields || !view.searchFields.length) return '';
    const terms = this.getSearchTerms(request);
    const term = terms.length ? terms[0] : '';
    return (
      `<h2>${escapeHtml(gettext('Search'))}</h2>\n<form class="form-inline">\n  <div class="form-group">\n` +
      '    <div class="input-group">\n' +
      `      <input type="text" class="form-control" style="width: 350px" name="${escapeHtml(this.getSearchParam())}" value="${escapeHtml(term)}">\n` +
      '      <span class="input-group-btn">\n' +
      `        <button class="btn btn-default" type="submit"><span class="glyphicon glyphicon-search" aria-hidden="true"></span> ${escapeHtml(gettext('Search'))}</button>\n` +
      '      </span>\n    </div>\n  </div>\n</form>\n'
    );
  }

  override getSchemaFields(_view?: unknown): SchemaField[] {
    return [
      {
        name: this.getSearchParam(),
        required: false,
        location: 'query',
        schema: { type: 'string', title: gettext(this.searchTitle), description: gettext(this.searchDescription) },
      },
    ];
  }

  override getSchemaOperationParameters(_view?: unknown): SchemaParameter[] {
    return [
      { name: this.getSearchParam(), required: false, in: 'query', description: gettext(this.searchDescription), schema: { type: 'string' } },
    ];
  }
}

/** One allowed ordering: the field path and its label. */
export type OrderingOption = readonly [field: string, label: string];

interface SerializerFieldLike {
  source?: string;
  writeOnly?: boolean;
  label?: string | null;
}

function serializerFieldsOf(serializer: unknown): Array<[string, SerializerFieldLike]> {
  const fields = (serializer as { fields?: unknown }).fields;
  // A serializer's `fields` is a BindingDict (or a Map): iterate its entries, not its own properties.
  if (fields && typeof (fields as { entries?: unknown }).entries === 'function') {
    return [...(fields as { entries(): Iterable<[string, SerializerFieldLike]> }).entries()];
  }
  if (fields && typeof fields === 'object') return Object.entries(fields as Record<string, SerializerFieldLike>);
  return [];
}

/**
 * Ordering: `?ordering=-created,title` orders by the listed fields that the view allows
 * (`orderingFields`, `'__all__'` for every model field, or by default the serializer's
 * readable fields). Unknown or disallowed fields are silently ignored, and without any valid
 * field the view's `ordering` applies.
 */
export class OrderingFilter extends BaseFilterBackend {
  /** The query parameter holding the ordering; `undefined` means `ORDERING_PARAM`. */
  orderingParam?: string;
  /** The allowed orderings when the view sets none. */
  orderingFields: FilterView['orderingFields'] = null;
  orderingTitle = 'Ordering';
  orderingDescription = 'Which field to use when ordering the results.';
  template = 'api_framework/filters/ordering.html';

  /** The name of the ordering query parameter. */
  getOrderingParam(): string {
    return this.orderingParam ?? apiSettings.ORDERING_PARAM;
  }

  /**
   * The ordering for this request: the valid fields of `?ordering=`, or the view's default.
   * Cursor pagination calls this too.
   */
  getOrdering(request: Request, queryset: GenericQuerySet<unknown>, view: FilterView): string[] | null {
    const params = request.queryParams.get(this.getOrderingParam());
    if (params) {
      const fields = String(params).split(',').map((param) => param.trim());
      const ordering = this.removeInvalidFields(queryset, fields, view, request);
      if (ordering.length) return ordering;
    }
    // No ordering was given, or every field was invalid.
    return this.getDefaultOrdering(view);
  }

  /** The view's `ordering`, as a list (or null). */
  getDefaultOrdering(view: FilterView): string[] | null {
    const ordering = view.ordering;
    if (ordering === null || ordering === undefined) return null;
    return typeof ordering === 'string' ? [ordering] : [...ordering];
  }

  /** The orderings allowed by default: the serializer's readable model fields. */
  getDefaultValidFields(queryset: GenericQuerySet<unknown>, view: FilterView, context: Record<string, unknown> = {}): OrderingOption[] {
    let serializerClass: unknown = null;
    if (typeof view.getSerializerClass === 'function') {
      try {
        serializerClass = view.getSerializerClass();
      } catch (error) {
        if (!(error instanceof Error && error.name.startsWith('AssertionError'))) throw error;
      }
    } else {
      serializerClass = view.serializerClass ?? null;
    }
    if (typeof serializerClass !== 'function') {
      throw new ImproperlyConfigured(
        `Cannot use ${this.constructor.name} on a view which does not have either a 'serializerClass', ` +
          "an overriding 'getSerializerClass' or 'orderingFields' attribute.",
      );
    }
    const info = modelInfoOf(queryset);
    const serializer: unknown = new (serializerClass as new (options: { context: Record<string, unknown> }) => unknown)({ context });
    const options: OrderingOption[] = [];
    for (const [name, field] of serializerFieldsOf(serializer)) {
      if (field.writeOnly || field.source === '*') continue;
      const path = field.source ? field.source.replace(/\./g, '__') : name;
      // Only real model fields can be ordered by; computed serializer fields cannot.
      if (!resolveFieldPath(info, path)) continue;
      options.push([path, field.label ?? name]);
    }
    return options;
  }

  /** The allowed orderings for this view, as `[field, label]` pairs. */
  getValidFields(queryset: GenericQuerySet<unknown>, view: FilterView, context: Record<string, unknown> = {}): OrderingOption[] {
    const validFields = view.orderingFields !== undefined ? view.orderingFields : this.orderingFields;
    if (validFields === null || validFields === undefined) return this.getDefaultValidFields(queryset, view, context);
    if (validFields === '__all__') {
      // Every concrete model field (never a computed property).
      return modelInfoOf(queryset).fields.map((field) => [field.name, field.verboseName || field.name] as const);
    }
    return validFields.map((item) => (typeof item === 'string' ? ([item, item] as const) : item));
  }

  /**
   * Keep only the requested terms that are allowed and name a model field, so that client
   * input is never turned into SQL.
   */
  removeInvalidFields(queryset: GenericQuerySet<unknown>, fields: readonly string[], view: FilterView, request: Request): string[] {
    const valid = new Set(this.getValidFields(queryset, view, { request }).map(([name]) => name));
    const info = modelInfoOf(queryset);
    return fields.filter((term) => {
      const name = term.startsWith('-') ? term.slice(1) : term;
      return valid.has(name) && resolveFieldPath(info, name) !== null;
    });
  }

  /** Order the queryset by this request's ordering (unchanged when there is none). */
  filterQueryset<QS extends GenericQuerySet<unknown>>(request: Request, queryset: QS, view: FilterView): QS {
    const ordering = this.getOrdering(request, queryset, view);
    if (ordering && ordering.length) return queryset.orderBy(...ordering) as QS;
    return queryset;
  }

  /** The context of the ordering control: the current ordering and every option's label. */
  getTemplateContext(request: Request, queryset: GenericQuerySet<unknown>, view: FilterView): {
    current: string | null;
    param: string;
    options: Array<[string, string]>;
  } {
    const current = this.getOrdering(request, queryset, view);
    const options: Array<[string, string]> = [];
    for (const [key, label] of this.getValidFields(queryset, view, { request })) {
      options.push([key, `${label} - ${gettext('ascending')}`]);
      options.push([`-${key}`, `${label} - ${gettext('descending')}`]);
    }
    return { current: current && current.length ? current[0] : null, param: this.getOrderingParam(), options };
  }

  /** The ordering control of the browsable API. */
  toHtml(request: Request, queryset: GenericQuerySet<unknown>, view: FilterView): string {
    const context = this.getTemplateContext(request, queryset, view);
    const base = request.buildAbsoluteUri();
    const items = context.options.map(([key, label]) => {
      const href = escapeHtml(replaceQueryParam(base, context.param, key));
      return key === context.current
        ? `        <a href="${href}" class="list-group-item active">\n            <span class="glyphicon glyphicon-ok" style="float: right" aria-hidden="true"></span> ${escapeHtml(label)}\n        </a>`
        : `        <a href="${href}" class="list-group-item">${escapeHtml(label)}</a>`;
    });
    return `<h2>${escapeHtml(gettext('Ordering'))}</h2>\n<div class="list-group">\n${items.join('\n')}\n</div>\n`;
  }

  override getSchemaFields(_view?: unknown): SchemaField[] {
    return [
      {
        name: this.getOrderingParam(),
        required: false,
        location: 'query',
        schema: { type: 'string', title: gettext(this.orderingTitle), description: gettext(this.orderingDescription) },
      },
    ];
  }

  override getSchemaOperationParameters(_view?: unknown): SchemaParameter[] {
    return [
      { name: this.getOrderingParam(), required: false, in: 'query', description: gettext(this.orderingDescription), schema: { type: 'string' } },
    ];
  }
}

/** The lookups `FieldFilterBackend` applies to declared fields (`?name__<lookup>=`). */
export const FILTER_LOOKUPS = ['exact', 'iexact', 'contains', 'icontains', 'in', 'gt', 'gte', 'lt', 'lte', 'isnull', 'range',
  'startswith'] as const;
/** One of `FILTER_LOOKUPS`. */
export type FilterLookup = typeof FILTER_LOOKUPS[number];
const TEXT_LOOKUPS = new Set<FilterLookup>(['iexact', 'contains', 'icontains', 'startswith']);

/**
 * The declared field a parameter filters and its lookup: `owner__username__icontains` with
 * `owner__username` declared -> that field, lookup `icontains`; the longest declared name
 * wins. Null for a parameter that names no declared field (`page`, `search`).
 */
function declaredTarget(param: string, declared: readonly string[]): { name: string; lookup: string | null } | null {
  let best: { name: string; lookup: string | null } | null = null;
  for (const name of declared) {
    if (param === name) return { name, lookup: null };
    if (param.startsWith(`${name}__`) && (best === null || name.length > best.name.length)) {
      best = { name, lookup: param.slice(name.length + 2) };
    }
  }
  return best;
}

const INTEGER_TYPES = new Set(['INTEGER', 'BIGINT', 'SMALLINT', 'MEDIUMINT', 'TINYINT']);
const NUMBER_TYPES = new Set(['DECIMAL', 'FLOAT', 'DOUBLE', 'REAL', 'NUMBER']);
const TRUE_VALUES = new Set(['true', 'True', '1', 'yes']);
const FALSE_VALUES = new Set(['false', 'False', '0', 'no']);
/** Parses `?created=` values: ISO 8601 with the field's time zone handling, impossible dates refused. */
const DATETIME_INPUT = new DateTimeField({ inputFormats: ['iso-8601'] });

/** `YYYY-MM-DD` naming a real calendar day, or null. */
function calendarDate(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  try {
    return parseDate(value);
  } catch (error) {
    if (error instanceof DateValueError) return null;
    throw error;
  }
}

/**
 * Filtering on declared fields: with `filtersetFields = ['language', 'owner__username']` on the
 * view, `?language=python&owner__username=ann` keeps the matching rows, and the standard
 * lookups apply to them (`?id__gte=2`, `?language__in=py,js`; see `FILTER_LOOKUPS`). Undeclared
 * parameters are ignored, empty values too; a value the field cannot hold (`?id=abc`) or an
 * unsupported lookup on a declared field (`?id__regex=x`) answers 400 naming the parameter.
 */
export class FieldFilterBackend extends BaseFilterBackend {
  /** The declared fields: the view's `filtersetFields`. */
  getFiltersetFields(view: FilterView): readonly string[] {
    return view.filtersetFields ?? [];
  }

  /** Convert one query value to the field's type; returns an error message when it cannot. */
  convertValue(field: FieldInfo, value: string): { value: unknown } | { error: string } {
    if (field.choices && field.choices.length) {
      const allowed = field.choices.flatMap((choice) =>
        Array.isArray(choice[1]) ? (choice[1] as ReadonlyArray<readonly [unknown, string]>).map(([v]) => String(v)) : [String(choice[0])],
      );
      if (!allowed.includes(value)) {
        return { error: gettext('Select a valid choice. %(value)s is not one of the available choices.').replace('%(value)s', value) };
      }
    }
    if (INTEGER_TYPES.has(field.type)) {
      if (!/^\s*[+-]?\d+\s*$/.test(value)) return { error: gettext('Enter a number.') };
      return { value: Number.parseInt(value, 10) };
    }
    if (NUMBER_TYPES.has(field.type)) {
      if (!/^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/.test(value)) return { error: gettext('Enter a number.') };
      return { value: value.trim() };
    }
    if (field.type === 'BOOLEAN') {
      if (TRUE_VALUES.has(value)) return { value: true };
      if (FALSE_VALUES.has(value)) return { value: false };
      return { error: gettext('Select a valid choice. %(value)s is not one of the available choices.').replace('%(value)s', value) };
    }
    // Dates are checked against the calendar: `Date.parse('2021-02-29')` would give 1 March.
    if (field.type === 'DATEONLY') {
      const date = calendarDate(value);
      return date === null ? { error: gettext('Enter a valid date.') } : { value: date };
    }
    if (field.type === 'DATE') {
      // A date alone means its midnight; naive values are in TIME_ZONE, as the form field reads them.
      const input = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00` : value;
      try {
        return { value: DATETIME_INPUT.toInternalValue(input) };
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        return { error: gettext('Enter a valid date/time.') };
      }
    }
    return { value };
  }

  /**
   * Convert the value of one `name__lookup` parameter: a list for `in` (`1,2,3`), a pair for
   * `range` (`1,5`), a boolean for `isnull`, text for the text lookups, else the field's type.
   */
  convertLookupValue(field: FieldInfo, lookup: FilterLookup, value: string): { value: unknown } | { error: string } {
    if (lookup === 'isnull') {
      if (TRUE_VALUES.has(value)) return { value: true };
      if (FALSE_VALUES.has(value)) return { value: false };
      return { error: gettext('Select a valid choice. %(value)s is not one of the available choices.').replace('%(value)s', value) };
    }
    if (lookup === 'in' || lookup === 'range') {
      const items = value.split(',');
      if (lookup === 'range' && items.length !== 2) return { error: gettext('Enter a list of two values: the lower and upper bound.') };
      const values: unknown[] = [];
      for (const item of items) {
        const converted = this.convertValue(field, item.trim());
        if ('error' in converted) return converted;
        values.push(converted.value);
      }
      return { value: values };
    }
    if (TEXT_LOOKUPS.has(lookup)) return { value };
    return this.convertValue(field, value);
  }

  /**
   * Keep the rows matching the query parameters on declared fields: `?name=v` is an exact
   * match, `?name__<lookup>=v` one of `FILTER_LOOKUPS` (`?id__gte=2`, `?id__in=1,2`,
   * `?title__icontains=x`, `?id__range=1,5`, `?owner__isnull=true`). A lookup outside that
   * list on a declared field answers 400 naming the parameter; every value is bound in SQL.
   */
  filterQueryset<QS extends GenericQuerySet<unknown>>(request: Request, queryset: QS, view: FilterView): QS {
    const declared = this.getFiltersetFields(view);
    if (!declared.length) return queryset;
    const info = modelInfoOf(queryset);
    const lookups: Record<string, unknown> = {};
    const errors: Record<string, string[]> = {};
    let throughMany = false;
    const fields = new Map<string, ReturnType<typeof resolveFieldPath>>();
    for (const name of declared) {
      const resolved = resolveFieldPath(info, name);
      if (!resolved) {
        throw new ImproperlyConfigured(`Invalid filterset field '${name}' on ${view.constructor.name}: the model has no such field.`);
      }
      fields.set(name, resolved);
    }
    // In the order of the declared fields (as the errors are listed), then of the query.
    const params = [...request.queryParams.keys()]
      .map((param) => ({ param, target: declaredTarget(param, declared) }))
      .filter((entry): entry is { param: string; target: { name: string; lookup: string | null } } => entry.target !== null)
      .sort((a, b) => declared.indexOf(a.target.name) - declared.indexOf(b.target.name));
    for (const { param, target } of params) {
      const raw = request.queryParams.get(param);
      if (raw === null || raw === undefined || raw === '') continue;
      const resolved = fields.get(target.name) as NonNullable<ReturnType<typeof resolveFieldPath>>;
      if (target.lookup !== null && !FILTER_LOOKUPS.includes(target.lookup as FilterLookup)) {
        errors[param] = [`Unsupported lookup '${target.lookup}'. Use one of: ${FILTER_LOOKUPS.join(', ')}.`];
        continue;
      }
      const converted = target.lookup === null
        ? this.convertValue(resolved.field, String(raw))
        : this.convertLookupValue(resolved.field, target.lookup as FilterLookup, String(raw));
      if ('error' in converted) errors[param] = [converted.error];
      else {
        lookups[param] = converted.value;
        throughMany = throughMany || resolved.throughMany;
      }
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    if (!Object.keys(lookups).length) return queryset;
    const result = queryset.filter(lookups) as QS;
    return throughMany ? distinct(result) : result;
  }

  override getSchemaFields(view?: unknown): SchemaField[] {
    return this.getFiltersetFields((view ?? {}) as FilterView).map((name) => ({
      name,
      required: false,
      location: 'query',
      schema: { type: 'string', title: name, description: name },
    }));
  }

  override getSchemaOperationParameters(view?: unknown): SchemaParameter[] {
    return this.getFiltersetFields((view ?? {}) as FilterView).map((name) => ({
      name,
      required: false,
      in: 'query',
      description: name,
      schema: { type: 'string' },
    }));
  }
}
