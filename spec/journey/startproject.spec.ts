/**
 * The new user's journey, in a temporary folder outside the repository: `npm pack` of the
 * framework, `npx --package <tgz> api-framework startproject mysite .`, `npm install <tgz>`,
 * `npm install`, `manage.ts startapp books`, the README's "Start your own project" code
 * written into the project, makemigrations + migrate, a field added (makemigrations writes
 * 0002, migrate, `makemigrations --check` exits 0), a ModelViewSet on a
 * DefaultRouter serving POST/GET (with the unique validation) and the browsable page over
 * HTTP, the project's own `npm test`, and `tsc --noEmit` with the generated strict tsconfig.
 *
 * Slow (npm pack builds the package; installs run against the npm cache): it runs once, in
 * CI's SQLite pass (`CI` set, no `DATABASE_URL`/`CACHE_URL`) or with `JOURNEY_TESTS=1`, and
 * is skipped with a note otherwise or when a package is neither in the npm cache nor reachable
 * (installs are `--prefer-offline`: the cache first, the registry only for what it lacks — a
 * fresh machine's `npm ci` caches the tarballs but not the registry metadata an install of
 * the packed tarball resolves its ranges with). The tarball's `sqlite3` dependency is pointed (package.json `overrides`) at
 * the repository's already compiled copy: offline there is no prebuilt binary to download,
 * and compiling it again would take minutes. Everything else comes from the tarball.
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FRAMEWORK_ROOT } from '../../lib/core/conf';

const journey = suite('journey: startproject to a served API');

const enabled = process.env.JOURNEY_TESTS === '1' || (Boolean(process.env.CI) && !process.env.DATABASE_URL && !process.env.CACHE_URL);
const README = fs.readFileSync(path.join(FRAMEWORK_ROOT, 'README.md'), 'utf8');

/** The README's code block that starts with the comment `// <file>`. */
function readmeBlock(file: string): string {
  const marker = `\`\`\`ts\n// ${file}\n`;
  const start = README.indexOf(marker);
  assert.ok(start >= 0, `README.md has no code block for ${file}`);
  const body = README.slice(start + marker.length);
  return body.slice(0, body.indexOf('```'));
}

let workDir = '';
let projectDir = '';
let tarball = '';
let skipped: string | null = null;

/** A clean environment for the project's processes (none of this suite's settings). */
function projectEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const key of ['SETTINGS_MODULE', 'API_FRAMEWORK_PROJECT_ROOT', 'DATABASE_URL', 'CACHE_URL', 'TS_NODE_PROJECT', 'TS_NODE_TRANSPILE_ONLY', 'NODE_OPTIONS']) delete env[key];
  return env;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = projectEnv()): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 180_000 });
}

