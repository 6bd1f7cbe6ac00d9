/**
 * The schema editor: turns model states into DDL (Django's `BaseDatabaseSchemaEditor`). The
 * SQL the host framework's backends generate, with quoted identifiers; values (defaults
 * filled into existing rows) are bound parameters (`$1`), never spliced into SQL.
 *
 * Statements are queued on `statements`; the executor runs them, `sqlmigrate` prints them.
 * `SqliteSchemaEditor` and `MysqlSchemaEditor` hold what differs between the engines.
 */
import { formatDbDatetime } from '../connection';
import { columnOf, effectiveDefault, isForeignKey, isIndexed, isManyToMany, isUnique, type FieldSpec, type NamedField } from './fieldSpec';
import { indexName } from './names';
import { ModelState, type IndexSpec, type ProjectState } from './state';

/** One SQL statement and its bound parameters (`$1`, `$2`, ... in `sql`). */
export interface Statement {
  sql: string;
  params: unknown[];
}

/** Options of `columnDefinition()`. */
export interface ColumnOptions {
  /** Leave out UNIQUE / PRIMARY KEY (when changing a column in place). */
  withoutConstraints?: boolean;
  /** Declare the column nullable whatever the spec says (filled, then tightened). */
  forceNull?: boolean;
}

/** Generates the DDL of migration operations for one database engine. */
export abstract class SchemaEditor {
  /** Statements generated so far, in order. */
  readonly statements: Statement[] = [];

  /** `sqlite` or `mysql`. */
  abstract readonly vendor: 'sqlite' | 'mysql';
  /** The longest identifier the engine accepts (index names are shortened to it). */
  abstract readonly maxNameLength: number;
  /** Whether DDL can run inside a transaction (SQLite yes, MySQL no). */
  abstract readonly atomicDdl: boolean;

  /** Queue a statement. */
  execute(sql: string, params: unknown[] = []): void {
    this.statements.push({ sql, params });
  }

  /** Take (and forget) the queued statements. */
  drain(): Statement[] {
    return this.statements.splice(0, this.statements.length);
  }

  /** A quoted identifier (`"name"` / `` `name` ``), quotes inside doubled. */
  abstract quote(name: string): string;

  /** The column type of a (non many-to-many) field, e.g. `varchar(100)`. */
  abstract columnType(spec: FieldSpec, state: ProjectState, model: ModelState): string;

  /** Create the model's table, its indexes and the join tables of its many-to-many fields. */
  abstract createModel(state: ProjectState, model: ModelState): void;

  /** Add a column (or a join table) to `from`, giving `to`. */
  abstract addField(state: ProjectState, from: ModelState, to: ModelState, name: string): void;

  /** Drop a column (or a join table) of `from`, giving `to`. */
  abstract removeField(state: ProjectState, from: ModelState, to: ModelState, name: string): void;

  /** Change a column (type, null, unique, index, rename) of `from`, giving `to`. */
  abstract alterField(state: ProjectState, from: ModelState, to: ModelState, oldName: string, newName: string): void;

  /** Rename the table of `from` to the one of `to`, renaming the indexes named after it. */
  abstract renameModel(state: ProjectState, newState: ProjectState, from: ModelState, to: ModelState): void;

  /** Drop a table (join tables of its many-to-many fields first). */
  deleteModel(state: ProjectState, model: ModelState): void {
    for (const [name, spec] of model.fields) {
      if (isManyToMany(spec) && !spec.through) this.execute(`DROP TABLE ${this.quote(this.throughModel(state, model, name, spec).table)}`);
    }
    this.execute(`DROP TABLE ${this.quote(model.table)}`);
  }

  /** Create an index of `meta.indexes`. */
  addIndex(model: ModelState, index: IndexSpec): void {
    const columns = index.fields.map((f) => this.quote(model.column(f))).join(', ');
    this.execute(`CREATE INDEX ${this.quote(index.name)} ON ${this.quote(model.table)} (${columns})`);
  }

