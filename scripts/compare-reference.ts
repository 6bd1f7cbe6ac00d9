/**
 * `npm run compare-reference`: run the same requests against the reference project (real DRF
 * 3.14 on Django 3.2, `../shared/reference-drf`, or env `REFERENCE_DRF`) and against our demo,
 * each on a free port over a fresh SQLite database with the same users and token made through
 * its own manage commands, and print, per request, whether status, body bytes and the compared
 * headers are the same. Exit code 0 when nothing differs, 1 otherwise.
 *
 * Values that legitimately differ are normalised before comparing: token keys, datetimes,
 * cursor tokens, CSRF tokens and session ids (and cookie expiry dates). Browsable API and login
 * pages are different templates: for them only the text of the request/response panes is
 * compared (what DRF shows in `<pre class="prettyprint">`), plus the title of the login page.
 *
 * A developer tool, not part of `npm test`: it needs the Debian packages of the reference
 * (`apt-get install -y python3-django python3-djangorestframework python3-pygments gunicorn`).
 * Cases marked `known` (a difference kept on purpose, with its reason) print `KNOWN` and do not
 * fail the run. Options: `--verbose` prints the compared values of every request,
 * `--show-same` also lists requests that match. `REFERENCE_PYTHON` overrides `/usr/bin/python3`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { freePort, runProcess, stopProcessGroup, waitForHttp } from './lib/processes';
import { CASES, type Case, type Side } from './lib/cases';
import { compareResponses, type Observed } from './lib/compare';

const ROOT = path.resolve(__dirname, '..');
const REFERENCE = path.resolve(process.env.REFERENCE_DRF ?? path.join(ROOT, '..', 'shared', 'reference-drf'));
const PYTHON = process.env.REFERENCE_PYTHON ?? '/usr/bin/python3';
const PASSWORD = 'pw';
/** Both sides are asked as this host, so absolute URLs in bodies and headers are the same. */
const HOST = '127.0.0.1:8000';

interface Server {
  side: Side;
  child: ChildProcess;
  output: () => string;
}

function collect(child: ChildProcess): () => string {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  return () => output;
}

function mustSucceed(what: string, result: { code: number; stdout: string; stderr: string }): string {
  if (result.code !== 0) throw new Error(`${what} failed (exit ${result.code}):\n${result.stderr}${result.stdout}`);
  return result.stdout;
}

function tokenFrom(output: string, who: string): string {
  const match = /Generated token ([0-9a-f]{40}) for user/.exec(output);
  if (!match) throw new Error(`${who}: unexpected drf_create_token output: ${output}`);
  return match[1];
}

/** The reference: serve.sh migrates a fresh database, then users and token via manage.py. */
async function startReference(dbFile: string): Promise<Server> {
  if (!fs.existsSync(path.join(REFERENCE, 'serve.sh'))) {
    throw new Error(`No reference project at ${REFERENCE} (set REFERENCE_DRF to its folder).`);
  }
  const port = await freePort();
  const env = { ...process.env, DATABASE_URL: `sqlite:${dbFile}`, WORKERS: '1' };
  const child = spawn(path.join(REFERENCE, 'serve.sh'), [String(port), dbFile], { cwd: REFERENCE, env, detached: true });
  const output = collect(child);
  const origin = `http://127.0.0.1:${port}`;
  const side: Side = { name: 'reference', origin, token: '', carolToken: '', cookies: {}, vars: {} };
  const server = { side, child, output };
  try {
    await prepareReference(env, side, child, output);
  } catch (error) {
    await stopProcessGroup(child);
    throw error;
  }
  return server;
}

async function prepareReference(env: NodeJS.ProcessEnv, side: Side, child: ChildProcess, output: () => string): Promise<void> {
  await waitForHttp(child, `${side.origin}/features/render/`, output);
  const manage = (args: string[], extra: Record<string, string> = {}) =>
    runProcess(PYTHON, ['manage.py', ...args], { cwd: REFERENCE, env: { ...env, ...extra } });
  mustSucceed('reference createsuperuser', await manage(
    ['createsuperuser', '--noinput', '--username', 'alice', '--email', 'alice@example.com'], { DJANGO_SUPERUSER_PASSWORD: PASSWORD }));
  mustSucceed('reference create carol', await manage(
    ['shell', '-c', `from django.contrib.auth.models import User; User.objects.create_user('carol', 'carol@example.com', '${PASSWORD}')`]));
  side.token = tokenFrom(mustSucceed('reference drf_create_token', await manage(['drf_create_token', 'alice'])), 'reference');
  side.carolToken = tokenFrom(mustSucceed('reference drf_create_token', await manage(['drf_create_token', 'carol'])), 'reference');
}

