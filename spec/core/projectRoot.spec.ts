/**
 * The project root and the framework root are two folders: dotted paths of the framework's
 * modules (canonical `api_framework.*` names and the older `contrib.*` / `lib.*` aliases)
 * resolve under the framework's code root, every other dotted path under the project's source
 * root; misconfiguration names the file looked for; apps declare their models by module path,
 * function or classes.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Apps, appModels } from '../../lib/core/apps';
import { FRAMEWORK_PACKAGE_ROOT, FRAMEWORK_ROOT, ImproperlyConfigured, overrideSettings, PROJECT_ROOT, SOURCE_ROOT } from '../../lib/core/conf';
import { ENTRY_POINTS } from '../../lib/core/entryPoints';
import { canonicalModulePath, importModule, importString, ModuleNotFound, modulePathToFile } from '../../lib/core/modules';
import { JSONRenderer } from '../../lib/renderers';
import { SecurityMiddleware } from '../../lib/core/security';
import { Label, Shelf } from './fixtures/appModels/models';

const roots = suite('project root and framework root');

roots('the repository is both the framework and the demo project', () => {
  assert.is(FRAMEWORK_ROOT, path.resolve(__dirname, '..', '..'));
  assert.is(FRAMEWORK_PACKAGE_ROOT, FRAMEWORK_ROOT);
  assert.is(SOURCE_ROOT, process.cwd());
  assert.is(PROJECT_ROOT, SOURCE_ROOT);
});

const FILES: Array<[string, string]> = [
  ['api_framework.contrib.auth', 'contrib/auth'],
  ['contrib.auth', 'contrib/auth'],
  ['api_framework.authtoken', 'contrib/authtoken'],
  ['api_framework.contrib.authtoken.models', 'contrib/authtoken/models'],
  ['api_framework.browsable.renderers', 'contrib/browsable/renderers'],
  ['api_framework.renderers', 'lib/renderers'],
  ['lib.renderers', 'lib/renderers'],
  ['api_framework.core.security', 'lib/core/security'],
  ['lib.core.security', 'lib/core/security'],
];

roots('modulePathToFile :: framework names resolve under the framework root', () => {
  for (const [dotted, file] of FILES) assert.is(modulePathToFile(dotted), path.join(FRAMEWORK_ROOT, file), dotted);
});

roots('modulePathToFile :: every other name resolves under the project source root', () => {
  assert.is(modulePathToFile('mysite.urls'), path.join(SOURCE_ROOT, 'mysite', 'urls'));
  assert.is(modulePathToFile('demo.snippets.app'), path.join(SOURCE_ROOT, 'demo', 'snippets', 'app'));
  assert.is(modulePathToFile('api_frameworks.x'), path.join(SOURCE_ROOT, 'api_frameworks', 'x'));
});

const CANONICAL: Array<[string, string]> = [
  ['contrib.auth', 'api_framework.contrib.auth'],
  ['contrib.sessions.middleware.SessionMiddleware', 'api_framework.contrib.sessions.middleware.SessionMiddleware'],
  ['api_framework.authtoken', 'api_framework.contrib.authtoken'],
  ['api_framework.browsable', 'api_framework.contrib.browsable'],
  ['lib.core.security.SecurityMiddleware', 'api_framework.core.security.SecurityMiddleware'],
  ['lib.renderers.JSONRenderer', 'api_framework.renderers.JSONRenderer'],
  ['api_framework.contrib.auth', 'api_framework.contrib.auth'],
  ['api_framework.renderers.JSONRenderer', 'api_framework.renderers.JSONRenderer'],
  ['demo.snippets', 'demo.snippets'],
  ['contribution.app', 'contribution.app'],
];

roots('canonicalModulePath :: aliases get the api_framework spelling, project names stay', () => {
  for (const [given, canonical] of CANONICAL) assert.is(canonicalModulePath(given), canonical, given);
});

roots('importString :: canonical and alias spellings load the same class', () => {
  assert.is(importString('api_framework.renderers.JSONRenderer'), JSONRenderer);
  assert.is(importString('lib.renderers.JSONRenderer'), JSONRenderer);
  assert.is(importString('api_framework.core.security.SecurityMiddleware'), SecurityMiddleware);
  assert.is(importString('lib.core.security.SecurityMiddleware'), SecurityMiddleware);
});

roots('importModule :: a missing module names the file it looked for', () => {
  const expected = path.join(SOURCE_ROOT, 'mysite', 'nowhere');
  assert.throws(
    () => importModule('mysite.nowhere'),
    (e: Error) => e instanceof ModuleNotFound && e.message === `No module named 'mysite.nowhere': there is no ${expected}.ts or ${expected}.js`,
  );
  assert.throws(
    () => importString('mysite.nowhere.Thing', 'DEFAULT_RENDERER_CLASSES'),
    (e: Error) => e instanceof ImproperlyConfigured && e.message.includes(`there is no ${expected}.ts`) && e.message.includes("'DEFAULT_RENDERER_CLASSES'"),
  );
});

roots('public entry point names resolve to this copy of the framework', () => {
  for (const [name, target] of Object.entries(ENTRY_POINTS)) {
    assert.is(require.resolve(name), require.resolve(path.join(FRAMEWORK_ROOT, target)), name);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  assert.is((require('api_framework') as { APIView: unknown }).APIView, (require('../../lib/views') as { APIView: unknown }).APIView);
});

const registry = suite('app registry');

/** Run `fn` with INSTALLED_APPS replaced (a fresh `Apps` registry reads the setting). */
function using(installedApps: string[], fn: () => void): void {
  overrideSettings({ INSTALLED_APPS: installedApps }, fn);
}

