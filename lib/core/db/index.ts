/**
 * The database layer's public API (Django's `django.db` for this framework).
 */
export {
  getSequelize,
  connection,
  connections,
  type ConnectionHandler,
  closeConnections,
  closeConnection,
  parseDatabaseUrl,
  registerModels,
  unregisterModels,
  getVendor,
  usePrimary,
  checkDatabaseConnection,
  maskDatabaseUrl,
  parseDatabasePool,
  parseReplicaUrls,
  DEFAULT_DATABASE_POOL,
  type DatabasePool,
  type DatabaseConfig,
  type Vendor,
} from './connection';
export { BaseModel, querysetFor, type ModelMeta, type ModelClass } from './models';
export { QuerySet, Manager } from './queryset';
export { Q, type Lookups } from './q';
export type {
  FieldLookups,
  FieldValues,
  UpdateValues,
  FieldName,
  RelationName,
  ToOneRelationName,
  OrderingPath,
  OrderingTerm,
  ValueName,
  PkValue,
  DynamicLookups,
  QueryShape,
  QueryShapeOf,
  TypedQueryShape,
} from './lookupTypes';
export { LOOKUPS } from './lookups';
export {
  field,
  relation,
  getFieldInfo,
  flattenChoices,
  type FieldInfo,
  type RelationInfo,
  type ModelInfo,
  type Choices,
  type FieldOptions,
  type AnyModelClass,
  type RelationOptions,
  type ManyToManyRelationOptions,
  type ToOneRelationOptions,
} from './fieldInfo';
export { Signal, preSave, postSave, preDelete, postDelete, type Receiver } from './signals';
export {
  atomic,
  onCommit,
  currentTransaction,
  inAtomicBlock,
  transaction,
  setRollback,
  getRollback,
  nonAtomicRequests,
  isNonAtomicRequests,
  TransactionManagementError,
} from './transaction';
export { ObjectDoesNotExist, MultipleObjectsReturned, FieldError, ValueError, QuerySetError, DatabaseError, NotSupportedError, OperationalError } from './errors';
export {
  migrate,
  showMigrations,
  sqlMigrate,
  loadMigrationPlan,
  swappableDependency,
  swappableSetting,
  CreateModel,
  DeleteModel,
  AddField,
  RemoveField,
  AlterField,
  RenameField,
  RenameModel,
  AddIndex,
  RemoveIndex,
  AlterUniqueTogether,
  AlterModelOptions,
  RunSQL,
  RunCode,
  NOW,
  type FieldSpec,
  type NamedField,
  type HistoricalApps,
  type MigrateOptions,
  type MigrationContext,
  type MigrationDependency,
} from './migrations';

// The sequelize-typescript decorators and data types models are declared with, so a project's
// models import everything from `api_framework/db`.
export { Table, Column, DataType, ForeignKey, BelongsTo, HasMany, HasOne, BelongsToMany, Index } from 'sequelize-typescript';