/** Our demo: migrate, the same users and token via manage.ts, then runserver. */
async function startDemo(dbFile: string): Promise<Server> {
  const env = {
    ...process.env,
    SETTINGS_MODULE: 'demo/settings',
    DATABASE_URL: `sqlite:${dbFile}`,
    CACHE_URL: 'locmem://',
    DEBUG: '0',
    SECRET_KEY: 'compare-reference-not-secret-0123456789abcdefghijklmnopqrstuvwxyz',
    API_FRAMEWORK_QUIET: '1',
  };
  const manage = (args: string[], extra: Record<string, string> = {}) =>
    runProcess(process.execPath, ['-r', 'ts-node/register/transpile-only', 'manage.ts', ...args], { cwd: ROOT, env: { ...env, ...extra } });
  mustSucceed('demo migrate', await manage(['migrate']));
  mustSucceed('demo createsuperuser', await manage(
    ['createsuperuser', '--noinput', '--username', 'alice', '--email', 'alice@example.com'], { SUPERUSER_PASSWORD: PASSWORD }));
  mustSucceed('demo create carol', await manage(['shell', '-c', `await User.objects.createUser('carol', 'carol@example.com', '${PASSWORD}');`]));
  const token = tokenFrom(mustSucceed('demo drf_create_token', await manage(['drf_create_token', 'alice'])), 'demo');
  const carolToken = tokenFrom(mustSucceed('demo drf_create_token', await manage(['drf_create_token', 'carol'])), 'demo');
  const port = await freePort();
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'manage.ts', 'runserver', `127.0.0.1:${port}`, '--noreload'], {
    cwd: ROOT, env, detached: true,
  });
  const output = collect(child);
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(child, `${origin}/features/render/`, output);
  } catch (error) {
    await stopProcessGroup(child);
    throw error;
  }
  return { side: { name: 'demo', origin, token, carolToken, cookies: {}, vars: {} }, child, output };
}

async function stop(server: Server | null): Promise<void> {
  if (server) await stopProcessGroup(server.child);
}

function remember(side: Side, setCookie: string[]): void {
  for (const value of setCookie) {
    const [pair] = value.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const cookieValue = pair.slice(eq + 1).trim();
    if (cookieValue === '' || cookieValue === '""' || /max-age=0\b/i.test(value)) delete side.cookies[name];
    else side.cookies[name] = cookieValue;
  }
}

/** Send one case's request as `side` sees it, and record what came back. */
async function send(agent: Agent, side: Side, testCase: Case): Promise<Observed> {
  const built = testCase.build(side);
  const headers: Record<string, string> = { host: HOST, ...built.headers };
  if (built.useCookies && Object.keys(side.cookies).length) {
    headers.cookie = Object.entries(side.cookies).map(([name, value]) => `${name}=${value}`).join('; ');
  }
  const response = await request(`${side.origin}${built.path}`, {
    method: built.method as 'GET',
    headers,
    body: built.body,
    dispatcher: agent,
  });
  const body = Buffer.from(await response.body.arrayBuffer());
  const responseHeaders: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) responseHeaders[name.toLowerCase()] = value;
  const raw = responseHeaders['set-cookie'];
  const setCookie = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  if (built.useCookies) remember(side, setCookie);
  const observed: Observed = { status: response.statusCode, headers: responseHeaders, setCookie, body };
  testCase.after?.(side, observed);
  return observed;
}

async function main(): Promise<number> {
  const args = new Set(process.argv.slice(2));
  const verbose = args.has('--verbose');
  const showSame = verbose || args.has('--show-same');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'compare-reference-'));
  let reference: Server | null = null;
  let demo: Server | null = null;
  const agent = new Agent({ keepAliveTimeout: 1000 });
  try {
    process.stdout.write(`Reference: ${REFERENCE}\nStarting both servers on fresh SQLite databases...\n`);
    const started = await Promise.allSettled([
      startReference(path.join(tmp, 'reference.sqlite3')),
      startDemo(path.join(tmp, 'demo.sqlite3')),
    ]);
    if (started[0].status === 'fulfilled') reference = started[0].value;
    if (started[1].status === 'fulfilled') demo = started[1].value;
    for (const result of started) if (result.status === 'rejected') throw result.reason;
    if (!reference || !demo) throw new Error('A server did not start.');
    let differing = 0;
    let known = 0;
    for (const testCase of CASES) {
      // Sequential and in the same order on both sides: throttles, ids and sessions depend on it.
      const expected = await send(agent, reference.side, testCase);
      const actual = await send(agent, demo.side, testCase);
      const report = compareResponses(testCase, reference.side, expected, demo.side, actual);
      if (report.differences.length && testCase.known) {
        known += 1;
        process.stdout.write(`KNOWN ${testCase.label}: ${testCase.known}\n${report.differences.map((line) => `     ${line}`).join('\n')}\n`);
      } else if (report.differences.length) {
        differing += 1;
        process.stdout.write(`DIFF ${testCase.label}\n${report.differences.map((line) => `     ${line}`).join('\n')}\n`);
      } else if (showSame) {
        process.stdout.write(`SAME ${testCase.label} -> ${expected.status}\n`);
      }
      if (verbose) process.stdout.write(`${report.details.map((line) => `     ${line}`).join('\n')}\n`);
    }
    process.stdout.write(`\n${CASES.length} requests compared, ${differing} differ, ${known} known differences (see KNOWN lines).\n`);
    return differing === 0 ? 0 : 1;
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    if (reference) process.stderr.write(`--- reference output (tail) ---\n${reference.output().slice(-3000)}\n`);
    if (demo) process.stderr.write(`--- demo output (tail) ---\n${demo.output().slice(-3000)}\n`);
    return 1;
  } finally {
    await agent.close();
    await Promise.all([stop(reference), stop(demo)]);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().then((code) => process.exit(code));