registry('INSTALLED_APPS in either spelling: canonical names, isInstalled answers both', () => {
  const apps = new Apps();
  using(['contrib.auth', 'api_framework.contrib.sessions', 'api_framework.authtoken'], () => {
    assert.equal(
      apps.getAppConfigs().map((c) => c.name),
      ['api_framework.contrib.auth', 'api_framework.contrib.sessions', 'api_framework.contrib.authtoken'],
    );
    for (const name of ['auth', 'contrib.auth', 'api_framework.contrib.auth', 'contrib.authtoken', 'api_framework.authtoken']) {
      assert.ok(apps.isInstalled(name), name);
    }
    assert.not.ok(apps.isInstalled('contrib.admin'));
    assert.is(apps.getAppConfig('auth').path, path.join(FRAMEWORK_ROOT, 'contrib', 'auth'));
  });
});

registry('models as a module path, a function returning the module, or the classes; auto-created join models left out', () => {
  const apps = new Apps();
  const base = 'spec.core.fixtures.appModels';
  using([`${base}.byPath`, `${base}.byFunction`, `${base}.byClasses`], () => {
    assert.equal(appModels(apps.getAppConfig('bypath')), [Shelf, Label]);
    assert.equal(appModels(apps.getAppConfig('byfunction')), [Shelf, Label]);
    assert.equal(appModels(apps.getAppConfig('byclasses')), [Label]);
    assert.equal(apps.getModels(), [Shelf, Label, Shelf, Label, Label]);
  });
  // The contrib apps declare `models: './models'` too: the same classes, in the same order, as
  // their former explicit lists (auth's join tables GroupPermission/UserGroup/UserPermission out).
  using(['api_framework.contrib.auth', 'api_framework.contrib.sessions', 'api_framework.contrib.authtoken'], () => {
    assert.equal(apps.getModels().map((model) => model.name), ['ContentType', 'Permission', 'Group', 'User', 'Session', 'Token']);
  });
});

registry('migrationsDir defaults to the app folder migrations/ when it exists, an explicit one is kept', () => {
  const apps = new Apps();
  using(['spec.core.fixtures.appModels.byPath', 'spec.core.fixtures.appModels.byFunction', 'spec.core.fixtures.appModels.byClasses'], () => {
    assert.is(apps.getAppConfig('bypath').migrationsDir, path.join(SOURCE_ROOT, 'spec/core/fixtures/appModels/byPath/migrations'));
    assert.is(apps.getAppConfig('byfunction').migrationsDir, undefined);
    assert.is(apps.getAppConfig('byclasses').migrationsDir, '/nowhere/migrations');
  });
});

registry('a bad models path or a missing app names the file', () => {
  const file = path.join(SOURCE_ROOT, 'spec/core/fixtures/appModels/byPath/nothing');
  assert.throws(
    () => appModels({ label: 'x', models: './nothing', path: path.dirname(file) }),
    (e: Error) => e instanceof ImproperlyConfigured && e.message.startsWith(`The models module './nothing' of app 'x' (${file}) could not be imported`),
  );
  const app = path.join(SOURCE_ROOT, 'mysite', 'books', 'app');
  assert.throws(
    () => new Apps().populate(['mysite.books']),
    (e: Error) => e instanceof ImproperlyConfigured && e.message === `INSTALLED_APPS lists 'mysite.books', but 'mysite.books.app' could not be imported: No module named 'mysite.books.app': there is no ${app}.ts or ${app}.js`,
  );
});

const cli = suite('manage.ts and the project root');

cli('a missing settings module names the file and the project root, from any working directory', () => {
  const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'af-root-'));
  try {
    const result = spawnSync(process.execPath, ['-r', require.resolve('ts-node/register/transpile-only'), path.join(FRAMEWORK_ROOT, 'manage.ts'), 'migrate', '--settings', 'mysite/settings'], {
      cwd: elsewhere,
      encoding: 'utf8',
      env: { ...process.env, SETTINGS_MODULE: '', TS_NODE_PROJECT: path.join(FRAMEWORK_ROOT, 'tsconfig.json') },
    });
    const file = path.join(FRAMEWORK_ROOT, 'mysite', 'settings');
    assert.is(result.status, 1);
    assert.ok(
      result.stderr.startsWith(`ImproperlyConfigured: Could not load the settings module 'mysite/settings' (SETTINGS_MODULE): there is no ${file}.ts or ${file}.js. Project modules resolve from ${FRAMEWORK_ROOT}`),
      result.stderr,
    );
  } finally {
    fs.rmSync(elsewhere, { recursive: true, force: true });
  }
});

roots.run();
registry.run();
cli.run();
