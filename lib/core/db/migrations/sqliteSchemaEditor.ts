/**
 * SQLite DDL as the host framework writes it: `integer NOT NULL PRIMARY KEY AUTOINCREMENT`,
 * inline `REFERENCES ... DEFERRABLE INITIALLY DEFERRED`, and, since SQLite cannot alter
 * columns, the table rebuild (create `new__<table>`, copy, drop, rename, re-index) for
 * changed, dropped and most added columns. The executor turns foreign-key enforcement off
 * around it and checks the keys before committing, as Django does.
 */
import { columnOf, isManyToMany, isUnique, type FieldSpec } from './fieldSpec';
import { SchemaEditor, type ColumnOptions } from './schemaEditor';
import type { ModelState, ProjectState } from './state';

const TYPES: Partial<Record<FieldSpec['type'], string>> = {
  AutoField: 'integer',
  BigAutoField: 'integer',
  TextField: 'text',
  IntegerField: 'integer',
  SmallIntegerField: 'smallint',
  BigIntegerField: 'bigint',
  PositiveIntegerField: 'integer unsigned',
  BooleanField: 'bool',
  DateTimeField: 'datetime',
  DateField: 'date',
  TimeField: 'time',
  DecimalField: 'decimal',
  FloatField: 'real',
  UUIDField: 'char(36)',
  JSONField: 'text',
  BinaryField: 'BLOB',
};

/** The schema editor for SQLite. */
export class SqliteSchemaEditor extends SchemaEditor {
  readonly vendor = 'sqlite' as const;
  readonly maxNameLength = 200;
  readonly atomicDdl = true;

  /** `"name"`. */
  quote(name: string): string {
    return `"${name.replace(/"/g, '""')}"`;
  }

  /** Django's SQLite `data_types`; a foreign key takes its target's key type. */
  columnType(spec: FieldSpec, state: ProjectState, model: ModelState): string {
    if (spec.type === 'ForeignKey' || spec.type === 'OneToOneField') {
      const target = this.targetOf(state, model, spec).spec;
      return target.type === 'AutoField' || target.type === 'BigAutoField' ? 'integer' : this.columnType(target, state, model);
    }
    if (spec.type === 'CharField' || spec.type === 'EmailField' || spec.type === 'SlugField' || spec.type === 'URLField') {
      return `varchar(${spec.maxLength ?? 255})`;
    }
    const type = TYPES[spec.type];
    if (!type) throw new Error(`SQLite has no column type for a ${spec.type}.`);
    return type;
  }

  protected override columnSuffix(spec: FieldSpec): string {
    return spec.primaryKey && (spec.type === 'AutoField' || spec.type === 'BigAutoField') ? ' AUTOINCREMENT' : '';
  }

  /** The column with its inline foreign key (`REFERENCES "t" ("id") DEFERRABLE INITIALLY DEFERRED`). */
  override columnDefinition(state: ProjectState, model: ModelState, name: string, spec: FieldSpec, options: ColumnOptions = {}): string {
    let sql = super.columnDefinition(state, model, name, spec, options);
    if (this.isForeignKeyColumn(spec) && !options.withoutConstraints) {
      const target = this.targetOf(state, model, spec);
      sql += ` REFERENCES ${this.quote(target.table)} (${this.quote(target.column)}) DEFERRABLE INITIALLY DEFERRED`;
    }
    return sql;
  }

  /** `CREATE TABLE`, its indexes, then the join tables of its many-to-many fields. */
  createModel(state: ProjectState, model: ModelState): void {
    const scope = this.withModel(state, model);
    const columns = model.concreteFields.map(([name, spec]) => this.columnDefinition(scope, model, name, spec));
    this.execute(`CREATE TABLE ${this.quote(model.table)} (${columns.join(', ')})`);
    for (const sql of this.tableIndexes(model)) this.execute(sql);
    for (const [name, spec] of model.fields) {
      if (isManyToMany(spec) && !spec.through) {
        const through = this.throughModel(scope, model, name, spec);
        this.createModel(scope, through);
      }
    }
  }

