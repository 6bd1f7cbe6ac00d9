/**
 * The database connection: one Sequelize instance per `DATABASE_URL` (with its
 * `DATABASE_REPLICA_URLS` and `DATABASE_POOL`), created lazily on first use. The models of
 * installed apps (plus models registered by tests) are added to it lazily too. Changing one of
 * those settings switches to (or creates) the matching connection.
 *
 * With read replicas (MySQL/MariaDB only), Sequelize's replication sends SELECTs outside a
 * transaction to the replicas in turn and everything else (writes, DDL, raw statements, every
 * query of an `atomic()` block, whose transaction holds a primary connection) to the primary.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Sequelize as BaseSequelize, DataTypes, type Options, type Dialect } from 'sequelize';
import { Sequelize, getAssociations, type ModelCtor } from 'sequelize-typescript';
import { settings, ImproperlyConfigured, PROJECT_ROOT, onSettingChanged } from '../conf';
import { apps, appModels, type AppConfig } from '../apps';
import { clsNamespace } from './clsNamespace';
import { OperationalError } from './errors';
import { applyQueryTimeouts, databaseConnectTimeoutMs, watchDatabaseRecovery } from './timeouts';
import { cacheStatements } from './sqliteStatements';
import { castPerCall } from './mysqlTypeCast';

BaseSequelize.useCLS(clsNamespace);

/** `2024-05-01 12:30:00.123000`: a UTC datetime as Django writes it (SQLite text, MySQL literal). */
export function formatDbDatetime(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000`;
}

/** The part of Sequelize's (untyped) SQLite dialect data types the datetime format is set on. */
interface SqliteDateType {
  prototype: { _stringify(value: unknown): string };
}

// Store SQLite datetimes exactly as Django does (naive UTC, microseconds), so a database shared
// with a Django deployment reads the same both ways. Sequelize parses this form back as UTC.
// `DataTypes.sqlite` is not in Sequelize's type declarations, hence the reflective read.
const sqliteDate: SqliteDateType = Reflect.get(Reflect.get(DataTypes, 'sqlite') as object, 'DATE');
sqliteDate.prototype._stringify = function stringify(value: unknown): string {
  const date = value instanceof Date ? value : new Date(value as string);
  return formatDbDatetime(date);
};

/** The database vendors this framework speaks. */
export type Vendor = 'sqlite' | 'mysql';

/** A parsed `DATABASE_URL`. */
export interface DatabaseConfig {
  vendor: Vendor;
  /** SQLite: the file path or `:memory:`. */
  storage?: string;
  host?: string;
  port?: number;
  user?: string;
  password?: string;
  database?: string;
}

const ACCEPTED_FORMS =
  "Use 'sqlite:<file>' (relative to the project root), 'sqlite::memory:', 'sqlite:///absolute/path' " +
  "or 'mysql://user:password@host:port/database' (or 'mariadb://...').";

/** `url` with its password replaced by `***`, for messages and logs. */
export function maskDatabaseUrl(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
}

/**
 * Parse a `DATABASE_URL`; raises `ImproperlyConfigured` naming the accepted forms and the
 * setting the URL came from (`setting`, default `DATABASE_URL`).
 */
export function parseDatabaseUrl(url: string, setting = 'DATABASE_URL'): DatabaseConfig {
  if (typeof url !== 'string' || !url.trim()) {
    throw new ImproperlyConfigured(`The ${setting} setting is empty. ${ACCEPTED_FORMS}`);
  }
  const bad = (why: string): ImproperlyConfigured =>
    new ImproperlyConfigured(`${setting} '${maskDatabaseUrl(url)}' ${why}. ${ACCEPTED_FORMS}`);
  if (url.startsWith('sqlite:')) {
    let rest = url.slice('sqlite:'.length);
    if (rest === ':memory:' || rest === '//:memory:') return { vendor: 'sqlite', storage: ':memory:' };
    if (rest.startsWith('//')) rest = rest.slice(2);
    if (!rest || rest.includes('?') || rest.endsWith('/')) throw bad('does not name a database file');
    return { vendor: 'sqlite', storage: path.isAbsolute(rest) ? rest : path.resolve(PROJECT_ROOT, rest) };
  }
  const scheme = url.slice(0, url.indexOf(':'));
  if (scheme !== 'mysql' && scheme !== 'mariadb') throw bad('uses an unsupported database scheme');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw bad('cannot be parsed');
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!parsed.hostname || !database || database.includes('/')) throw bad('must name a host and a database');
  const port = parsed.port ? Number(parsed.port) : 3306;
  return {
    vendor: 'mysql',
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port,
    user: decodeURIComponent(parsed.username) || 'root',
    password: decodeURIComponent(parsed.password),
    database,
  };
}

/** Connection pool options (`DATABASE_POOL`), in Sequelize's terms; times in milliseconds. */
export interface DatabasePool {
  /** Most connections open at once (per pool: the primary's, and the replicas' shared one). */
  max: number;
  /** Connections kept open even when idle. */
  min: number;
  /** How long a connection may sit idle before it is closed. */
  idle: number;
  /** How long a query waits for a free connection before failing. */
  acquire: number;
}

/** The pool used when `DATABASE_POOL` leaves a key unset. */
export const DEFAULT_DATABASE_POOL: Readonly<DatabasePool> = Object.freeze({ max: 10, min: 0, idle: 10000, acquire: 30000 });

const POOL_KEYS = Object.keys(DEFAULT_DATABASE_POOL) as Array<keyof DatabasePool>;

/** Validate `DATABASE_POOL` (unset keys take the defaults); raises `ImproperlyConfigured` naming it. */
export function parseDatabasePool(value: unknown): DatabasePool {
  if (value === undefined || value === null) return { ...DEFAULT_DATABASE_POOL };
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ImproperlyConfigured(`The DATABASE_POOL setting must be an object with some of the keys ${POOL_KEYS.join(', ')}.`);
  }
  const pool: DatabasePool = { ...DEFAULT_DATABASE_POOL };
  for (const [key, raw] of Object.entries(value)) {
    if (!(POOL_KEYS as string[]).includes(key)) {
      throw new ImproperlyConfigured(`DATABASE_POOL has an unknown key '${key}'; the keys are ${POOL_KEYS.join(', ')}.`);
    }
    if (raw === undefined) continue;
    const least = key === 'max' ? 1 : 0;
    if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < least) {
      throw new ImproperlyConfigured(`DATABASE_POOL.${key} must be an integer of at least ${least} (got ${JSON.stringify(raw)}).`);
    }
    pool[key as keyof DatabasePool] = raw;
  }
  if (pool.min > pool.max) {
    throw new ImproperlyConfigured(`DATABASE_POOL.min (${pool.min}) must not be greater than DATABASE_POOL.max (${pool.max}).`);
  }
  return pool;
}

/**
 * Validate `DATABASE_REPLICA_URLS` against the primary's parsed URL: a list of MySQL/MariaDB
 * URLs, only with a MySQL/MariaDB primary. Raises `ImproperlyConfigured` naming the setting.
 */
export function parseReplicaUrls(value: unknown, primary: DatabaseConfig): DatabaseConfig[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw new ImproperlyConfigured(
      "The DATABASE_REPLICA_URLS setting must be a list of 'mysql://user:password@host:port/database' URLs " +
        '(env DATABASE_REPLICA_URLS: comma-separated).',
    );
  }
  if (!value.length) return [];
  if (primary.vendor !== 'mysql') {
    throw new ImproperlyConfigured(
      'DATABASE_REPLICA_URLS is set, but DATABASE_URL is a SQLite database: read replicas need a MySQL/MariaDB ' +
        'DATABASE_URL. Empty DATABASE_REPLICA_URLS to use SQLite.',
    );
  }
  return (value as string[]).map((url) => {
    const config = parseDatabaseUrl(url, 'DATABASE_REPLICA_URLS');
    if (config.vendor !== 'mysql') {
      throw new ImproperlyConfigured(
        `DATABASE_REPLICA_URLS '${maskDatabaseUrl(url)}' is not a MySQL/MariaDB URL: replicas must be ` +
          "'mysql://user:password@host:port/database' (or 'mariadb://...') servers.",
      );
    }
    return config;
  });
}

/** What a connection is made of besides the primary's URL. */
export interface ConnectionExtras {
  /** Read replicas (MySQL only). */
  replicas?: DatabaseConfig[];
  /** Pool options (MySQL only); `DEFAULT_DATABASE_POOL` when omitted. */
  pool?: DatabasePool;
}

/** Captured SQL (see `captureQueries()` in testing.ts): every active list gets each statement. */
export const queryCaptures = new Set<string[]>();

/** `API_FRAMEWORK_SQL_DEBUG`, read once when the process starts: every statement to stderr. */
const SQL_DEBUG = Boolean(process.env.API_FRAMEWORK_SQL_DEBUG);

/**
 * Whether `logQuery` has anything to do (a capture list is open, or SQL debugging is on): the
 * statement runner asks before it builds the log text of each statement.
 */
export function queriesLogged(): boolean {
  return SQL_DEBUG || queryCaptures.size > 0;
}

/** The `logging` function of every connection: feeds the capture lists and SQL debugging. */
export function logQuery(sql: string): void {
  if (!queriesLogged()) return;
  const text = sql.replace(/^Executing \([^)]*\): /, '');
  for (const list of queryCaptures) list.push(text);
  if (SQL_DEBUG) process.stderr.write(`[sql] ${text}\n`);
}

function serverOptions(config: DatabaseConfig): { host?: string; port?: number; username?: string; password?: string; database?: string } {
  return { host: config.host, port: config.port, username: config.user, password: config.password, database: config.database };
}

/**
 * Sequelize options for a parsed URL: Django-shaped tables, UTC dates, no logging noise; on
 * MySQL the pool and, with `extras.replicas`, Sequelize's `replication` (reads to the replicas,
 * the rest to the primary).
 */
export function sequelizeOptions(config: DatabaseConfig, extras: ConnectionExtras = {}): Options {
  const common: Options = {
    logging: logQuery,
    timezone: '+00:00',
    define: { timestamps: false, underscored: true, freezeTableName: true },
  };
  if (config.vendor === 'sqlite') {
    return { ...common, dialect: 'sqlite' as Dialect, storage: config.storage };
  }
  const replicas = extras.replicas ?? [];
  return {
    ...common,
    dialect: 'mysql' as Dialect,
    ...serverOptions(config),
    // FOUND_ROWS: UPDATE reports matched rows (as Django configures MySQL), not changed ones.
    dialectOptions: { charset: 'utf8mb4', supportBigNumbers: true, flags: '+FOUND_ROWS', connectTimeout: databaseConnectTimeoutMs() },
    define: { ...common.define, charset: 'utf8mb4', collate: 'utf8mb4_general_ci' },
    pool: { ...(extras.pool ?? DEFAULT_DATABASE_POOL) },
    ...(replicas.length ? { replication: { read: replicas.map(serverOptions), write: serverOptions(config) } } : {}),
  };
}

type SqliteMethod = (sql: string, ...rest: unknown[]) => unknown;

/** The methods of a `sqlite3` database handle this module wraps or calls. */
interface SqliteHandle {
  configure(option: 'busyTimeout', value: number): void;
  run: SqliteMethod;
  all: SqliteMethod;
  exec: SqliteMethod;
  get: SqliteMethod;
  each: SqliteMethod;
  prepare: SqliteMethod;
  close(callback?: (error: Error | null) => void): unknown;
}

/** True for a `sqlite3` database handle (what Sequelize's SQLite connection manager hands out). */
function isSqliteHandle(connection: object): connection is SqliteHandle {
  const handle = connection as Partial<Record<keyof SqliteHandle, unknown>>;
  return (['configure', 'run', 'all', 'exec', 'get', 'each', 'prepare', 'close'] as const).every((method) => typeof handle[method] === 'function');
}

// What Sequelize's SQLite dialect sends before every SELECT, once per table it reads, to learn
// the column types it parses values by (exactly this form, with a callback only).
const TABLE_INFO = /^PRAGMA table_info\(`[^`]*`\)$/;
// Statements that leave the schema as it is; anything else (DDL, ROLLBACK) forgets the cache.
const KEEPS_SCHEMA = /^\s*(?:SELECT|INSERT|UPDATE|DELETE|REPLACE|BEGIN|COMMIT|END|SAVEPOINT|RELEASE|PRAGMA table_info)\b/i;

/**
 * Answer Sequelize's per-SELECT `PRAGMA table_info` from a per-connection cache: on SQLite
 * each one is a round trip through the driver's thread pool (about a third of a millisecond),
 * paid for every table of every query, a join paying twice. The cache is dropped whenever a
 * statement that may change the schema (CREATE, ALTER, DROP, ROLLBACK, other PRAGMAs) runs
 * on the connection. A schema changed by another process while this one runs is not seen:
 * migrate, then restart the servers (as their models change anyway).
 */
function cacheTableInfo(handle: SqliteHandle): void {
  const cache = new Map<string, unknown>();
  for (const method of ['run', 'exec', 'get', 'each', 'prepare'] as const) {
    const original = handle[method];
    handle[method] = function (this: SqliteHandle, sql: string, ...rest: unknown[]): unknown {
      if (cache.size && !KEEPS_SCHEMA.test(sql)) cache.clear();
      return original.call(this, sql, ...rest);
    };
  }
  const all = handle.all;
  handle.all = function (this: SqliteHandle, sql: string, ...rest: unknown[]): unknown {
    const callback = rest[0];
    if (rest.length === 1 && typeof callback === 'function' && TABLE_INFO.test(sql)) {
      const cached = cache.get(sql);
      if (cached !== undefined) {
        callback.call(this, null, cached);
        return this;
      }
      return all.call(this, sql, (error: Error | null, rows: unknown) => {
        if (!error) cache.set(sql, rows);
        callback.call(this, error, rows);
      });
    }
    if (cache.size && !KEEPS_SCHEMA.test(sql)) cache.clear();
    return all.call(this, sql, ...rest);
  };
}

/**
 * Give every new SQLite connection a busy timeout, a table-info cache, kept prepared
 * statements, and file databases WAL journaling.
 */
function tuneSqlite(sequelize: Sequelize, storage: string): void {
  const manager = sequelize.connectionManager;
  const original = manager.getConnection.bind(manager);
  const tuned = new WeakSet<SqliteHandle>();
  const getConnection: typeof manager.getConnection = async (options) => {
    const handle = await original(options);
    if (isSqliteHandle(handle) && !tuned.has(handle)) {
      tuned.add(handle);
      cacheTableInfo(handle);
      cacheStatements(handle);
      handle.configure('busyTimeout', 10000);
      if (storage !== ':memory:') {
        await new Promise<void>((resolve, reject) =>
          handle.run('PRAGMA journal_mode=WAL', (error: Error | null) => (error ? reject(error) : resolve())),
        );
      }
    }
    if (isSqliteHandle(handle)) rememberSharedConnection(manager, getConnection, handle);
    return handle;
  };
  manager.getConnection = getConnection;
}

/** A SQLite connection manager's own table of open connections (Sequelize's, by uuid). */
interface SqliteConnectionTable {
  connections?: Record<string, unknown>;
}

/** The shared SQLite connection a manager handed out last, with its `getConnection` and its key. */
interface SharedSqliteConnection {
  getConnection: unknown;
  table: Record<string, unknown>;
  key: string;
  handle: SqliteHandle;
}

const sharedSqliteConnections = new WeakMap<object, SharedSqliteConnection>();

/**
 * Remember `handle` when it is the manager's shared connection (Sequelize keys it `default`,
 * or 1 for an in-memory database; a transaction's own connection is keyed by its id).
 */
function rememberSharedConnection(manager: object, getConnection: unknown, handle: SqliteHandle): void {
  const table = (manager as SqliteConnectionTable).connections;
  if (!table) return;
  for (const key of ['default', '1']) {
    if (table[key] === handle) {
      sharedSqliteConnections.set(manager, { getConnection, table, key, handle });
      return;
    }
  }
}

/**
 * The SQLite connection `manager.getConnection()` would answer for a statement outside a
 * transaction, at once: the shared one, tuned and still open in Sequelize's table, while the
 * manager's `getConnection` is the one that tuned it (not replaced since, as `migrate` does for
 * its run). Else null: ask `getConnection()`. Saves two asynchronous steps per statement.
 */
export function readySqliteConnection(manager: object): unknown | null {
  const shared = sharedSqliteConnections.get(manager);
  if (shared === undefined || (manager as { getConnection?: unknown }).getConnection !== shared.getConnection) return null;
  return shared.table[shared.key] === shared.handle ? shared.handle : null;
}

/** A live connection for one URL (plus its replicas and pool). */
export interface ConnectionState {
  url: string;
  config: DatabaseConfig;
  sequelize: Sequelize;
  /** The `DATABASE_REPLICA_URLS` value this connection was made for (compared by identity). */
  replicaSetting: unknown;
  /** The `DATABASE_POOL` value this connection was made for (compared by identity). */
  poolSetting: unknown;
  /** Parsed read replicas (empty without replication). */
  replicas: DatabaseConfig[];
}

const PRIMARY_ONLY = 'usePrimary';

/**
 * Run `fn` with every query on the primary, replicas configured or not (Django's
 * `using('default')`): for reads that must see the writes just made outside a transaction.
 * `migrate()` runs this way. Returns `fn`'s result.
 */
export function usePrimary<T>(fn: () => T): T {
  return clsNamespace.runAndReturn((context) => {
    context.set(PRIMARY_ONLY, true);
    return fn();
  });
}

/** Send SELECTs to the primary while `usePrimary()` is under way (replicated connections only). */
function honourUsePrimary(sequelize: Sequelize): void {
  const manager = sequelize.connectionManager;
  const original = manager.getConnection.bind(manager);
  // Sequelize's declarations say `type` is 'read' | 'write'; at run time it is the query type.
  manager.getConnection = (options) =>
    original(String(options?.type) === 'SELECT' && clsNamespace.get(PRIMARY_ONLY) === true ? { ...options, useMaster: true } : options);
}

/**
 * Refuse a SQLite file whose folder does not exist: the driver would create every missing
 * folder (at the filesystem root for `sqlite:/no/such/dir/db.sqlite3`), as Django refuses.
 */
function assertSqliteFolderExists(url: string, storage: string): void {
  if (storage === ':memory:' || storage.startsWith('file:')) return;
  const folder = path.dirname(storage);
  if (!fs.existsSync(folder)) {
    throw new ImproperlyConfigured(`DATABASE_URL '${maskDatabaseUrl(url)}': the folder ${folder} does not exist; create it or use another path.`);
  }
}

/** True for a sequelize-typescript model class (what `addModels` takes). */
function isModelCtor(value: unknown): value is ModelCtor {
  return typeof value === 'function' && typeof (value as { getAttributes?: unknown }).getAttributes === 'function';
}

/** The through-model of a many-to-many association (a class, or a getter of one), if any. */
function throughModelOf(association: object): ModelCtor | null {
  // sequelize-typescript keeps an association's options in a protected field.
  const options: { through?: unknown } | undefined = Reflect.get(association, 'options');
  const through = options?.through;
  const model = typeof through === 'object' && through !== null ? (through as { model?: unknown }).model : through;
  if (isModelCtor(model)) return model;
  if (typeof model === 'function') {
    const resolved: unknown = model();
    return isModelCtor(resolved) ? resolved : null;
  }
  return null;
}

/** Every model reachable from `roots` through associations (and through-models). */
function closure(roots: Iterable<ModelCtor>): ModelCtor[] {
  const seen = new Set<ModelCtor>();
  const visit = (model: ModelCtor): void => {
    if (seen.has(model)) return;
    seen.add(model);
    for (const association of getAssociations(model.prototype) ?? []) {
      const associated: unknown = association.getAssociatedClass();
      if (isModelCtor(associated)) visit(associated);
      const through = throughModelOf(association);
      if (through) visit(through);
    }
  };
  for (const model of roots) visit(model);
  return [...seen];
}

type AfterBind = (sequelize: Sequelize, models: ModelCtor[]) => void;

/** The settings a connection is made of; a change to one of them selects the connection anew. */
const CONNECTION_SETTINGS: ReadonlySet<string> = new Set(['DATABASE_URL', 'DATABASE_REPLICA_URLS', 'DATABASE_POOL']);

/**
 * The process's database connections (Django's `ConnectionHandler`): one Sequelize instance
 * per connection settings (`DATABASE_URL`, `DATABASE_REPLICA_URLS`, `DATABASE_POOL`), created
 * on first use, with the models of the installed apps (and of `registerModels()`) bound to it.
 *
 * Built once per process (`connections`). The answer of `state()` is kept until something it
 * depends on changes: a connection setting (`onSettingChanged`), the installed apps
 * (`apps.onChange`), the registered models, or a closed connection; an ORM call then costs a
 * field read. Use the module functions (`getSequelize()`, `ensureModel()`, ...); subclassing is
 * not supported.
 */
export class ConnectionHandler {
  /** Open connections by their settings (SQLite: by URL). */
  readonly #states = new Map<string, ConnectionState>();
  /** The connection the settings select (models maybe not bound yet); null: select it anew. */
  #current: ConnectionState | null = null;
  /** `#current` with every model bound: what `state()` answers; null when something changed. */
  #ready: ConnectionState | null = null;
  /** The instance the model classes are currently initialised on. */
  #boundTo: Sequelize | null = null;
  #boundConfigs: readonly AppConfig[] | null = null;
  #boundModels = new Set<ModelCtor>();
  readonly #extraModels = new Set<ModelCtor>();
  #extraVersion = 0;
  #boundExtraVersion = -1;
  #generation = 0;
  /** The vendor of `DATABASE_URL`, parsed once per value; null: parse it again. */
  #vendor: Vendor | null = null;
  readonly #afterBind: AfterBind[] = [];

  constructor() {
    onSettingChanged((key) => {
      // A new INSTALLED_APPS may bring models to bind (the registry reloads on next use).
      if (key === 'INSTALLED_APPS') this.#ready = null;
      if (!CONNECTION_SETTINGS.has(key)) return;
      this.#current = null;
      this.#ready = null;
      if (key === 'DATABASE_URL') this.#vendor = null;
    });
    apps.onChange(() => {
      this.#ready = null;
    });
  }

  /** A number that changes whenever models are (re)bound; metadata caches key on it. */
  get generation(): number {
    return this.#generation;
  }

  /** The connection for the current settings, with every known model bound to it. */
  state(): ConnectionState {
    return this.#ready ?? this.#prepare();
  }

  /** Select the connection for the current settings and bind the models; remembered until a change. */
  #prepare(): ConnectionState {
    const current = (this.#current ??= this.#stateFor(settings.DATABASE_URL, settings.DATABASE_REPLICA_URLS, settings.DATABASE_POOL));
    const configs = apps.getAppConfigs();
    if (this.#boundTo !== current.sequelize || this.#boundConfigs !== configs || this.#boundExtraVersion !== this.#extraVersion) {
      this.#bindModels(current, configs);
    }
    // A hook of the binding may have changed something again (registered a model): then the
    // next call prepares anew.
    if (this.#current === current && this.#boundTo === current.sequelize && this.#boundExtraVersion === this.#extraVersion) {
      this.#ready = current;
    }
    return current;
  }

  #stateFor(url: string, replicaSetting: unknown, poolSetting: unknown): ConnectionState {
    const config = parseDatabaseUrl(url);
    const replicas = parseReplicaUrls(replicaSetting, config);
    const pool = parseDatabasePool(poolSetting);
    const key = config.vendor === 'sqlite' ? url : JSON.stringify([url, replicas, pool]);
    let state = this.#states.get(key);
    if (!state) {
      if (config.vendor === 'sqlite') assertSqliteFolderExists(url, config.storage ?? ':memory:');
      const sequelize = new Sequelize(sequelizeOptions(config, { replicas, pool }));
      if (config.vendor === 'sqlite') tuneSqlite(sequelize, config.storage ?? ':memory:');
      if (config.vendor === 'mysql') {
        castPerCall(sequelize);
        applyQueryTimeouts(sequelize);
      }
      watchDatabaseRecovery(sequelize);
      if (replicas.length) honourUsePrimary(sequelize);
      state = { url, config, sequelize, replicaSetting, poolSetting, replicas };
      this.#states.set(key, state);
    } else {
      state.replicaSetting = replicaSetting;
      state.poolSetting = poolSetting;
    }
    return state;
  }

  #bindModels(state: ConnectionState, configs: readonly AppConfig[]): void {
    const wanted = closure([...configs.flatMap((c) => appModels(c).filter(isModelCtor)), ...this.#extraModels]);
    const rebind = this.#boundTo !== state.sequelize;
    const fresh = rebind ? wanted : wanted.filter((m) => !this.#boundModels.has(m));
    if (fresh.length) state.sequelize.addModels(fresh);
    this.#boundModels = rebind ? new Set(wanted) : new Set([...this.#boundModels, ...fresh]);
    this.#boundTo = state.sequelize;
    this.#boundConfigs = configs;
    this.#boundExtraVersion = this.#extraVersion;
    if (fresh.length) {
      this.#generation++;
      for (const hook of this.#afterBind) hook(state.sequelize, [...this.#boundModels]);
    }
  }

  /** Run `hook` after models are (re)initialised on an instance (used to add reverse relations). */
  onModelsBound(hook: AfterBind): void {
    this.#afterBind.push(hook);
  }

  /** Initialise `models` (and what they relate to) on the connection even when no installed app lists them. */
  registerModels(models: Iterable<ModelCtor>): void {
    let added = false;
    for (const model of models) {
      if (!this.#extraModels.has(model)) {
        this.#extraModels.add(model);
        added = true;
      }
    }
    if (added) {
      this.#extraVersion++;
      this.#ready = null;
    }
  }

  /** Forget models registered with `registerModels` (they stay initialised until the next rebind). */
  unregisterModels(models: Iterable<ModelCtor>): void {
    let removed = false;
    for (const model of models) if (this.#extraModels.delete(model)) removed = true;
    if (removed) {
      this.#extraVersion++;
      this.#ready = null;
    }
  }

  /** The connection with `model` initialised on it (registered first when no app lists it). */
  ensureModel(model: ModelCtor): ConnectionState {
    const state = this.#ready ?? this.#prepare();
    if (this.#boundModels.has(model)) return state;
    this.registerModels([model]);
    return this.state();
  }

  /** The vendor of `DATABASE_URL` without opening a connection. */
  get vendor(): Vendor {
    return (this.#vendor ??= parseDatabaseUrl(settings.DATABASE_URL).vendor);
  }

  /** Close the connections whose primary is `url`, with or without replicas (reopened on next use). */
  async close(url: string): Promise<void> {
    const closing: Sequelize[] = [];
    for (const [key, state] of this.#states) {
      if (state.url !== url) continue;
      this.#states.delete(key);
      if (this.#current === state) this.#current = null;
      if (this.#boundTo === state.sequelize) {
        this.#boundTo = null;
        this.#boundModels = new Set();
      }
      this.#ready = null;
      closing.push(state.sequelize);
    }
    await Promise.all(closing.map((sequelize) => sequelize.close()));
  }

  /** Close every open connection (call in `after()` hooks and on shutdown). */
  async closeAll(): Promise<void> {
    await Promise.all([...new Set([...this.#states.values()].map((state) => state.url))].map((url) => this.close(url)));
  }
}

/** The process's connection handler. */
export const connections = new ConnectionHandler();

/** A number that changes whenever models are (re)bound; metadata caches key on it. */
export function bindGeneration(): number {
  return connections.generation;
}

/** Run `hook` after models are (re)initialised on an instance (used to add reverse relations). */
export function onModelsBound(hook: AfterBind): void {
  connections.onModelsBound(hook);
}

/** The connection state for the current `DATABASE_URL`, with every known model bound to it. */
export function getConnectionState(): ConnectionState {
  return connections.state();
}

/** The Sequelize instance for the current `DATABASE_URL` (created on first use). */
export function getSequelize(): Sequelize {
  return connections.state().sequelize;
}

/**
 * Make sure `models` (and the models they relate to) are initialised on the current
 * connection even when no installed app lists them (test-only models).
 */
export function registerModels(models: Iterable<ModelCtor>): void {
  connections.registerModels(models);
}

/** Forget models registered with `registerModels` (they stay initialised until the next rebind). */
export function unregisterModels(models: Iterable<ModelCtor>): void {
  connections.unregisterModels(models);
}

/** Ensure `model` is initialised on the current connection; returns that connection. */
export function ensureModel(model: ModelCtor): ConnectionState {
  return connections.ensureModel(model);
}

/** The current database vendor (`sqlite` or `mysql`) without opening a connection. */
export function getVendor(): Vendor {
  return connections.vendor;
}

/** Close the connections whose primary is `url`, with or without replicas (reopened on next use). */
export async function closeConnection(url: string): Promise<void> {
  await connections.close(url);
}

/** Close every open connection (call in `after()` hooks and on shutdown). */
export async function closeConnections(): Promise<void> {
  await connections.closeAll();
}

/** The driver's reason for a failed connection, in one line. */
function connectionFailure(error: unknown): string {
  const parent = (error as { parent?: unknown; original?: unknown } | null)?.parent ?? error;
  const candidates = [error, parent, ...((parent as { errors?: unknown[] } | null)?.errors ?? [])];
  for (const candidate of candidates) {
    if (candidate instanceof Error && candidate.message.trim()) return candidate.message.trim().split('\n')[0];
  }
  const code = (parent as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : String(error);
}

async function tryConnect(sequelize: Sequelize, url: string, setting: string, useMaster: boolean): Promise<void> {
  try {
    await sequelize.authenticate({ logging: false, useMaster });
  } catch (error) {
    throw new OperationalError(`Cannot connect to the database ${maskDatabaseUrl(url)} (${setting}): ${connectionFailure(error)}`);
  }
}

/**
 * Open a connection to the primary and to each replica now, so a server or command fails at
 * startup with one clear line instead of on its first query: raises `OperationalError`
 * (`Cannot connect to the database mysql://root:***@host:3306/db (DATABASE_URL): connect
 * ECONNREFUSED ...`, password masked). The settings are validated first (`ImproperlyConfigured`).
 */
export async function checkDatabaseConnection(): Promise<void> {
  const state = getConnectionState();
  await tryConnect(state.sequelize, state.url, 'DATABASE_URL', true);
  const urls = (state.replicaSetting as string[] | undefined) ?? [];
  await Promise.all(
    state.replicas.map(async (replica, index) => {
      const probe = new Sequelize({ ...sequelizeOptions(replica), logging: false, pool: { max: 1, min: 0, idle: 1000, acquire: 30000 } });
      try {
        await tryConnect(probe, urls[index], 'DATABASE_REPLICA_URLS', false);
      } finally {
        await probe.close();
      }
    }),
  );
}

/** Accessors for the current connection, in the spirit of Django's `connection`. */
export const connection = {
  /** The Sequelize instance (lazily created). */
  get sequelize(): Sequelize {
    return getSequelize();
  },
  /** `sqlite` or `mysql`. */
  get vendor(): Vendor {
    return getConnectionState().config.vendor;
  },
  /** Quote an identifier for the current dialect. */
  quoteName(name: string): string {
    return getSequelize().getQueryInterface().quoteIdentifier(name);
  },
};