  /** Drop an index of `meta.indexes`. */
  removeIndex(model: ModelState, index: IndexSpec): void {
    this.dropIndex(model.table, index.name);
  }

  /** Create and drop the unique indexes of `unique_together` sets that changed. */
  alterUniqueTogether(model: ModelState, before: ReadonlyArray<readonly string[]>, after: ReadonlyArray<readonly string[]>): void {
    const key = (set: readonly string[]): string => set.map((f) => model.column(f)).join(',');
    const old = new Set(before.map(key));
    const next = new Set(after.map(key));
    for (const set of before) if (!next.has(key(set))) this.dropIndex(model.table, this.uniqueTogetherName(model, set));
    for (const set of after) if (!old.has(key(set))) this.execute(this.uniqueTogetherSql(model, set));
  }

  /** `DROP INDEX` in the engine's spelling. */
  abstract dropIndex(table: string, name: string): void;

  // -- column SQL ---------------------------------------------------------------------

  /** `"col" type NOT NULL [PRIMARY KEY|UNIQUE]...`: the column as CREATE TABLE declares it. */
  columnDefinition(state: ProjectState, model: ModelState, name: string, spec: FieldSpec, options: ColumnOptions = {}): string {
    let sql = `${this.quote(columnOf(name, spec))} ${this.columnType(spec, state, model)}`;
    sql += spec.null || options.forceNull ? ' NULL' : ' NOT NULL';
    if (!options.withoutConstraints) {
      if (spec.primaryKey) sql += ' PRIMARY KEY';
      else if (isUnique(spec)) sql += ' UNIQUE';
      sql += this.columnSuffix(spec);
    }
    return sql;
  }

  /** Text after the constraints (`AUTOINCREMENT` on SQLite). */
  protected columnSuffix(_spec: FieldSpec): string {
    return '';
  }

  /** The table a foreign key points at and its column. */
  protected targetOf(state: ProjectState, model: ModelState, spec: FieldSpec): { table: string; column: string; spec: FieldSpec } {
    const target = this.resolveTarget(state, model, spec);
    const [pkName, pkSpec] = target.pk;
    return { table: target.table, column: columnOf(pkName, pkSpec), spec: pkSpec };
  }

  /** The model a relation points at (`'self'` included). */
  protected resolveTarget(state: ProjectState, model: ModelState, spec: FieldSpec): ModelState {
    const to = spec.to ?? '';
    if (to === 'self') return model;
    if (modelMatches(model, to)) return model;
    return state.resolve(to, model.app);
  }

  /** The CREATE INDEX statements of a table: field indexes (foreign keys too), unique_together, meta indexes. */
  protected tableIndexes(model: ModelState): string[] {
    const statements = this.derivedIndexes(model);
    for (const index of model.options.indexes ?? []) {
      statements.push(`CREATE INDEX ${this.quote(index.name)} ON ${this.quote(model.table)} (${index.fields.map((f) => this.quote(model.column(f))).join(', ')})`);
    }
    return statements;
  }

  /** The indexes named after the table: field indexes (foreign keys too) and unique_together. */
  protected derivedIndexes(model: ModelState): string[] {
    const statements: string[] = [];
    for (const [name, spec] of model.concreteFields) {
      if (isIndexed(spec)) statements.push(this.fieldIndexSql(model, name, spec));
    }
    for (const set of model.options.uniqueTogether ?? []) statements.push(this.uniqueTogetherSql(model, set));
    return statements;
  }

  /** The names of `derivedIndexes()`. */
  protected derivedIndexNames(model: ModelState): string[] {
    const names: string[] = [];
    for (const [name, spec] of model.concreteFields) if (isIndexed(spec)) names.push(this.fieldIndexName(model, name, spec));
    for (const set of model.options.uniqueTogether ?? []) names.push(this.uniqueTogetherName(model, set));
    return names;
  }