  /** `ALTER TABLE ADD COLUMN` for a nullable column without default; a rebuild otherwise. */
  addField(state: ProjectState, from: ModelState, to: ModelState, name: string): void {
    const spec = to.field(name);
    if (isManyToMany(spec)) {
      if (!spec.through) this.createModel(state, this.throughModel(this.withModel(state, to), to, name, spec));
      return;
    }
    if (spec.null && !this.fillValue(spec) && !isUnique(spec)) {
      this.execute(`ALTER TABLE ${this.quote(to.table)} ADD COLUMN ${this.columnDefinition(this.withModel(state, to), to, name, spec)}`);
      const index = this.tableIndexes(to).find((sql) => sql.includes(this.quote(this.fieldIndexName(to, name, spec))));
      if (index) this.execute(index);
      return;
    }
    this.remakeTable(state, from, to, new Map());
  }

  /** Drop a join table, or rebuild the table without the column. */
  removeField(state: ProjectState, from: ModelState, to: ModelState, name: string): void {
    const spec = from.field(name);
    if (isManyToMany(spec)) {
      if (!spec.through) this.execute(`DROP TABLE ${this.quote(this.throughModel(this.withModel(state, from), from, name, spec).table)}`);
      return;
    }
    this.remakeTable(state, from, to, new Map());
  }

  /** Rename a join table, or rebuild the table with the changed column. */
  alterField(state: ProjectState, from: ModelState, to: ModelState, oldName: string, newName: string): void {
    const oldSpec = from.field(oldName);
    const newSpec = to.field(newName);
    if (isManyToMany(oldSpec) && isManyToMany(newSpec)) {
      const before = this.throughModel(this.withModel(state, from), from, oldName, oldSpec).table;
      const after = this.throughModel(this.withModel(state, to), to, newName, newSpec).table;
      if (before !== after) this.execute(`ALTER TABLE ${this.quote(before)} RENAME TO ${this.quote(after)}`);
      return;
    }
    this.remakeTable(state, from, to, new Map([[oldName, newName]]));
  }

  /** `ALTER TABLE RENAME TO`, then the indexes named after the table are made again. */
  renameModel(_state: ProjectState, _newState: ProjectState, from: ModelState, to: ModelState): void {
    if (from.table === to.table) return;
    this.execute(`ALTER TABLE ${this.quote(from.table)} RENAME TO ${this.quote(to.table)}`);
    for (const name of this.derivedIndexNames(from)) this.execute(`DROP INDEX ${this.quote(name)}`);
    for (const sql of this.derivedIndexes(to)) this.execute(sql);
  }

  /** `DROP INDEX "name"`. */
  dropIndex(_table: string, name: string): void {
    this.execute(`DROP INDEX ${this.quote(name)}`);
  }

  /**
   * Rebuild `from` as `to` (Django's `_remake_table`): existing columns are copied (renamed
   * by `renames`, NULLs filled when a column becomes NOT NULL), new ones get their default as
   * a bound parameter.
   */
  remakeTable(state: ProjectState, from: ModelState, to: ModelState, renames: Map<string, string>): void {
    const scope = this.withModel(state, to);
    const temp = `new__${to.table}`;
    const reverse = new Map([...renames].map(([oldName, newName]) => [newName, oldName]));
    const columns: string[] = [];
    const selects: string[] = [];
    const params: unknown[] = [];
    for (const [name, spec] of to.concreteFields) {
      const oldName = reverse.get(name) ?? name;
      const old = from.concreteFields.find(([n]) => n === oldName);
      const fill = spec.null ? null : this.fillValue(spec);
      if (old) {
        const source = this.quote(columnOf(old[0], old[1]));
        if (old[1].null && !spec.null && fill) {
          params.push(fill.value);
          selects.push(`coalesce(${source}, $${params.length})`);
        } else selects.push(source);
      } else {
        const value = this.fillValue(spec);
        if (!value) {
          if (!spec.null) throw new Error(`Cannot add the NOT NULL column '${name}' to ${to.table} without a default.`);
          continue;
        }
        params.push(value.value);
        selects.push(`$${params.length}`);
      }
      columns.push(this.quote(columnOf(name, spec)));
    }
    const definitions = to.concreteFields.map(([name, spec]) => this.columnDefinition(scope, to, name, spec));
    this.execute(`CREATE TABLE ${this.quote(temp)} (${definitions.join(', ')})`);
    this.execute(`INSERT INTO ${this.quote(temp)} (${columns.join(', ')}) SELECT ${selects.join(', ')} FROM ${this.quote(from.table)}`, params);
    this.execute(`DROP TABLE ${this.quote(from.table)}`);
    this.execute(`ALTER TABLE ${this.quote(temp)} RENAME TO ${this.quote(to.table)}`);
    for (const sql of this.tableIndexes(to)) this.execute(sql);
  }
}