function ok(result: SpawnSyncReturns<string>, what: string): string {
  assert.is(result.status, 0, `${what} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** `npx ts-node manage.ts ...args` in the project (the project's own ts-node). */
function manage(...args: string[]): SpawnSyncReturns<string> {
  return run(process.execPath, [path.join(projectDir, 'node_modules', 'ts-node', 'dist', 'bin.js'), 'manage.ts', ...args], projectDir);
}

const NPM_OFFLINE = ['--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'];

/** A package is neither in the npm cache nor reachable in the registry: the journey cannot run. */
function cacheMiss(result: SpawnSyncReturns<string>): boolean {
  return result.status !== 0 && /ENOTCACHED|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|E404|ETARGET/.test(`${result.stdout}${result.stderr}`);
}

journey.before(() => {
  if (!enabled) {
    skipped = 'set JOURNEY_TESTS=1 (CI runs it in the SQLite pass)';
    return;
  }
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'af-journey-'));
  projectDir = path.join(workDir, 'site');
  fs.mkdirSync(projectDir);
});

/** Remove the npx cache entry made for this run's tarball (npx keeps an installed copy per package spec). */
function removeNpxCacheEntry(): void {
  if (!tarball) return;
  const cache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
  const npxDir = path.join(cache, '_npx');
  if (!cache || !fs.existsSync(npxDir)) return;
  for (const entry of fs.readdirSync(npxDir)) {
    const manifest = path.join(npxDir, entry, 'package.json');
    if (fs.existsSync(manifest) && fs.readFileSync(manifest, 'utf8').includes(tarball)) fs.rmSync(path.join(npxDir, entry), { recursive: true, force: true });
  }
}

journey.after(() => {
  removeNpxCacheEntry();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  if (skipped) process.stdout.write(`\n  note: the startproject journey was skipped: ${skipped}\n`);
});

journey('npm pack builds an installable package; startproject writes the project', () => {
  if (skipped) return;
  const packed = ok(run('npm', ['pack', '--pack-destination', workDir, '--json'], FRAMEWORK_ROOT, { ...process.env }), 'npm pack');
  const info = JSON.parse(packed.slice(packed.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = path.join(workDir, info[0].filename);
  const files = new Set(info[0].files.map((f) => f.path));
  for (const file of ['dist/lib/index.js', 'dist/lib/index.d.ts', 'dist/lib/core/db/index.d.ts', 'dist/bin/api-framework.js', 'dist/contrib/browsable/templates/api_framework/api.html', 'dist/contrib/browsable/static/api_framework/css/browsable.css', 'dist/contrib/admin/templates/admin/base.html', 'dist/lib/core/locale/de.json']) {
    assert.ok(files.has(file), `the package holds ${file}`);
  }
  assert.not.ok([...files].some((f) => f.startsWith('dist/demo/') || f.startsWith('lib/') || f.startsWith('spec/') || f.endsWith('.map')), 'no sources, demo, specs or maps');

  const npx = run('npx', ['--yes', '--prefer-offline', '--package', tarball, 'api-framework', 'startproject', 'mysite', '.'], projectDir, projectEnv({ npm_config_ignore_scripts: 'true' }));
  if (cacheMiss(npx)) {
    skipped = `a package is neither cached nor reachable (npx --prefer-offline): ${npx.stderr.split('\n')[0]}`;
    return;
  }
  ok(npx, 'npx api-framework startproject');
  for (const file of ['package.json', 'tsconfig.json', 'manage.ts', 'testSetup.ts', 'mysite/settings.ts', 'mysite/urls.ts', '.gitignore', 'README.md']) {
    assert.ok(fs.existsSync(path.join(projectDir, file)), `startproject wrote ${file}`);
  }
  const pkg = JSON.parse(fs.readFileSync(path.join(projectDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; scripts: Record<string, string> };
  assert.is(pkg.dependencies.api_framework, `^${(JSON.parse(fs.readFileSync(path.join(FRAMEWORK_ROOT, 'package.json'), 'utf8')) as { version: string }).version}`);
  assert.equal(Object.keys(pkg.scripts).filter((s) => ['start', 'test', 'build', 'migrate'].includes(s)).sort(), ['build', 'migrate', 'start', 'test']);
  assert.match(fs.readFileSync(path.join(projectDir, '.gitignore'), 'utf8'), /\*\.sqlite3-wal\n\*\.sqlite3-shm/);
});

journey('npm install <tgz> and npm install (cache first), then startapp', () => {
  if (skipped) return;
  const pkgFile = path.join(projectDir, 'package.json');
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as Record<string, unknown>;
  pkg.overrides = { sqlite3: `file:${path.join(FRAMEWORK_ROOT, 'node_modules', 'sqlite3')}` };
  fs.writeFileSync(pkgFile, JSON.stringify(pkg, null, 2));
  const install = run('npm', ['install', ...NPM_OFFLINE, tarball], projectDir);
  if (cacheMiss(install)) {
    skipped = `a package is neither cached nor reachable (npm install --prefer-offline): ${install.stderr.split('\n')[0]}`;
    return;
  }
  ok(install, 'npm install <tgz>');
  ok(run('npm', ['install', ...NPM_OFFLINE], projectDir), 'npm install');
  assert.ok(fs.existsSync(path.join(projectDir, 'node_modules', 'api_framework', 'dist', 'lib', 'index.js')));
  assert.not.ok(fs.existsSync(path.join(projectDir, 'node_modules', 'api_framework', 'lib')), 'the installed package has no TypeScript sources');

  ok(manage('startapp', 'books'), 'manage.ts startapp books');
  for (const file of ['app.ts', 'models.ts', 'serializers.ts', 'views.ts', 'urls.ts', 'admin.ts', 'books.spec.ts']) {
    assert.ok(fs.existsSync(path.join(projectDir, 'books', file)), `startapp wrote books/${file}`);
  }
  assert.ok(fs.statSync(path.join(projectDir, 'books', 'migrations')).isDirectory());
});

journey("the README's books app: makemigrations, migrate; a field added: makemigrations writes 0002, migrate, --check is clean", () => {
  if (skipped) return;
  for (const file of ['books/models.ts', 'books/serializers.ts', 'books/views.ts', 'books/queries.ts', 'books/admin.ts', 'books/urls.ts', 'mysite/urls.ts']) {
    fs.writeFileSync(path.join(projectDir, file), readmeBlock(file));
  }
  const settingsFile = path.join(projectDir, 'mysite', 'settings.ts');
  const settingsText = fs.readFileSync(settingsFile, 'utf8');
  assert.ok(settingsText.includes("    'api_framework.contrib.admin',\n"));
  fs.writeFileSync(settingsFile, settingsText.replace("    'api_framework.contrib.admin',\n", "    'api_framework.contrib.admin',\n    'books',\n"));

  const made = ok(manage('makemigrations'), 'makemigrations');
  assert.match(made, "Migrations for 'books':\n  books/migrations/0001_initial.ts\n    - Create model Book\n");
  assert.match(fs.readFileSync(path.join(projectDir, 'books', 'migrations', '0001_initial.ts'), 'utf8'), "from 'api_framework/db';");
  const first = ok(manage('migrate'), 'migrate');
  assert.match(first, /Applying books\.0001_initial\.\.\. OK/);
  assert.ok(fs.existsSync(path.join(projectDir, 'db.sqlite3')), 'the database is in the project folder');

  const modelsFile = path.join(projectDir, 'books', 'models.ts');
  const models = fs.readFileSync(modelsFile, 'utf8');
  fs.writeFileSync(modelsFile, models.replace(/\n}\n$/, "\n\n  @Column(field({ type: DataType.INTEGER, allowNull: true }))\n  declare pages: number | null;\n}\n"));
  const serializersFile = path.join(projectDir, 'books', 'serializers.ts');
  fs.writeFileSync(serializersFile, fs.readFileSync(serializersFile, 'utf8').replace("fields: ['id', 'title', 'author']", "fields: ['id', 'title', 'author', 'pages']"));
  const check = manage('makemigrations', '--check');
  assert.is(check.status, 1, 'makemigrations --check sees the new field');
  const second = ok(manage('makemigrations'), 'makemigrations');
  assert.match(second, "Migrations for 'books':\n  books/migrations/0002_book_pages.ts\n    - Add field pages to book\n");
  assert.match(ok(manage('migrate'), 'migrate'), /Applying books\.0002_book_pages\.\.\. OK/);
  assert.match(ok(manage('makemigrations', '--check'), 'makemigrations --check'), /No changes detected/);
  assert.match(ok(manage('migrate'), 'migrate'), /No migrations to apply/);
});

/** Start `manage.ts runserver 127.0.0.1:0 --noreload` in the project; resolve its URL. */
function startServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [path.join(projectDir, 'node_modules', 'ts-node', 'dist', 'bin.js'), 'manage.ts', 'runserver', '127.0.0.1:0', '--noreload'], {
    cwd: projectDir,
    env: projectEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`runserver did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /Starting development server at (http:\/\/[^/\s]+)\//.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1],
          stop: () => new Promise<void>((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`runserver exited ${code}:\n${output}`)));
  });
}