  /** The name of a field's own index (`<table>_<column>_<hash>`). */
  fieldIndexName(model: ModelState, name: string, spec: FieldSpec): string {
    return indexName(model.table, [columnOf(name, spec)], '', this.maxNameLength);
  }

  /** `CREATE INDEX` for one field. */
  protected fieldIndexSql(model: ModelState, name: string, spec: FieldSpec): string {
    return `CREATE INDEX ${this.quote(this.fieldIndexName(model, name, spec))} ON ${this.quote(model.table)} (${this.quote(columnOf(name, spec))})`;
  }

  /** The name of a unique_together index (`<table>_<columns>_<hash>_uniq`). */
  uniqueTogetherName(model: ModelState, set: readonly string[]): string {
    return indexName(model.table, set.map((f) => model.column(f)), '_uniq', this.maxNameLength);
  }

  /** `CREATE UNIQUE INDEX` for one unique_together set. */
  protected uniqueTogetherSql(model: ModelState, set: readonly string[]): string {
    const columns = set.map((f) => this.quote(model.column(f))).join(', ');
    return `CREATE UNIQUE INDEX ${this.quote(this.uniqueTogetherName(model, set))} ON ${this.quote(model.table)} (${columns})`;
  }

  /**
   * The join table of an auto-created many-to-many field, as a model: `id`, one foreign key
   * per side, unique together.
   */
  throughModel(state: ProjectState, model: ModelState, name: string, spec: FieldSpec): ModelState {
    const target = this.resolveTarget(state, model, spec);
    const [fromColumn, toColumn] = spec.columns ?? [`${model.name.toLowerCase()}_id`, `${target.name.toLowerCase()}_id`];
    const table = spec.dbTable ?? `${model.table}_${name}`;
    const fieldName = (column: string): string => column.replace(/_id$/, '') || column;
    const fields: NamedField[] = [
      ['id', { type: 'AutoField', primaryKey: true }],
      [fieldName(fromColumn), { type: 'ForeignKey', to: `${model.app}.${model.name}`, column: fromColumn, onDelete: 'CASCADE' }],
      [fieldName(toColumn), { type: 'ForeignKey', to: `${target.app}.${target.name}`, column: toColumn, onDelete: 'CASCADE' }],
    ];
    return new ModelState(model.app, `${model.name}_${name}`, table, fields, { uniqueTogether: [[fromColumn, toColumn]] });
  }

  /** A state where the through model is known, so its foreign keys resolve. */
  protected withModel(state: ProjectState, model: ModelState): ProjectState {
    if (state.models.get(model.key) === model) return state;
    const copy = state.clone();
    copy.add(model);
    return copy;
  }

  /** The value a new NOT NULL column takes in existing rows, as a bound parameter value. */
  protected fillValue(spec: FieldSpec): { value: unknown } | null {
    const found = effectiveDefault(spec);
    if (!found) return null;
    const { value } = found;
    if (value instanceof Date) {
      const text = formatDbDatetime(value);
      if (spec.type === 'DateField') return { value: text.slice(0, 10) };
      if (spec.type === 'TimeField') return { value: text.slice(11) };
      return { value: text };
    }
    if (typeof value === 'boolean') return { value: value ? 1 : 0 };
    return { value };
  }

  /** True when the field is stored as a column and points at another table. */
  protected isForeignKeyColumn(spec: FieldSpec): boolean {
    return isForeignKey(spec);
  }
}

/** True when the reference (`app.Name` or `Name`) names `model`. */
export function modelMatches(model: ModelState, reference: string): boolean {
  const dot = reference.indexOf('.');
  if (dot < 0) return reference.toLowerCase() === model.name.toLowerCase();
  return reference.slice(0, dot) === model.app && reference.slice(dot + 1).toLowerCase() === model.name.toLowerCase();
}
