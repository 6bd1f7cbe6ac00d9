/**
 * The database layer's public API (Django's `django.db` for this framework).
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * Import from `lib/core/db` (index.ts re-exports everything below).
 * - `getSequelize()`/`connection` (`connection.sequelize`, `connection.vendor`: `'sqlite'|'mysql'`),
 *   lazy, from `DATABASE_URL` (`sqlite:<file>` relative to the project root, `sqlite::memory:`,
 *   `sqlite:///abs/path`, `mysql://user:pass@host:port/db`, `mariadb://...`; anything else ->
 *   `ImproperlyConfigured`), `closeConnections()`. Changing the setting switches connection. The
 *   models of installed apps (`AppConfig.models()`) are bound lazily; test-only models with
 *   `registerModels([...])` (or `useTestDatabase(suite, { models })`). Model class names must be
 *   unique across bound models (Sequelize keys models by name).
 * - Scale-out (MySQL/MariaDB): `DATABASE_REPLICA_URLS` (list of `mysql://` URLs, default `[]`;
 *   env `DATABASE_REPLICA_URLS`, comma-separated, wins over the module like `DATABASE_URL`) turns on
 *   Sequelize `replication`: SELECTs outside a transaction go to the replicas in turn, everything
 *   else to the primary (writes, raw `sequelize.query()` without `type: SELECT`, DDL, and every
 *   query inside `atomic()`, whose transaction holds a primary connection). `usePrimary(fn)` runs
 *   `fn` with its SELECTs on the primary too (read-your-writes outside a transaction); `migrate()`
 *   and `showMigrations()` run that way. A replica can lag: do not read back a write made outside
 *   `atomic()` without `usePrimary`. `parseReplicaUrls`/`parseDatabaseUrl(url, settingName)` raise
 *   `ImproperlyConfigured` naming `DATABASE_REPLICA_URLS` for a bad URL, and replicas with a SQLite
 *   `DATABASE_URL` are refused. `DATABASE_POOL` (`{ max, min, idle, acquire }`, merged over
 *   `DEFAULT_DATABASE_POOL` = `{ max: 10, min: 0, idle: 10000, acquire: 30000 }`, validated by
 *   `parseDatabasePool`) sizes each MySQL pool (primary; replicas share one). The connection is
 *   keyed by the three settings (replaced through `overrideSettings`, compared by identity: do not
 *   mutate the list/object in place); `closeConnection(url)` closes every connection whose primary
 *   is `url`.
 * - `checkDatabaseConnection()` connects to the primary and each replica now and raises
 *   `OperationalError` (`lib/core/db/errors.ts`) `Cannot connect to the database <masked URL>
 *   (<setting>): <driver error>`; `checkDatabaseForCommand({ close? })` (`lib/core/databaseCheck.ts`)
 *   turns it (and `ImproperlyConfigured`) into a `CommandError`. `migrate`, `showmigrations`,
 *   `runserver` (before its reloader) and `serve` (in the cluster primary) call it first, so an
 *   unreachable database is one stderr line and exit 1. `maskDatabaseUrl(url)` hides the password.
 * - `BaseModel` (sequelize-typescript `Model`). Per model:
 *   ```ts
 *   @Table({ tableName: 'snippets_snippet' })          // always give Django's table name
 *   export class Snippet extends BaseModel {
 *     declare static objects: Manager<Snippet>;         // typing only; the getter lives on BaseModel
 *     static override meta: ModelMeta = { appLabel: 'snippets', ordering: ['created'] };
 *     @Column(field({ type: DataType.DATE, autoNowAdd: true })) declare created: Date;
 *     @Column(field({ type: DataType.STRING(100), blank: true, default: '' })) declare title: string;
 *     @ForeignKey(() => User) @Column(field({ type: DataType.INTEGER })) declare owner_id: number;
 *     @BelongsTo(() => User, relation({ foreignKey: 'owner_id', relatedName: 'snippets', onDelete: 'CASCADE' }))
 *     declare owner?: User;
 *   }
 *   ```
 *   Custom managers: `class UserManager extends Manager<User> { createUser() {...} }`, then
 *   `static override managerClass = UserManager; declare static objects: UserManager;`.
 *   `meta`: `{ appLabel, ordering?, verboseName?, verboseNamePlural?, uniqueTogether?,
 *   defaultRelatedName? }`. Instance: `pk` (get/set), `save()` (sets autoNow/autoNowAdd, sends
 *   `preSave`/`postSave` with `created`), `destroy()` (cascades, `preDelete`/`postDelete`),
 *   `refreshFromDb()`. Every write joins the current `atomic()` transaction automatically (CLS),
 *   including Sequelize association mixins (`user.getGroups()`, `$get`, `$add`).
 *   `Model.DoesNotExist` / `Model.MultipleObjectsReturned` are per-model subclasses of
 *   `ObjectDoesNotExist` / `MultipleObjectsReturned` (catch those to 404).
 * - Signals (`signals.ts`): `postSave.connect(User, async ({ instance, created }) => ...)`,
 *   `preSave`, `preDelete`, `postDelete`; `connect(sender|null, receiver, { dispatchUid })`,
 *   `disconnect`. `QuerySet.update()`/`bulkCreate()` send none (as Django); `QuerySet.delete()`
 *   sends the delete signals per row when receivers exist.
 * - Reverse relations are created automatically for every `belongsTo`/`belongsToMany` on the
 *   target, named by `relatedName` (or the source's `meta.defaultRelatedName`; otherwise
 *   accessor `<model>_set`, lookup name `<model>`); `'+'` disables it. So `User` gets
 *   `snippets` from `Snippet` without declaring anything; `user.snippets` is filled by
 *   `prefetchRelated('snippets')`.
 * - Field metadata: `field({ type, blank, choices, helpText, verboseName, editable, autoNow,
 *   autoNowAdd, default, fieldType, errorMessages: { unique }, uniqueForDate, uniqueForMonth,
 *   uniqueForYear, validators, ...sequelizeColumnOptions })` (NB: `allowNull` defaults to
 *   **false** with `field()`, as Django's `null=False`); `fieldType` overrides the reported Django
 *   class (`'EmailField'`, `'SlugField'`, `'URLField'`); `validators` are Django's model-field
 *   validators (`validate(value)` objects or functions throwing a `ValidationError` with `message`
 *   and `code`, e.g. `UnicodeUsernameValidator` on `auth_user.username`): `ModelSerializer` puts them
 *   on the generated field before its `UniqueValidator`, and serializer fields report their errors. `getFieldInfo(model)` (cached) returns
 *   `{ model, pk, fields: FieldInfo[], relations: RelationInfo[], getField(name), getRelation(name),
 *   lookupNames }` where `FieldInfo = { name, column, type ('STRING'...), fieldType ('CharField',
 *   'AutoField', 'ForeignKey', ...), primaryKey, autoIncrement, allowNull, blank, default, hasDefault,
 *   maxLength, choices, unique, editable, helpText, verboseName, maxDigits, decimalPlaces, autoNow,
 *   autoNowAdd, uniqueForDate, uniqueForMonth, uniqueForYear (date field names or null), relation }` (`relation` = the belongsTo name for an FK column such as `owner_id`, so a
 *   serializer emits `owner` there) and `RelationInfo = { name, queryName, kind:
 *   'belongsTo'|'hasMany'|'belongsToMany'|'hasOne', reverse, many, target, foreignKey, otherKey,
 *   targetKey, sourceKey, relatedName, through, throughTable, allowNull, blank, editable, helpText,
 *   verboseName }`. `flattenChoices(choices)`. `getFieldInfo` accepts any model class (`typeof Snippet`, `queryset.model`) without casts.
 * - `QuerySet<M>` is immutable and lazy: `all() filter(lookups | Q, ...) exclude() orderBy(...)
 *   reverse() slice(start, end) selectRelated(...) prefetchRelated(...) distinct() none()`;
 *   terminal async: `fetch()` (array), `for await`, `count() exists() get(lookups?) first() last()
 *   create(values) bulkCreate(rows) getOrCreate(lookups, defaults) -> [obj, created]
 *   update(values) -> n delete() -> n values(...fields) valuesList(...fields, { flat }) inBulk(ids)`;
 *   `getOrdering()`, `isOrdered`, `isEmpty`, `model`. Lookups: `exact iexact contains icontains
 *   startswith istartswith endswith iendswith regex iregex in gt gte lt lte isnull range` across relations
 *   with `__` (`owner__username__icontains`, `groups__name`, `snippets__title`, `owner=user`,
 *   `id__in: otherQuerySet`). Relation lookups compile to `IN (SELECT ...)` subqueries, so rows
 *   are never duplicated. `orderBy` accepts `-field`, `pk`, and single-valued relation paths
 *   (`owner__username`). Unknown names -> `FieldError` (`Cannot resolve keyword 'x' into field.
 *   Choices are: ...`), bad values -> `ValueError` (`Field 'id' expected a number but got
 *   'abc'.`), filtering after `slice()` -> `QuerySetError` (a TypeError). Validation happens when
 *   the query runs, not when it is built (so class attributes may build querysets at import time).
 *   At compile time the names and values are checked against the model's declared attributes
 *   (`lib/core/db/lookupTypes.ts`); run-time names go through `Q` / `orderByNames()`.
 *   `contains`-style lookups are case-sensitive and `i*` ones case-insensitive on both SQLite and MySQL.
 *   `regex`/`iregex` run as `REGEXP` with `(?-i)`/`(?i)` on MySQL/MariaDB; SQLite (no REGEXP function in
 *   node's driver) raises `NotSupportedError` when the query runs (`SearchFilter`'s `$` prefix: `ImproperlyConfigured`).
 * - `atomic(fn)` runs `fn` in a transaction (nested = savepoint) carried by the shared async context
 *   (`lib/core/asyncContext.ts`: one AsyncLocalStorage for the language and the transaction, enabled
 *   only while a `runInContext()` is under way, since on Node 20 an enabled one costs every promise
 *   of the process; a context lasts until its callback's promise settles — detached work must not rely on it);
 *   `onCommit(fn)`; `currentTransaction()`; `setRollback(bool)`/`getRollback()` (Django's: a marked
 *   block rolls back without an error on exit; `TransactionManagementError` outside `atomic()`).
 *   Setting `ATOMIC_REQUESTS` (default false): the handler runs each view in `atomic()` (loading the
 *   db layer lazily), except views wrapped with `nonAtomicRequests(view)`; the API framework's
 *   `exceptionHandler` calls `setRollback()` from `lib/views.ts` (DRF's `set_rollback()`) when it
 *   answers an error, and a 500 rolls back as the error leaves `atomic()`.
 * - Migrations: each app's `migrationsDir` holds `NNNN_name.ts` exporting
 *   `up({ queryInterface, sequelize, Sequelize, vendor })`, optional `down`, optional
 *   `dependencies = [['auth', '0001_initial']]`, `creates = ['auth_user', ...]` (tables created)
 *   and `initial` (default: true for an app's first migration) — `--fake-initial` records an
 *   initial migration as applied when every table of its `creates` exists — and `atomic = false`.
 *   Recorded in Django's `django_migrations` table. `migrate({ appLabel?, migrationName?, fake?,
 *   fakeInitial?, stdout?, skipPostMigrate? })` (`migrationName` `'zero'` unapplies all) then calls
 *   every `AppConfig.postMigrate?()`; `showMigrations({ appLabels?, stdout })`. Commands `migrate`
 *   and `showmigrations` live in `lib/core/commands/`.
 * - Execution: the statements the framework writes itself — QuerySet reads (compiled once per
 *   shape, `compiledSelect.ts`), `values()`, `count()`/`exists()`, `update()`/`delete()`, and
 *   `save()`'s INSERT/UPDATE — run on the driver (`statementRunner.ts`: node-sqlite3 prepared
 *   statements, mysql2 `execute`), not through `sequelize.query`, with the same connections
 *   (transaction, replica routing, pool, timeouts), errors (Sequelize's classes), query capture
 *   and outage recovery; rows are decoded per shape (`rowDecoder.ts`) and instances built as
 *   `findAll()` builds them (`instanceBuilder.ts`). Raw `sequelize.query()` works as before.
 * - Tests (`lib/core/db/testing.ts`): `useTestDatabase(suite, { models?, migrate? })` gives a
 *   suite its own fresh database (a copy of a once-per-process migrated SQLite template, or on
 *   MySQL a fresh `test_<random>` schema; `models` are test-only models created with `sync()`)
 *   and restores the previous connection in `after`; it returns `{ current }` (`url`, `vendor`).
 *   `setupTestDatabase(options)` does the same by hand (`teardown()`).
 *   `withRollback(fn)`, `captureQueries(fn) -> string[]` (every SQL statement run meanwhile,
 *   process-wide), `captureDataQueries(fn)` (without BEGIN/COMMIT/SAVEPOINT).
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
