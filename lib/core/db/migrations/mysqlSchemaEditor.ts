/**
 * MySQL / MariaDB DDL as the host framework writes it: `integer AUTO_INCREMENT`,
 * `datetime(6)`, `longtext`, foreign keys as named constraints added after the table
 * (`<table>_<column>_<hash>_fk_<target>_<column>`), columns changed in place with
 * `ALTER TABLE ... CHANGE`. MySQL DDL is not transactional: each statement commits.
 */
import { columnOf, isForeignKey, isIndexed, isManyToMany, isUnique, type FieldSpec } from './fieldSpec';
import { indexName } from './names';
import { SchemaEditor } from './schemaEditor';
import type { ModelState, ProjectState } from './state';

const TYPES: Partial<Record<FieldSpec['type'], string>> = {
  AutoField: 'integer AUTO_INCREMENT',
  BigAutoField: 'bigint AUTO_INCREMENT',
  TextField: 'longtext',
  IntegerField: 'integer',
  SmallIntegerField: 'smallint',
  BigIntegerField: 'bigint',
  PositiveIntegerField: 'integer UNSIGNED',
  BooleanField: 'bool',
  DateTimeField: 'datetime(6)',
  DateField: 'date',
  TimeField: 'time(6)',
  FloatField: 'double precision',
  UUIDField: 'char(36)',
  JSONField: 'json',
  BinaryField: 'longblob',
};

/** Table options: the character set the framework's connections use. */
const TABLE_OPTIONS = ' DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci';

/** The schema editor for MySQL and MariaDB. */
export class MysqlSchemaEditor extends SchemaEditor {
  readonly vendor = 'mysql' as const;
  readonly maxNameLength = 64;
  readonly atomicDdl = false;

