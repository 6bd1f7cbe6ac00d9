/**
 * Test helpers: a fresh migrated database per suite, rolled-back blocks, query capture.
 *
 *     const test = suite('snippets');
 *     useTestDatabase(test);                       // before: fresh DB + migrations; after: close + restore
 *     test('count', async () => { const sql = await captureQueries(() => Snippet.objects.count()); ... });
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Sequelize } from 'sequelize-typescript';
import type { ModelCtor } from 'sequelize-typescript';
import { settings, overrideSettings } from '../conf';
import { apps } from '../apps';
import {
  closeConnection,
  getSequelize,
  parseDatabaseUrl,
  queryCaptures,
  registerModels,
  sequelizeOptions,
  unregisterModels,
  type DatabaseConfig,
} from './connection';
import { migrate, appsWithMigrations } from './migrations';
import { atomic } from './transaction';

/** Options of `useTestDatabase`. */
export interface TestDatabaseOptions {
  /** Test-only models whose tables are created with `sync()` (parents before children). */
  models?: ModelCtor[];
  /** Skip running the installed apps' migrations. */
  migrate?: boolean;
}

/** A live test database; `teardown()` closes it and restores the previous `DATABASE_URL`. */
export interface TestDatabase {
  url: string;
  vendor: 'sqlite' | 'mysql';
  teardown(): Promise<void>;
}

/** The hooks `useTestDatabase` needs from a uvu suite. */
export interface SuiteHooks {
  before(hook: () => unknown): void;
  after(hook: () => unknown): void;
}

let tempDir: string | null = null;
let counter = 0;
const templates = new Map<string, string>();

function workDir(): string {
  if (!tempDir) {
    tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-framework-test-'));
    const dir = tempDir;
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return tempDir;
}

function removeSqliteFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(`${file}${suffix}`, { force: true });
}

/** A key that changes whenever installed apps or their migration files change. */
function templateKey(): string {
  const parts: string[] = [settings.INSTALLED_APPS.join(',')];
  for (const config of appsWithMigrations(apps.getAppConfigs())) {
    const dir = config.migrationsDir as string;
    for (const file of fs.readdirSync(dir).sort()) parts.push(`${file}:${fs.statSync(path.join(dir, file)).mtimeMs}`);
  }
  return parts.join('|');
}

/** A migrated SQLite file for the current apps, migrated once per process and then copied. */
async function sqliteTemplate(): Promise<string> {
  const key = templateKey();
  const existing = templates.get(key);
  if (existing && fs.existsSync(existing)) return existing;
  const file = path.join(workDir(), `template-${templates.size}.sqlite3`);
  removeSqliteFiles(file);
  const url = `sqlite://${file}`;
  const restore = overrideSettings.enter({ DATABASE_URL: url });
  try {
    await migrate();
  } finally {
    await closeConnection(url);
    restore();
  }
  templates.set(key, file);
  return file;
}

async function withServer<T>(config: DatabaseConfig, fn: (sequelize: Sequelize) => Promise<T>): Promise<T> {
  const server = new Sequelize({ ...sequelizeOptions(config), logging: false });
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

/** Create a fresh database for the current apps and switch `DATABASE_URL` to it. */
export async function setupTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const base = parseDatabaseUrl(settings.DATABASE_URL);
  let url: string;
  let cleanup: () => Promise<void>;
  const runMigrations = options.migrate !== false;
  if (base.vendor === 'sqlite') {
    const file = path.join(workDir(), `db-${process.pid}-${++counter}.sqlite3`);
    removeSqliteFiles(file);
    if (runMigrations) fs.copyFileSync(await sqliteTemplate(), file);
    url = `sqlite://${file}`;
    cleanup = async () => removeSqliteFiles(file);
  } else {
    const schema = `test_${randomBytes(6).toString('hex')}`;
    await withServer(base, (s) => s.query(`CREATE DATABASE \`${schema}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`));
    const parsed = new URL(settings.DATABASE_URL);
    parsed.pathname = `/${schema}`;
    url = parsed.toString();
    cleanup = async () => {
      await withServer(base, (s) => s.query(`DROP DATABASE IF EXISTS \`${schema}\``));
    };
  }
  const restore = overrideSettings.enter({ DATABASE_URL: url });
  const models = options.models ?? [];
  try {
    if (base.vendor === 'mysql' && runMigrations) await migrate();
    if (models.length) {
      registerModels(models);
      getSequelize();
      for (const model of models) await model.sync();
    }
  } catch (error) {
    await closeConnection(url);
    restore();
    await cleanup();
    throw error;
  }
  return {
    url,
    vendor: base.vendor,
    async teardown() {
      unregisterModels(models);
      await closeConnection(url);
      restore();
      await cleanup();
    },
  };
}

/**
 * Give a uvu suite its own database: `before` creates and migrates it (plus `options.models`
 * tables), `after` closes it and restores the previous `DATABASE_URL`.
 */
export function useTestDatabase(suite: SuiteHooks, options: TestDatabaseOptions = {}): { readonly current: TestDatabase | null } {
  const handle: { current: TestDatabase | null } = { current: null };
  suite.before(async () => {
    handle.current = await setupTestDatabase(options);
  });
  suite.after(async () => {
    const db = handle.current;
    handle.current = null;
    await db?.teardown();
  });
  return handle;
}

class Rollback extends Error {}

/** Run `fn` inside a transaction that is always rolled back; returns `fn`'s result. */
export async function withRollback<T>(fn: () => Promise<T> | T): Promise<T> {
  let result: T | undefined;
  try {
    await atomic(async () => {
      result = await fn();
      throw new Rollback('rollback');
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  return result as T;
}

/**
 * Run `fn` and return the SQL statements executed meanwhile (by any code in the process,
 * including in-process servers), transaction statements included.
 */
export async function captureQueries(fn: () => unknown): Promise<string[]> {
  const list: string[] = [];
  queryCaptures.add(list);
  try {
    await fn();
  } finally {
    queryCaptures.delete(list);
  }
  return list;
}

/** Like `captureQueries` but without BEGIN/COMMIT/SAVEPOINT/ROLLBACK statements. */
export async function captureDataQueries(fn: () => unknown): Promise<string[]> {
  const all = await captureQueries(fn);
  return all.filter((sql) => !/^(START TRANSACTION|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|SET (SESSION|autocommit))/i.test(sql.trim()));
}
