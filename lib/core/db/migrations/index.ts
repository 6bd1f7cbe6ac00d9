/**
 * Migrations (Django's `django.db.migrations`): declarative operations, the project state
 * replayed from them, the schema editors, the executor behind `migrate`/`sqlmigrate`/
 * `showmigrations`, and the autodetector behind `makemigrations`. A migration file:
 *
 *     import { CreateModel } from 'api_framework/db';
 *
 *     export const initial = true;
 *     export const dependencies = [];
 *     export const operations = [
 *       new CreateModel({ name: 'Book', table: 'books_book', fields: [
 *         ['id', { type: 'AutoField', primaryKey: true }],
 *         ['title', { type: 'CharField', maxLength: 200 }],
 *       ] }),
 *     ];
 */
export { Operation, IrreversibleError, type OperationContext, type Deconstructed } from './operations/base';
export { CreateModel, type CreateModelOptions } from './operations/createModel';
export { DeleteModel } from './operations/deleteModel';
export { AddField, type AddFieldOptions } from './operations/addField';
export { RemoveField } from './operations/removeField';
export { AlterField, type AlterFieldOptions } from './operations/alterField';
export { RenameField } from './operations/renameField';
export { RenameModel, type RenameModelOptions } from './operations/renameModel';
export { AddIndex } from './operations/addIndex';
export { RemoveIndex } from './operations/removeIndex';
export { AlterUniqueTogether } from './operations/alterUniqueTogether';
export { AlterModelOptions, type AlterableOptions } from './operations/alterModelOptions';
export { RunSQL, type RunSqlOptions, type RawStatement } from './operations/runSql';
export { RunCode, type RunCodeOptions, type MigrationCode } from './operations/runCode';
export { NOW, FIELD_TYPES, type FieldSpec, type FieldType, type NamedField, type OnDelete, type DefaultValue } from './fieldSpec';
export { ProjectState, ModelState, type ModelOptions, type IndexSpec } from './state';
export { SchemaEditor, type Statement } from './schemaEditor';
export { SqliteSchemaEditor } from './sqliteSchemaEditor';
export { MysqlSchemaEditor } from './mysqlSchemaEditor';
export { type HistoricalApps } from './historicalModels';
export {
  loadMigrationPlan,
  appsWithMigrations,
  leafMigrations,
  projectState,
  swappableDependency,
  swappableSetting,
  MigrationError,
  type MigrationContext,
  type MigrationModule,
  type MigrationEntry,
  type MigrationDependency,
} from './loader';
export { MigrationRecorder } from './recorder';
export { migrate, showMigrations, sqlMigrate, createSchemaEditor, findMigration, type MigrateOptions } from './executor';
