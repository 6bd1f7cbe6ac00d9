/**
 * `startproject` and `startapp` write the files a project and an app need (and refuse bad
 * names or existing files before writing anything); the admin loads apps' `admin` modules;
 * package.json's exports, typesVersions and bin agree with the entry points and tsconfig paths.
 * (spec/journey runs the whole flow against the packed package.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AdminSite } from '../../contrib/admin/sites';
import { FRAMEWORK_ROOT, overrideSettings } from '../../lib/core/conf';
import { ENTRY_POINTS } from '../../lib/core/entryPoints';
import { callCommand } from '../../lib/core/management';

const templates = suite('startproject and startapp');

let tmp = '';
templates.before.each(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'af-start-'));
});
templates.after.each(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Every file under `dir`, relative, sorted (folders end with `/`). */
function tree(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = path.posix.join(prefix, entry.name);
    if (entry.isDirectory()) {
      const inner = tree(dir, rel);
      out.push(...(inner.length ? inner : [`${rel}/`]));
    } else out.push(rel);
  }
  return out.sort();
}

const VERSION = (JSON.parse(fs.readFileSync(path.join(FRAMEWORK_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

templates('startproject NAME DIR :: writes the project files', async () => {
  const result = await callCommand('startproject', ['mysite', tmp]);
  assert.is(result.exitCode, 0, result.stderr);
  assert.equal(tree(tmp), ['.gitignore', 'README.md', 'manage.ts', 'mysite/settings.ts', 'mysite/urls.ts', 'package.json', 'testSetup.ts', 'tsconfig.build.json', 'tsconfig.json']);
  const pkg = JSON.parse(fs.readFileSync(path.join(tmp, 'package.json'), 'utf8')) as { name: string; dependencies: Record<string, string>; devDependencies: Record<string, string>; scripts: Record<string, string>; allowScripts: Record<string, boolean> };
  assert.is(pkg.name, 'mysite');
  assert.equal(pkg.allowScripts, { sqlite3: true, '@scarf/scarf': false }, 'npm 11 runs sqlite3\'s native build only when approved');
  assert.is(pkg.dependencies.api_framework, `^${VERSION}`);
  for (const script of ['start', 'test', 'build', 'migrate']) assert.type(pkg.scripts[script], 'string', script);
  assert.ok('typescript' in pkg.devDependencies && 'ts-node' in pkg.devDependencies);
  const tsconfig = JSON.parse(fs.readFileSync(path.join(tmp, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
  assert.equal(
    [tsconfig.compilerOptions.strict, tsconfig.compilerOptions.experimentalDecorators, tsconfig.compilerOptions.emitDecoratorMetadata, tsconfig.compilerOptions.useDefineForClassFields],
    [true, true, true, false],
  );
  const settingsText = fs.readFileSync(path.join(tmp, 'mysite/settings.ts'), 'utf8');
  assert.ok(settingsText.includes("ROOT_URLCONF: 'mysite.urls'"));
  assert.ok(settingsText.includes("DATABASE_URL: 'sqlite:db.sqlite3'"));
  assert.ok(settingsText.includes("const DEBUG = process.env.DEBUG !== '0';"));
  assert.ok(fs.readFileSync(path.join(tmp, 'manage.ts'), 'utf8').includes("settingsModule: 'mysite/settings'"));
  assert.equal(fs.readFileSync(path.join(tmp, '.gitignore'), 'utf8').split('\n').filter(Boolean), ['node_modules/', 'dist/', 'db.sqlite3', '*.sqlite3-journal', '*.sqlite3-wal', '*.sqlite3-shm', '*.log']);
  assert.match(result.stdout, `Project 'mysite' created in ${tmp}.`);
});

templates('startproject NAME :: makes the folder in the working directory and refuses an existing one', async () => {
  const cwd = process.cwd();
  process.chdir(tmp);
  try {
    assert.is((await callCommand('startproject', ['shop'])).exitCode, 0);
    assert.ok(fs.existsSync(path.join(tmp, 'shop', 'shop', 'settings.ts')));
    const again = await callCommand('startproject', ['shop']);
    assert.is(again.exitCode, 1);
    assert.is(again.stderr, `CommandError: '${path.join(tmp, 'shop')}' already exists\n`);
  } finally {
    process.chdir(cwd);
  }
});

const REFUSED: Array<[string[], string]> = [
  [['1site'], "CommandError: '1site' is not a valid project name. Please make sure the name is a valid identifier.\n"],
  [['my-site'], "CommandError: 'my-site' is not a valid project name. Please make sure the name is a valid identifier.\n"],
  [['lib'], "CommandError: 'lib' conflicts with the name of a framework module or folder and cannot be used as a project name. Please try another name.\n"],
  [['api_framework'], "CommandError: 'api_framework' conflicts with the name of a framework module or folder and cannot be used as a project name. Please try another name.\n"],
];

templates('startproject :: refuses bad names, a missing directory and existing files, writing nothing', async () => {
  for (const [args, message] of REFUSED) {
    const result = await callCommand('startproject', [...args, tmp]);
    assert.is(result.exitCode, 1, args[0]);
    assert.is(result.stderr, message, args[0]);
  }
  const missing = path.join(tmp, 'nowhere');
  assert.is((await callCommand('startproject', ['mysite', missing])).stderr, `CommandError: Destination directory '${missing}' does not exist, please create it first.\n`);
  fs.writeFileSync(path.join(tmp, 'manage.ts'), 'mine');
  const clash = await callCommand('startproject', ['mysite', tmp]);
  assert.is(clash.exitCode, 1);
  assert.is(clash.stderr, `CommandError: ${path.join(tmp, 'manage.ts')} already exists. Overlaying into an existing directory won't replace conflicting files.\n`);
  assert.equal(tree(tmp), ['manage.ts']);
  assert.is(fs.readFileSync(path.join(tmp, 'manage.ts'), 'utf8'), 'mine');
});

templates('startapp NAME DIR :: writes the app files and an empty migrations folder', async () => {
  const result = await callCommand('startapp', ['books', tmp]);
  assert.is(result.exitCode, 0, result.stderr);
  assert.equal(tree(tmp), ['admin.ts', 'app.ts', 'books.spec.ts', 'migrations/', 'models.ts', 'serializers.ts', 'urls.ts', 'views.ts']);
  const app = fs.readFileSync(path.join(tmp, 'app.ts'), 'utf8');
  assert.ok(app.includes("label: 'books'") && app.includes("models: './models'"));
  assert.not.ok(app.includes('require('), 'no require() incantation');
  assert.is((await callCommand('startapp', ['books', tmp])).stderr, `CommandError: ${path.join(tmp, 'app.ts')} already exists. Overlaying into an existing directory won't replace conflicting files.\n`);
  assert.is((await callCommand('startapp', ['contrib', tmp])).exitCode, 1);
});

templates("the admin's autodiscovery loads installed apps' admin modules", () => {
  const adminModule = path.join(FRAMEWORK_ROOT, 'spec/core/fixtures/appModels/byPath/admin.ts');
  delete require.cache[adminModule];
  overrideSettings({ INSTALLED_APPS: ['spec.core.fixtures.appModels.byPath', 'spec.core.fixtures.appModels.byClasses'] }, () => {
    new AdminSite('fixture').autodiscover();
  });
  assert.ok(require.cache[adminModule], 'byPath/admin.ts was loaded');
});

const pkg = suite('package.json');
const manifest = JSON.parse(fs.readFileSync(path.join(FRAMEWORK_ROOT, 'package.json'), 'utf8')) as {
  private?: boolean;
  exports: Record<string, { types: string; default: string } | string>;
  typesVersions: { '*': Record<string, string[]> };
  bin: Record<string, string>;
  files: string[];
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
};
const tsconfig = JSON.parse(fs.readFileSync(path.join(FRAMEWORK_ROOT, 'tsconfig.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } };

pkg('exports, typesVersions and tsconfig paths name exactly the entry points', () => {
  const names = Object.keys(ENTRY_POINTS).sort();
  const subpath = (name: string): string => (name === 'api_framework' ? '.' : `./${name.slice('api_framework/'.length)}`);
  assert.equal(Object.keys(manifest.exports).filter((k) => k !== './package.json').sort(), names.map(subpath).sort());
  assert.equal(Object.keys(tsconfig.compilerOptions.paths).sort(), names);
  for (const [name, target] of Object.entries(ENTRY_POINTS)) {
    assert.equal(manifest.exports[subpath(name)], { types: `./dist/${target}.d.ts`, default: `./dist/${target}.js` }, name);
    assert.equal(tsconfig.compilerOptions.paths[name], [`./${target}.ts`], name);
    if (name !== 'api_framework') assert.equal(manifest.typesVersions['*'][name.slice('api_framework/'.length)], [`dist/${target}.d.ts`], name);
  }
});

pkg('publishable: a bin, built on pack, compile-time deps as dependencies, the compiler optional', () => {
  assert.is(manifest.private, undefined);
  assert.equal(manifest.bin, { 'api-framework': 'dist/bin/api-framework.js' });
  assert.ok(manifest.scripts.prepack.includes('npm run build'));
  for (const dep of ['@types/node', '@types/busboy', '@types/nunjucks', 'reflect-metadata', 'sequelize', 'sequelize-typescript']) assert.ok(dep in manifest.dependencies, dep);
  for (const dep of ['typescript', 'ts-node']) {
    assert.not.ok(dep in manifest.dependencies, dep);
    assert.ok(dep in manifest.peerDependencies && dep in manifest.devDependencies, dep);
  }
});

templates.run();
pkg.run();