journey('a ModelViewSet on a DefaultRouter serves POST/GET, unique validation and the browsable page', async () => {
  if (skipped) return;
  const server = await startServer();
  try {
    const post = (body: unknown): Promise<Response> =>
      fetch(`${server.url}/books/`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) });
    const created = await post({ title: 'Dune', author: 'Frank Herbert', pages: 412 });
    assert.is(created.status, 201);
    assert.equal(await created.json(), { id: 1, title: 'Dune', author: 'Frank Herbert', pages: 412 });
    const duplicate = await post({ title: 'Dune' });
    assert.is(duplicate.status, 400);
    assert.equal(await duplicate.json(), { title: ['book with this title already exists.'] });
    const list = await fetch(`${server.url}/books/`, { headers: { Accept: 'application/json' } });
    assert.is(list.status, 200);
    assert.equal(await list.json(), [{ id: 1, title: 'Dune', author: 'Frank Herbert', pages: 412 }]);
    const page = await fetch(`${server.url}/books/`, { headers: { Accept: 'text/html' } });
    assert.is(page.status, 200);
    const html = await page.text();
    assert.match(html, /<title>Book List – API framework<\/title>/);
    assert.match(html, /Frank Herbert/);
    const css = await fetch(`${server.url}/static/api_framework/css/browsable.css`);
    assert.is(css.status, 200, 'the browsable API static files come from the installed package');
  } finally {
    await server.stop();
  }
});

/** A spec of the project's own: the test client and a migrated test database per suite. */
const BOOKS_API_SPEC = `import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { APIClient, transactionalSuite, useTestDatabase } from 'api_framework/test';

const api = suite('books api');
useTestDatabase(api);
const test = transactionalSuite(api);

test('a title is unique', async () => {
  const client = new APIClient();
  assert.is((await client.post('/books/', { data: { title: 'Emma' }, format: 'json' })).statusCode, 201);
  const again = await client.post('/books/', { data: { title: 'Emma' }, format: 'json' });
  assert.is(again.statusCode, 400);
  assert.equal(again.json(), { title: ['book with this title already exists.'] });
});

api.run();
`;

journey("the project's npm test and tsc --noEmit with its strict tsconfig pass", () => {
  if (skipped) return;
  fs.writeFileSync(path.join(projectDir, 'books', 'api.spec.ts'), BOOKS_API_SPEC);
  const tests = ok(run('npm', ['test'], projectDir), 'npm test');
  assert.match(tests, /Total:\s+2\b/);
  assert.match(tests, /Passed:\s+2\b/);
  ok(run(process.execPath, [path.join(projectDir, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', '.'], projectDir), 'tsc --noEmit -p .');
});

journey.run();