  /** `` `name` ``. */
  quote(name: string): string {
    return `\`${name.replace(/`/g, '``')}\``;
  }

  /** Django's MySQL `data_types`; a foreign key takes its target's key type. */
  columnType(spec: FieldSpec, state: ProjectState, model: ModelState): string {
    if (isForeignKey(spec)) {
      const target = this.targetOf(state, model, spec).spec;
      if (target.type === 'AutoField') return 'integer';
      if (target.type === 'BigAutoField') return 'bigint';
      return this.columnType(target, state, model);
    }
    if (spec.type === 'CharField' || spec.type === 'EmailField' || spec.type === 'SlugField' || spec.type === 'URLField') {
      return `varchar(${spec.maxLength ?? 255})`;
    }
    if (spec.type === 'DecimalField') return `numeric(${spec.maxDigits ?? 10}, ${spec.decimalPlaces ?? 0})`;
    const type = TYPES[spec.type];
    if (!type) throw new Error(`MySQL has no column type for a ${spec.type}.`);
    return type;
  }

  /** The name of a foreign key constraint (`..._fk_<table>_<column>`). */
  foreignKeyName(state: ProjectState, model: ModelState, name: string, spec: FieldSpec): string {
    const target = this.targetOf(state, model, spec);
    return indexName(model.table, [columnOf(name, spec)], `_fk_${target.table}_${target.column}`, this.maxNameLength);
  }

  private addForeignKey(state: ProjectState, model: ModelState, name: string, spec: FieldSpec): void {
    const target = this.targetOf(state, model, spec);
    this.execute(
      `ALTER TABLE ${this.quote(model.table)} ADD CONSTRAINT ${this.quote(this.foreignKeyName(state, model, name, spec))} ` +
        `FOREIGN KEY (${this.quote(columnOf(name, spec))}) REFERENCES ${this.quote(target.table)} (${this.quote(target.column)})`,
    );
  }

  private dropForeignKey(state: ProjectState, model: ModelState, name: string, spec: FieldSpec): void {
    this.execute(`ALTER TABLE ${this.quote(model.table)} DROP FOREIGN KEY ${this.quote(this.foreignKeyName(state, model, name, spec))}`);
  }

  /** `CREATE TABLE`, its indexes, its foreign key constraints, then its join tables. */
  createModel(state: ProjectState, model: ModelState): void {
    const scope = this.withModel(state, model);
    const columns = model.concreteFields.map(([name, spec]) => this.columnDefinition(scope, model, name, spec));
    this.execute(`CREATE TABLE ${this.quote(model.table)} (${columns.join(', ')})${TABLE_OPTIONS}`);
    for (const sql of this.tableIndexes(model)) this.execute(sql);
    for (const [name, spec] of model.concreteFields) if (isForeignKey(spec)) this.addForeignKey(scope, model, name, spec);
    for (const [name, spec] of model.fields) {
      if (isManyToMany(spec) && !spec.through) this.createModel(scope, this.throughModel(scope, model, name, spec));
    }
  }

  /** `ADD COLUMN`; existing rows get the default (bound) before the column turns NOT NULL. */
  addField(state: ProjectState, _from: ModelState, to: ModelState, name: string): void {
    const scope = this.withModel(state, to);
    const spec = to.field(name);
    if (isManyToMany(spec)) {
      if (!spec.through) this.createModel(scope, this.throughModel(scope, to, name, spec));
      return;
    }
    const table = this.quote(to.table);
    const column = this.quote(columnOf(name, spec));
    const fill = this.fillValue(spec);
    this.execute(`ALTER TABLE ${table} ADD COLUMN ${this.columnDefinition(scope, to, name, spec, { forceNull: Boolean(fill) })}`);
    if (fill) {
      this.execute(`UPDATE ${table} SET ${column} = $1`, [fill.value]);
      if (!spec.null) this.execute(`ALTER TABLE ${table} MODIFY ${this.columnDefinition(scope, to, name, spec, { withoutConstraints: true })}`);
    }
    if (isIndexed(spec)) this.execute(this.fieldIndexSql(to, name, spec));
    if (isForeignKey(spec)) this.addForeignKey(scope, to, name, spec);
  }

  /** `DROP COLUMN` (its foreign key constraint first), or drop the join table. */
  removeField(state: ProjectState, from: ModelState, _to: ModelState, name: string): void {
    const scope = this.withModel(state, from);
    const spec = from.field(name);
    if (isManyToMany(spec)) {
      if (!spec.through) this.execute(`DROP TABLE ${this.quote(this.throughModel(scope, from, name, spec).table)}`);
      return;
    }
    if (isForeignKey(spec)) this.dropForeignKey(scope, from, name, spec);
    this.execute(`ALTER TABLE ${this.quote(from.table)} DROP COLUMN ${this.quote(columnOf(name, spec))}`);
  }

  /**
   * Change a column in place: drop what depends on the old definition (foreign key, unique,
   * index), fill NULLs when it becomes NOT NULL, `CHANGE` it, add the new constraints.
   */
  alterField(state: ProjectState, from: ModelState, to: ModelState, oldName: string, newName: string): void {
    const oldSpec = from.field(oldName);
    const newSpec = to.field(newName);
    const oldScope = this.withModel(state, from);
    const newScope = this.withModel(state, to);
    if (isManyToMany(oldSpec) || isManyToMany(newSpec)) {
      const before = this.throughModel(oldScope, from, oldName, oldSpec).table;
      const after = this.throughModel(newScope, to, newName, newSpec).table;
      if (before !== after) this.execute(`RENAME TABLE ${this.quote(before)} TO ${this.quote(after)}`);
      return;
    }
    const table = this.quote(to.table);
    const oldColumn = columnOf(oldName, oldSpec);
    const newColumn = columnOf(newName, newSpec);
    const renamed = oldColumn !== newColumn;
    const oldFk = isForeignKey(oldSpec);
    const newFk = isForeignKey(newSpec);
    const fkChanged = oldFk && (!newFk || renamed || this.foreignKeyName(oldScope, from, oldName, oldSpec) !== this.foreignKeyName(newScope, to, newName, newSpec) || oldSpec.type !== newSpec.type);
    if (fkChanged) this.dropForeignKey(oldScope, from, oldName, oldSpec);
    const oldUnique = isUnique(oldSpec) && !oldSpec.primaryKey;
    const newUnique = isUnique(newSpec) && !newSpec.primaryKey;
    if (oldUnique && !newUnique) this.dropIndex(to.table, oldColumn);
    const oldIndex = isIndexed(oldSpec) ? this.fieldIndexName(from, oldName, oldSpec) : null;
    const newIndex = isIndexed(newSpec) ? this.fieldIndexName(to, newName, newSpec) : null;
    if (oldIndex && oldIndex !== newIndex) this.dropIndex(to.table, oldIndex);
    const fill = this.fillValue(newSpec);
    if (oldSpec.null && !newSpec.null && fill) {
      this.execute(`UPDATE ${table} SET ${this.quote(oldColumn)} = $1 WHERE ${this.quote(oldColumn)} IS NULL`, [fill.value]);
    }
    const definitionChanged =
      renamed || oldSpec.null !== newSpec.null || this.columnType(oldSpec, oldScope, from) !== this.columnType(newSpec, newScope, to);
    if (definitionChanged) {
      this.execute(`ALTER TABLE ${table} CHANGE ${this.quote(oldColumn)} ${this.columnDefinition(newScope, to, newName, newSpec, { withoutConstraints: true })}`);
    }
    if (oldUnique && newUnique && renamed) this.execute(`ALTER TABLE ${table} RENAME INDEX ${this.quote(oldColumn)} TO ${this.quote(newColumn)}`);
    if (renamed) {
      // unique_together indexes are named after their columns: follow the rename.
      const before = from.options.uniqueTogether ?? [];
      (to.options.uniqueTogether ?? []).forEach((set, i) => {
        const previous = before[i];
        if (!previous || !set.includes(newName)) return;
        const oldIndexName = this.uniqueTogetherName(from, previous);
        const newIndexName = this.uniqueTogetherName(to, set);
        if (oldIndexName !== newIndexName) this.execute(`ALTER TABLE ${table} RENAME INDEX ${this.quote(oldIndexName)} TO ${this.quote(newIndexName)}`);
      });
    }
    if (!oldUnique && newUnique) this.execute(`ALTER TABLE ${table} ADD CONSTRAINT ${this.quote(newColumn)} UNIQUE (${this.quote(newColumn)})`);
    if (newIndex && oldIndex !== newIndex) this.execute(this.fieldIndexSql(to, newName, newSpec));
    if (newFk && (fkChanged || !oldFk)) this.addForeignKey(newScope, to, newName, newSpec);
  }

  /**
   * `RENAME TABLE`, renaming the indexes named after the table and re-creating the foreign
   * key constraints whose names contain it (its own and those pointing at it).
   */
  renameModel(state: ProjectState, newState: ProjectState, from: ModelState, to: ModelState): void {
    if (from.table === to.table) return;
    const pointing = state.relationsTo(from).filter(([model, , spec]) => model.key !== from.key && isForeignKey(spec));
    for (const [model, name, spec] of pointing) this.dropForeignKey(state, model, name, spec);
    for (const [name, spec] of from.concreteFields) if (isForeignKey(spec)) this.dropForeignKey(state, from, name, spec);
    this.execute(`RENAME TABLE ${this.quote(from.table)} TO ${this.quote(to.table)}`);
    const before = this.derivedIndexNames(from);
    const after = this.derivedIndexNames(to);
    before.forEach((name, i) => {
      if (name !== after[i]) this.execute(`ALTER TABLE ${this.quote(to.table)} RENAME INDEX ${this.quote(name)} TO ${this.quote(after[i])}`);
    });
    for (const [name, spec] of to.concreteFields) if (isForeignKey(spec)) this.addForeignKey(newState, to, name, spec);
    for (const [model, name] of pointing) {
      const current = newState.get(model.app, model.name);
      this.addForeignKey(newState, current, name, current.field(name));
    }
  }

  /** `DROP INDEX name ON table`. */
  dropIndex(table: string, name: string): void {
    this.execute(`DROP INDEX ${this.quote(name)} ON ${this.quote(table)}`);
  }
}
