/**
 * The changelist's sidebar filters (`ModelAdmin.listFilter`), after the original admin's list
 * filters: a foreign key lists the related objects (`?owner__id__exact=1`), a boolean
 * Yes/No (`?published__exact=1`), a column with choices its choices, any other column the
 * values present in the table (`?language__exact=python`). Each filter starts with "All".
 * A value the column cannot hold is refused (the changelist answers 400), never sent to SQL
 * other than as a bound parameter.
 */
import type { Model } from 'sequelize-typescript';
import { flattenChoices, getFieldInfo, querysetFor, type QuerySet } from '../../lib/core/db';
import type { FieldInfo, RelationInfo } from '../../lib/core/db/fieldInfo';
import type { ModelAdmin } from './options';

/** One choice of a filter as the template shows it. */
export interface FilterChoice {
  label: string;
  url: string;
  selected: boolean;
}

/** One filter of the sidebar. */
export interface FilterSpec {
  title: string;
  choices: FilterChoice[];
}

/** What the filters did to the changelist query. */
export interface FilteredChangelist {
  queryset: QuerySet<Model>;
  specs: FilterSpec[];
  /** The filter parameters in use, kept by the pagination and search links. */
  params: Record<string, string>;
}

interface QueryLike {
  get(key: string): string | null | undefined;
  keys(): Iterable<string>;
}

const INTEGER_TYPES = new Set(['INTEGER', 'BIGINT', 'SMALLINT', 'MEDIUMINT', 'TINYINT']);

/** One declared filter: its parameter, the choices it offers and how a value is checked. */
interface FilterDefinition {
  param: string;
  title: string;
  options(): Promise<Array<[string, string]>>;
  convert(value: string): { value: unknown } | null;
}

function columnValue(column: FieldInfo, value: string): { value: unknown } | null {
  if (INTEGER_TYPES.has(column.type)) return /^-?\d+$/.test(value) ? { value: Number(value) } : null;
  if (column.type === 'BOOLEAN') return value === '1' ? { value: true } : value === '0' ? { value: false } : null;
  if (column.choices) return flattenChoices(column.choices).some(([choice]) => String(choice) === value) ? { value } : null;
  return { value };
}

function definitionFor(admin: ModelAdmin, name: string): FilterDefinition {
  const info = getFieldInfo(admin.model);
  const relation: RelationInfo | undefined = info.getRelation(name);
  if (relation && relation.kind === 'belongsTo') {
    const column = info.fields.find((f) => f.relation === name);
    const targetPk = getFieldInfo(relation.target).pk;
    return {
      param: `${name}__${targetPk.name}__exact`,
      title: column?.verboseName ?? name,
      async options() {
        const rows = await querysetFor(relation.target).fetch();
        return rows.map((row) => [String((row as Model & { pk?: unknown }).pk), String(row)]);
      },
      convert: (value) => columnValue(targetPk, value),
    };
  }
  const column = info.fields.find((f) => f.name === name);
  if (!column) throw new Error(`listFilter of ${admin.model.name}: '${name}' is neither a column nor a foreign key.`);
  const title = column.verboseName ?? name;
  if (column.type === 'BOOLEAN') {
    return { param: `${name}__exact`, title, options: async () => [['1', 'Yes'], ['0', 'No']], convert: (v) => columnValue(column, v) };
  }
  if (column.choices) {
    const choices = flattenChoices(column.choices).map(([value, label]): [string, string] => [String(value), label]);
    return { param: `${name}__exact`, title, options: async () => choices, convert: (v) => columnValue(column, v) };
  }
  return {
    param: `${name}__exact`,
    title,
    async options() {
      const rows = await admin.model.objects.all().orderBy(name).fetch();
      const values = new Set<string>();
      for (const row of rows) {
        const value = row.get(name);
        if (value !== null && value !== undefined) values.add(String(value));
      }
      return [...values].map((value): [string, string] => [value, value]);
    },
    convert: (v) => columnValue(column, v),
  };
}

function link(params: Record<string, string>): string {
  const query = new URLSearchParams(params).toString();
  return query ? `?${query}` : '?';
}

/**
 * Apply `admin.listFilter` to `queryset` from the request's query and describe the sidebar.
 * Null when a filter value is not one the column can hold (answer 400).
 */
export async function applyListFilters(admin: ModelAdmin, queryset: QuerySet<Model>, query: QueryLike): Promise<FilteredChangelist | null> {
  const definitions = admin.listFilter.map((name) => definitionFor(admin, name));
  const params: Record<string, string> = {};
  let result = queryset;
  for (const definition of definitions) {
    const raw = query.get(definition.param);
    if (raw === null || raw === undefined || raw === '') continue;
    const converted = definition.convert(raw);
    if (converted === null) return null;
    params[definition.param] = raw;
    result = result.filter({ [definition.param]: converted.value });
  }
  const search = query.get('q');
  const base: Record<string, string> = search ? { q: search } : {};
  const specs: FilterSpec[] = [];
  for (const definition of definitions) {
    const others: Record<string, string> = { ...base, ...params };
    delete others[definition.param];
    const current = params[definition.param];
    const choices: FilterChoice[] = [{ label: 'All', url: link(others), selected: current === undefined }];
    for (const [value, label] of await definition.options()) {
      choices.push({ label, url: link({ ...others, [definition.param]: value }), selected: current === value });
    }
    specs.push({ title: `By ${definition.title}`, choices });
  }
  return { queryset: result, specs, params };
}
