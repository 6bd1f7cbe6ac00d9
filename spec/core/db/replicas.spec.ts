/**
 * Scale-out of the database layer: read replicas (`DATABASE_REPLICA_URLS`), the pool
 * (`DATABASE_POOL`) and the one-line start-up error for an unreachable server. The routing
 * tests need MariaDB (`npm run test:mysql`): the "replica" there is a second database on the
 * same server with the same tables and different rows.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Sequelize } from 'sequelize-typescript';
import { ImproperlyConfigured, PROJECT_ROOT, overrideSettings, settings, splitUrlList } from '../../../lib/core/conf';
import {
  DEFAULT_DATABASE_POOL,
  OperationalError,
  atomic,
  checkDatabaseConnection,
  closeConnection,
  getSequelize,
  migrate,
  parseDatabasePool,
  parseDatabaseUrl,
  parseReplicaUrls,
  usePrimary,
} from '../../../lib/core/db';
import { sequelizeOptions } from '../../../lib/core/db/connection';
import { setupTestDatabase, type TestDatabase } from '../../../lib/core/db/testing';
import { Group } from '../../../contrib/auth/models';
import { reportSkipped } from '../../skip';

const TS_NODE = require.resolve('ts-node/register/transpile-only');
const CLOSED = 'mysql://root:s3cret@127.0.0.1:1/test';
const MYSQL = parseDatabaseUrl(settings.DATABASE_URL).vendor === 'mysql';

const replicas = suite('db replicas');

function throwsImproperly(fn: () => unknown, ...fragments: string[]): void {
  try {
    fn();
  } catch (error) {
    assert.instance(error, ImproperlyConfigured);
    for (const fragment of fragments) assert.ok((error as Error).message.includes(fragment), `${(error as Error).message} lacks ${fragment}`);
    return;
  }
  assert.unreachable('expected ImproperlyConfigured');
}

/** Run manage.ts in a child process with the host-layer fixture settings. */
function manage(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-r', TS_NODE, 'manage.ts', ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, SETTINGS_MODULE: 'spec/core/fixtures/settings', API_FRAMEWORK_QUIET: '1', DATABASE_REPLICA_URLS: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

replicas('DATABASE_REPLICA_URLS :: validated like DATABASE_URL, naming the setting', () => {
  const primary = parseDatabaseUrl('mysql://root@127.0.0.1:3306/app');
  assert.equal(parseReplicaUrls([], primary), []);
  assert.equal(parseReplicaUrls(undefined, primary), []);
  const [one, two] = parseReplicaUrls(['mysql://reader:pw@10.0.0.2/app', 'mariadb://10.0.0.3:3307/app_copy'], primary);
  assert.equal([one.host, one.port, one.user, one.password, one.database], ['10.0.0.2', 3306, 'reader', 'pw', 'app']);
  assert.equal([two.host, two.port, two.database], ['10.0.0.3', 3307, 'app_copy']);
  throwsImproperly(() => parseReplicaUrls(['mysql://reader:topsecret@db2/'], primary), "DATABASE_REPLICA_URLS 'mysql://reader:***@db2/' must name a host and a database");
  throwsImproperly(() => parseReplicaUrls(['mysql://reader:topsecret@/app'], primary), "DATABASE_REPLICA_URLS 'mysql://reader:***@/app' cannot be parsed");
  throwsImproperly(() => parseReplicaUrls(['postgres://h/db'], primary), 'DATABASE_REPLICA_URLS', 'unsupported database scheme');
  throwsImproperly(() => parseReplicaUrls([''], primary), 'The DATABASE_REPLICA_URLS setting is empty');
  throwsImproperly(() => parseReplicaUrls(['sqlite:replica.db'], primary), "DATABASE_REPLICA_URLS 'sqlite:replica.db' is not a MySQL/MariaDB URL");
  throwsImproperly(() => parseReplicaUrls('mysql://h/db', primary), 'DATABASE_REPLICA_URLS setting must be a list');
  throwsImproperly(() => parseReplicaUrls([42], primary), 'DATABASE_REPLICA_URLS setting must be a list');
});

replicas('DATABASE_REPLICA_URLS :: a SQLite DATABASE_URL with replicas is refused when the connection is made', () => {
  throwsImproperly(() => parseReplicaUrls(['mysql://h/db'], parseDatabaseUrl('sqlite::memory:')), 'read replicas need a MySQL/MariaDB DATABASE_URL');
  overrideSettings({ DATABASE_URL: 'sqlite::memory:', DATABASE_REPLICA_URLS: ['mysql://root@127.0.0.1:3306/test'] }, () => {
    throwsImproperly(() => getSequelize(), 'DATABASE_REPLICA_URLS is set, but DATABASE_URL is a SQLite database');
  });
  // An empty list is no replicas at all.
  assert.equal(parseReplicaUrls([], parseDatabaseUrl('sqlite::memory:')), []);
});

replicas('DATABASE_REPLICA_URLS :: the env value is a comma-separated list', () => {
  assert.equal(splitUrlList(' mysql://a/x , ,mysql://b:pw@h:3307/y,'), ['mysql://a/x', 'mysql://b:pw@h:3307/y']);
  assert.equal(splitUrlList(''), []);
});

replicas('DATABASE_POOL :: defaults, partial values and bad values', () => {
  assert.equal(parseDatabasePool(undefined), { max: 10, min: 0, idle: 10000, acquire: 30000 });
  assert.equal(parseDatabasePool({}), { ...DEFAULT_DATABASE_POOL });
  assert.equal(parseDatabasePool({ max: 25, idle: 5000 }), { max: 25, min: 0, idle: 5000, acquire: 30000 });
  throwsImproperly(() => parseDatabasePool({ max: 0 }), 'DATABASE_POOL.max must be an integer of at least 1 (got 0)');
  throwsImproperly(() => parseDatabasePool({ min: -1 }), 'DATABASE_POOL.min must be an integer of at least 0');
  throwsImproperly(() => parseDatabasePool({ acquire: '30s' }), 'DATABASE_POOL.acquire', '"30s"');
  throwsImproperly(() => parseDatabasePool({ max: 2, min: 3 }), 'DATABASE_POOL.min (3) must not be greater than DATABASE_POOL.max (2)');
  throwsImproperly(() => parseDatabasePool({ maxConnections: 5 }), "DATABASE_POOL has an unknown key 'maxConnections'");
  throwsImproperly(() => parseDatabasePool(10), 'The DATABASE_POOL setting must be an object');
});

replicas('sequelizeOptions :: MySQL gets the pool and, with replicas, replication (reads: replicas, write: primary)', () => {
  const primary = parseDatabaseUrl('mysql://writer:pw@db1:3306/app');
  const plain = sequelizeOptions(primary);
  assert.equal(plain.pool, { ...DEFAULT_DATABASE_POOL });
  assert.is(plain.replication, undefined);
  const replicated = sequelizeOptions(primary, {
    replicas: parseReplicaUrls(['mysql://reader:rpw@db2/app', 'mysql://reader:rpw@db3:3307/app'], primary),
    pool: parseDatabasePool({ max: 4 }),
  });
  assert.equal(replicated.pool, { max: 4, min: 0, idle: 10000, acquire: 30000 });
  const replication = replicated.replication as { read: Array<Record<string, unknown>>; write: Record<string, unknown> };
  assert.equal(replication.write, { host: 'db1', port: 3306, username: 'writer', password: 'pw', database: 'app' });
  assert.equal(replication.read.map((r) => `${r.username}@${r.host}:${r.port}/${r.database}`), ['reader@db2:3306/app', 'reader@db3:3307/app']);
  // SQLite has neither.
  const sqlite = sequelizeOptions(parseDatabaseUrl('sqlite::memory:'), { pool: parseDatabasePool({ max: 4 }) });
  assert.is(sqlite.pool, undefined);
  assert.is(sqlite.replication, undefined);
});

replicas('connection :: changing DATABASE_POOL or DATABASE_REPLICA_URLS switches the Sequelize instance', async () => {
  // Constructing a MySQL instance opens no connection, so an unreachable server is fine here.
  const url = 'mysql://root@127.0.0.1:1/pool_probe';
  try {
    const [plain, pooled, replicated] = overrideSettings({ DATABASE_URL: url, DATABASE_REPLICA_URLS: [], DATABASE_POOL: {} }, () => [
      getSequelize(),
      overrideSettings({ DATABASE_POOL: { max: 3, min: 1 } }, () => getSequelize()),
      overrideSettings({ DATABASE_REPLICA_URLS: ['mysql://root@127.0.0.1:1/replica_probe'] }, () => getSequelize()),
    ]);
    assert.is.not(plain, pooled);
    assert.is.not(plain, replicated);
    const poolOf = (s: Sequelize): unknown => (s as unknown as { config: { pool: { max: number; min: number } } }).config.pool;
    assert.equal(poolOf(pooled), { max: 3, min: 1, idle: 10000, acquire: 30000 });
    assert.equal(poolOf(plain), { ...DEFAULT_DATABASE_POOL });
    const read = (replicated.options.replication as { read: Array<{ database: string }> } | undefined)?.read ?? [];
    assert.equal(read.map((r) => r.database), ['replica_probe']);
    assert.not.ok(plain.options.replication);
    // Back to the same values: the same instance again.
    assert.is(overrideSettings({ DATABASE_URL: url, DATABASE_REPLICA_URLS: [], DATABASE_POOL: {} }, () => getSequelize()), plain);
  } finally {
    await closeConnection(url);
  }
});

replicas('checkDatabaseConnection :: an unreachable server raises OperationalError naming the masked URL', async () => {
  try {
    await overrideSettings({ DATABASE_URL: CLOSED }, () => checkDatabaseConnection());
    assert.unreachable('expected OperationalError');
  } catch (error) {
    assert.instance(error, OperationalError);
    const message = (error as Error).message;
    assert.ok(message.startsWith('Cannot connect to the database mysql://root:***@127.0.0.1:1/test (DATABASE_URL): '), message);
    assert.match(message, /ECONNREFUSED/);
    assert.not.match(message, /s3cret/);
  } finally {
    await closeConnection(CLOSED);
  }
  await checkDatabaseConnection(); // the suite's own database answers
});

replicas('manage.ts :: migrate and runserver against a closed port print one line and exit 1', async () => {
  const results = await Promise.all([
    manage(['migrate'], { DATABASE_URL: CLOSED }),
    manage(['runserver', '127.0.0.1:8123'], { DATABASE_URL: CLOSED }),
    manage(['runserver', '127.0.0.1:8124', '--noreload'], { DATABASE_URL: CLOSED }),
  ]);
  for (const [index, { status, stdout, stderr }] of results.entries()) {
    assert.is(status, 1, stderr);
    // runserver reports its progress (the reloader, the system checks) before it reaches the database.
    if (index === 0) assert.is(stdout, '');
    else assert.not.match(stdout, 'Starting development server');
    assert.is(
      stderr.replace(/ECONNREFUSED.*$/m, 'ECONNREFUSED'),
      'CommandError: Cannot connect to the database mysql://root:***@127.0.0.1:1/test (DATABASE_URL): connect ECONNREFUSED\n',
    );
  }
});

replicas('manage.ts :: DATABASE_REPLICA_URLS comes from the env; a bad one fails in one line naming the setting', async () => {
  const [shown, badUrl, sqlite] = await Promise.all([
    manage(['shell', '-c', 'print(settings.DATABASE_REPLICA_URLS)'], {
      DATABASE_URL: 'mysql://root@127.0.0.1:1/app',
      DATABASE_REPLICA_URLS: 'mysql://r1@10.0.0.2/app, mysql://r2@10.0.0.3/app',
    }),
    manage(['migrate'], { DATABASE_URL: 'mysql://root@127.0.0.1:1/app', DATABASE_REPLICA_URLS: 'mysql://reader:pw@db2/' }),
    manage(['migrate'], { DATABASE_URL: 'sqlite::memory:', DATABASE_REPLICA_URLS: 'mysql://root@127.0.0.1:1/app' }),
  ]);
  assert.is(shown.stdout, '["mysql://r1@10.0.0.2/app","mysql://r2@10.0.0.3/app"]\n', shown.stderr);
  assert.is(badUrl.status, 1);
  assert.match(badUrl.stderr, /^CommandError: DATABASE_REPLICA_URLS 'mysql:\/\/reader:\*\*\*@db2\/' must name a host and a database\. /);
  assert.is(badUrl.stderr.trim().split('\n').length, 1);
  assert.is(sqlite.status, 1);
  assert.match(sqlite.stderr, /^CommandError: DATABASE_REPLICA_URLS is set, but DATABASE_URL is a SQLite database/);
});

if (MYSQL) {
  let primary: TestDatabase | null = null;
  let replicaUrl = '';
  let replicaSchema = '';
  let restoreReplicas: (() => void) | null = null;

  /** A connection to the replica database that the framework's routing does not touch. */
  async function onReplica<T>(fn: (s: Sequelize) => Promise<T>): Promise<T> {
    const direct = new Sequelize({ ...sequelizeOptions(parseDatabaseUrl(replicaUrl)), logging: false });
    try {
      return await fn(direct);
    } finally {
      await direct.close();
    }
  }

  const names = async (): Promise<string[]> => (await Group.objects.all().fetch()).map((g) => g.name).sort();

  replicas.before(async () => {
    primary = await setupTestDatabase();
    // The "replica": another database on the same server, migrated, with rows of its own.
    replicaSchema = `test_replica_${randomBytes(6).toString('hex')}`;
    const server = new Sequelize({ ...sequelizeOptions(parseDatabaseUrl(primary.url)), logging: false });
    try {
      await server.query(`CREATE DATABASE \`${replicaSchema}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`);
    } finally {
      await server.close();
    }
    const parsed = new URL(primary.url);
    parsed.pathname = `/${replicaSchema}`;
    replicaUrl = parsed.toString();
    await overrideSettings({ DATABASE_URL: replicaUrl }, async () => {
      await migrate();
      await Group.objects.create({ name: 'replica-marker' });
    });
    await closeConnection(replicaUrl);
    restoreReplicas = overrideSettings.enter({ DATABASE_REPLICA_URLS: [replicaUrl] });
  });

  replicas.after(async () => {
    restoreReplicas?.();
    const url = primary?.url;
    if (url) await closeConnection(url);
    await primary?.teardown();
    if (replicaSchema) {
      const server = new Sequelize({ ...sequelizeOptions(parseDatabaseUrl(settings.DATABASE_URL)), logging: false });
      try {
        await server.query(`DROP DATABASE IF EXISTS \`${replicaSchema}\``);
      } finally {
        await server.close();
      }
    }
  });

  replicas('routing :: create() writes to the primary, plain reads come from the replica', async () => {
    assert.ok(getSequelize().options.replication, 'the connection is replicated');
    await checkDatabaseConnection();
    const created = await Group.objects.create({ name: 'primary-marker' });
    assert.ok(created.pk);
    assert.equal(await names(), ['replica-marker']);
    assert.is(await Group.objects.filter({ name: 'primary-marker' }).exists(), false);
    assert.is((await Group.objects.get({ name: 'replica-marker' })).name, 'replica-marker');
    // The write really went to the primary and not to the replica.
    const onReplicaRows = await onReplica((s) => s.query('SELECT name FROM auth_group ORDER BY name', { type: 'SELECT' }));
    assert.equal(onReplicaRows, [{ name: 'replica-marker' }]);
  });

  replicas('routing :: reads inside atomic() and inside usePrimary() use the primary', async () => {
    assert.equal(await atomic(() => names()), ['primary-marker']);
    assert.is(await atomic(() => Group.objects.filter({ name: 'primary-marker' }).count()), 1);
    assert.equal(await usePrimary(() => names()), ['primary-marker']);
    // Outside again: the replica.
    assert.equal(await names(), ['replica-marker']);
  });

  replicas('routing :: update() and delete() run on the primary', async () => {
    assert.is(await Group.objects.filter({ name: 'primary-marker' }).update({ name: 'renamed' }), 1);
    assert.equal(await atomic(() => names()), ['renamed']);
    assert.is(await Group.objects.filter({ name: 'replica-marker' }).update({ name: 'x' }), 0);
    assert.equal(await names(), ['replica-marker']);
  });

  replicas('routing :: migrate() reads the recorded migrations from the primary', async () => {
    // The replica "lags": it misses the record of a migration the primary has applied.
    await onReplica((s) => s.query("DELETE FROM django_migrations WHERE app = 'authtoken'"));
    const result = await migrate();
    assert.equal(result.applied, []);
    assert.equal(result.unapplied, []);
  });

  replicas('checkDatabaseConnection :: an unreachable replica is named as one of DATABASE_REPLICA_URLS', async () => {
    const bad = 'mysql://reader:hidden@127.0.0.1:1/replica';
    try {
      await overrideSettings({ DATABASE_REPLICA_URLS: [replicaUrl, bad] }, () => checkDatabaseConnection());
      assert.unreachable('expected OperationalError');
    } catch (error) {
      assert.instance(error, OperationalError);
      assert.match((error as Error).message, /^Cannot connect to the database mysql:\/\/reader:\*\*\*@127\.0\.0\.1:1\/replica \(DATABASE_REPLICA_URLS\): .*ECONNREFUSED/);
    }
  });
} else {
  reportSkipped('core/db replicas :: MariaDB routing', 'run `npm run test:mysql` to run the MariaDB routing tests');
}

replicas.run();
