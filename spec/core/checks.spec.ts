/**
 * The system check framework and `manage.ts check`: the host framework's report format,
 * `--deploy`, `--fail-level`, `--tag`, `SILENCED_SYSTEM_CHECKS`, and the checks themselves
 * (INSTALLED_APPS, MIDDLEWARE, ROOT_URLCONF, SECRET_KEY and ALLOWED_HOSTS with DEBUG off,
 * ModelSerializers without a model, unapplied migrations); `migrate` stops on errors.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { QueryTypes } from 'sequelize';
import { overrideSettings, type ProjectSettings } from '../../lib/core/conf';
import { apps } from '../../lib/core/apps';
import { callCommand } from '../../lib/core/management';
import { useTestDatabase } from '../../lib/core/db/testing';
import { getSequelize } from '../../lib/core/db';
import { CheckMessage, Warning, Error as CheckError, isStrongSecretKey, register, registry } from '../../lib/core/checks';

const test = suite('core/checks');
useTestDatabase(test, { migrate: false });

const GOOD_KEY = 'k'.repeat(40) + 'abcdefghij'; // 50 characters, 11 distinct

async function check(values: Partial<ProjectSettings>, argv: string[] = []) {
  apps.reset();
  try {
    return await overrideSettings(values, () => callCommand('check', argv));
  } finally {
    apps.reset();
  }
}

test('report :: no issues on stdout, exit 0', async () => {
  const result = await check({});
  assert.is(result.exitCode, 0, result.stderr);
  assert.is(result.stdout, 'System check identified no issues (0 silenced).\n');
  assert.is(result.stderr, '');
});

test('CheckMessage :: printed as obj: (id) message and a tab-indented hint', () => {
  assert.is(String(new CheckError('Broken.', { id: 'x.E001' })), '?: (x.E001) Broken.');
  assert.is(String(new Warning('Careful.', { id: 'x.W001', hint: 'Do this.', obj: 'SETTING' })), 'SETTING: (x.W001) Careful.\n\tHINT: Do this.');
  class Thing {}
  assert.is(String(new CheckMessage(10, 'Note.', { obj: Thing })), 'Thing: Note.');
});

test('MIDDLEWARE :: an entry that does not load is core.E002; SystemCheckError on stderr, exit 1', async () => {
  const result = await check({ MIDDLEWARE: ['lib.core.middleware.CommonMiddleware', 'lib.core.middleware.NoSuchMiddleware'] });
  assert.is(result.exitCode, 1);
  assert.is(result.stdout, '');
  assert.match(
    result.stderr,
    /^SystemCheckError: System check identified some issues:\n\nERRORS:\nMIDDLEWARE: \(core\.E002\) Could not import 'lib\.core\.middleware\.NoSuchMiddleware' for API setting 'MIDDLEWARE'\..*\n\nSystem check identified 1 issue \(0 silenced\)\.\n$/,
  );
});

test('INSTALLED_APPS :: an app that does not load is core.E001 naming the module', async () => {
  const result = await check({ INSTALLED_APPS: ['contrib.auth', 'myproject.nosuchapp'] });
  assert.is(result.exitCode, 1);
  assert.match(result.stderr, "INSTALLED_APPS: (core.E001) INSTALLED_APPS lists 'myproject.nosuchapp', but 'myproject.nosuchapp.app' could not be imported");
  assert.match(result.stderr, '\tHINT: ');
});

test('ROOT_URLCONF :: a URL conf that does not load is core.E003', async () => {
  const result = await check({ ROOT_URLCONF: 'spec.no_such_urls' });
  assert.is(result.exitCode, 1);
  assert.match(result.stderr, "ROOT_URLCONF: (core.E003) The URL conf 'spec.no_such_urls' could not be loaded: ");
});

test('serializers :: a ModelSerializer without Meta or Meta.model is reported once per class', async () => {
  const result = await check({ ROOT_URLCONF: 'spec.core.checks.urls' });
  assert.is(result.exitCode, 1);
  assert.match(result.stderr, 'NoMetaSerializer: (api_framework.E001) Class NoMetaSerializer missing "Meta" attribute\n\tHINT: ');
  assert.match(result.stderr, 'NoModelSerializer: (api_framework.E002) Class NoModelSerializer missing "Meta.model" attribute\n\tHINT: ');
  assert.is(result.stderr.match(/api_framework\.E002/g)?.length, 1);
  assert.not.match(result.stderr, 'UserSerializer');
  assert.match(result.stderr, 'System check identified 2 issues (0 silenced).');
});

test('SECRET_KEY :: with DEBUG off, the host framework rule refuses short, repetitive and insecure-prefixed keys', async () => {
  const rows: Array<[string, boolean]> = [
    ['short-key', false],
    ['k'.repeat(49) + 'a', false], // 50 characters, 2 distinct
    ['abcd'.repeat(13), false], // 52 characters, 4 distinct
    [`django-insecure-${'x1y2z3w4v5'.repeat(5)}`, false],
    ['api-framework-insecure-development-key-do-not-use-in-production', false],
    [GOOD_KEY.slice(0, 49), false],
    [GOOD_KEY, true],
  ];
  for (const [key, strong] of rows) {
    assert.is(isStrongSecretKey(key), strong, key);
    const result = await check({ DEBUG: false, SECRET_KEY: key });
    assert.is(result.exitCode, strong ? 0 : 1, key);
    assert.is(result.stderr.includes('(security.E009) Your SECRET_KEY has less than 50 characters, less than 5 unique characters'), !strong, key);
  }
});

test('SECRET_KEY :: with DEBUG on, a weak key is only a --deploy warning (security.W009)', async () => {
  const plain = await check({ DEBUG: true, SECRET_KEY: 'short' });
  assert.is(plain.exitCode, 0, plain.stderr);
  assert.is(plain.stdout, 'System check identified no issues (0 silenced).\n');
  const deploy = await check({ DEBUG: true, SECRET_KEY: 'short' }, ['--deploy']);
  assert.is(deploy.exitCode, 0);
  assert.match(deploy.stderr, /^System check identified some issues:\n\nWARNINGS:\n/);
  assert.match(deploy.stderr, "?: (security.W009) Your SECRET_KEY has less than 50 characters, less than 5 unique characters, or it's prefixed with 'django-insecure-'");
  assert.match(deploy.stderr, '?: (security.W018) You should not have DEBUG set to True in deployment.');
  const failing = await check({ DEBUG: true, SECRET_KEY: 'short' }, ['--deploy', '--fail-level', 'WARNING']);
  assert.is(failing.exitCode, 1);
  assert.match(failing.stderr, /^SystemCheckError: System check identified some issues:\n\nWARNINGS:\n/);
});

test('ALLOWED_HOSTS :: empty with DEBUG off is security.E020', async () => {
  const result = await check({ DEBUG: false, SECRET_KEY: GOOD_KEY, ALLOWED_HOSTS: [] });
  assert.is(result.exitCode, 1);
  assert.match(result.stderr, '?: (security.E020) ALLOWED_HOSTS must not be empty when DEBUG is off.');
});

test('SILENCED_SYSTEM_CHECKS :: silenced messages are counted, not shown', async () => {
  const result = await check({ DEBUG: true, SECRET_KEY: 'short', SILENCED_SYSTEM_CHECKS: ['security.W009', 'security.W018'] }, ['--deploy']);
  assert.is(result.exitCode, 0);
  assert.not.match(result.stderr + result.stdout, 'W009');
  assert.match(result.stdout + result.stderr, '(2 silenced).');
});

test('--tag, --list-tags and bad arguments', async () => {
  const tags = await check({}, ['--list-tags']);
  assert.is(tags.exitCode, 0);
  for (const tag of ['apps', 'middleware', 'security', 'urls']) assert.ok(tags.stdout.split('\n').includes(tag), tag);
  const onlySecurity = await check({ MIDDLEWARE: ['nope.Nope'] }, ['--tag', 'security']);
  assert.is(onlySecurity.exitCode, 0, onlySecurity.stderr);
  const unknownTag = await check({}, ['--tag', 'nonsense']);
  assert.is(unknownTag.exitCode, 1);
  assert.is(unknownTag.stderr, 'CommandError: There is no system check with the "nonsense" tag.\n');
  const badLevel = await check({}, ['--fail-level', 'LOUD']);
  assert.is(badLevel.exitCode, 1);
  assert.match(badLevel.stderr, "invalid choice: 'LOUD'");
});

test('registry :: a registered check runs; a check not returning a list is a TypeError', async () => {
  const custom = register(() => [new Warning('Custom warning.', { id: 'myapp.W001' })], { tags: ['myapp'] });
  try {
    const result = await check({}, ['--tag', 'myapp']);
    assert.is(result.exitCode, 0);
    assert.match(result.stderr, 'WARNINGS:\n?: (myapp.W001) Custom warning.\n\nSystem check identified 1 issue (0 silenced).');
  } finally {
    registry.unregister(custom);
  }
  const broken = register((() => 'oops') as unknown as () => CheckMessage[]);
  try {
    let caught: unknown = null;
    await registry.runChecks().catch((error: unknown) => (caught = error));
    assert.instance(caught, TypeError);
    assert.match(String(caught), 'did not return a list of messages');
  } finally {
    registry.unregister(broken);
  }
});

test('migrations :: check --database warns about unapplied migrations (migrations.W001)', async () => {
  const result = await check({}, ['--database']);
  assert.is(result.exitCode, 0);
  assert.match(result.stderr, /\?: \(migrations\.W001\) You have \d+ unapplied migration\(s\)\. Your project may not work properly until you apply the migrations for app\(s\): auth, authtoken, sessions\.\n\tHINT: Run 'manage\.ts migrate' to apply them\./);
  const migrate = await callCommand('migrate');
  assert.is(migrate.exitCode, 0, migrate.stderr);
  const after = await check({}, ['--database']);
  assert.is(after.stdout, 'System check identified no issues (0 silenced).\n');
});

test('migrate :: stops on a system check error before touching the database', async () => {
  await callCommand('migrate', ['auth', 'zero']);
  const result = await overrideSettings({ MIDDLEWARE: ['nope.Nope'] }, () => callCommand('migrate'));
  assert.is(result.exitCode, 1);
  assert.match(result.stderr, /^SystemCheckError: System check identified some issues:\n\nERRORS:\nMIDDLEWARE: \(core\.E002\)/);
  assert.is(result.stdout, '');
  const rows = await getSequelize().query<{ name: string }>("SELECT name FROM django_migrations WHERE app = 'auth'", { type: QueryTypes.SELECT });
  assert.is(rows.length, 0);
});

test.run();
