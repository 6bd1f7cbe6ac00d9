/**
 * Outages, against a real server (`runServer()`) whose database and cache are a MariaDB and a
 * Redis of the suite's own (spec/resilience/services.ts: free ports, temporary data folders;
 * the shared 3306/6379 servers are never touched):
 * - a frozen (SIGSTOP) database answers 503 `{"detail": ...}` + Retry-After within
 *   DATABASE_QUERY_TIMEOUT instead of holding requests, a stopped one at once; logged once per
 *   outage, its end logged too; requests succeed again once it is back;
 * - a frozen or stopped Redis: views reading the cache answer 503; throttles fail open by
 *   default (the request is served, the outage logged once) and answer 503 with
 *   THROTTLE_FAIL_OPEN off.
 * Skipped with a note when mariadbd/mariadb-install-db or redis-server are missing, and in
 * CI's MariaDB and Redis passes (`SKIP_LONG_RESILIENCE_TESTS=1`): it does not depend on them.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'undici';
import { closeCaches, caches } from '../../lib/core/cache';
import { overrideSettings } from '../../lib/core/conf';
import { closeConnection, getSequelize } from '../../lib/core/db';
import { resetOutages } from '../../lib/core/outage';
import { runServer, type RunningServer } from '../../lib/core/server';
import { clearUrlCaches, path } from '../../lib/core/urls';
import { Response } from '../../lib/response';
import { AnonRateThrottle } from '../../lib/throttling';
import { APIView } from '../../lib/views';
import { reportSkipped } from '../skip';
import { available, startMariaDb, startRedis, type PrivateService } from './services';

class DatabaseView extends APIView {
  override throttleClasses = [];

  async get(): Promise<Response> {
    const [rows] = await getSequelize().query('SELECT 1 AS one');
    return new Response({ rows });
  }
}

class CacheView extends APIView {
  override throttleClasses = [];

  async get(): Promise<Response> {
    return new Response({ value: await caches.default.get('resilience-key', 'missing') });
  }
}

class GenerousThrottle extends AnonRateThrottle {
  override rate: string | null = '1000/min';
}

class ThrottledView extends APIView {
  override throttleClasses = [GenerousThrottle];

  get(): Response {
    return new Response({ ok: true });
  }
}

export const urlpatterns = [
  path('db/', DatabaseView.asView()),
  path('cache/', CacheView.asView()),
  path('throttled/', ThrottledView.asView()),
];

const SERVICE_UNAVAILABLE = '{"detail":"Service temporarily unavailable, try again later."}';

interface Context {
  mariadb: PrivateService;
  redis: PrivateService;
  running: RunningServer;
  restore: () => void;
  log: string;
  restoreStderr: () => void;
}

const test = suite<Context>('resilience: database and cache outages');

const found = available();
const skipReason = process.env.SKIP_LONG_RESILIENCE_TESTS === '1'
  ? 'SKIP_LONG_RESILIENCE_TESTS=1'
  : !found.mariadb ? 'mariadbd/mariadb-install-db not installed' : !found.redis ? 'redis-server not installed' : null;

async function get(ctx: Context, url: string): Promise<{ status: number; text: string; retryAfter: string | undefined; ms: number }> {
  const started = Date.now();
  const response = await request(`${ctx.running.url}${url}`, { headers: { accept: 'application/json' } });
  const text = await response.body.text();
  return { status: response.statusCode, text, retryAfter: response.headers['retry-after'] as string | undefined, ms: Date.now() - started };
}

/** GET `url` until it answers 200 (a loaded machine may need a moment after a resume); the last answer. */
async function eventually200(ctx: Context, url: string): Promise<{ status: number; text: string }> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const answer = await get(ctx, url);
    if (answer.status === 200 || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function count(text: string, pattern: RegExp): number {
  return text.match(new RegExp(pattern.source, 'gm'))?.length ?? 0;
}

if (skipReason) {
  reportSkipped('resilience: database and cache outages', `${skipReason}, the outage tests did not run.`);
} else {
  test.before(async (ctx) => {
    [ctx.mariadb, ctx.redis] = await Promise.all([startMariaDb(), startRedis()]);
    ctx.restore = overrideSettings.enter({
      ROOT_URLCONF: 'spec/resilience/outage.spec',
      MIDDLEWARE: [],
      ALLOWED_HOSTS: ['*'],
      DATABASE_URL: ctx.mariadb.url,
      CACHE_URL: ctx.redis.url,
      DATABASE_CONNECT_TIMEOUT: 2,
      DATABASE_QUERY_TIMEOUT: 1.5,
      CACHE_CONNECT_TIMEOUT: 0.5,
      CACHE_COMMAND_TIMEOUT: 0.5,
      SERVICE_UNAVAILABLE_RETRY_AFTER: 7,
      ACCESS_LOG: false,
      LOG_SERVER_ERRORS: true,
    });
    clearUrlCaches();
    resetOutages();
    ctx.running = await runServer({ host: '127.0.0.1', port: 0 });
    ctx.log = '';
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => {
      ctx.log += chunk.toString();
      return true;
    }) as typeof process.stderr.write;
    ctx.restoreStderr = () => { process.stderr.write = original; };
    // A fresh server may refuse its first connections for a moment: wait until both answer.
    const deadline = Date.now() + 30_000;
    while ((await get(ctx, '/db/')).status !== 200 || (await get(ctx, '/cache/')).status !== 200) {
      if (Date.now() > deadline) throw new Error(`the private services did not answer:\n${ctx.log}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    resetOutages();
    ctx.log = '';
  });

  test.after(async (ctx) => {
    ctx.restoreStderr?.();
    await ctx.running?.close();
    await closeCaches();
    if (ctx.mariadb) await closeConnection(ctx.mariadb.url).catch(() => undefined);
    ctx.restore?.();
    clearUrlCaches();
    resetOutages();
    await Promise.all([ctx.mariadb?.stop(), ctx.redis?.stop()]);
  });

  test('database frozen :: 503 + Retry-After within the query timeout, logged once; back -> 200, recovery logged', async (ctx) => {
    const up = await eventually200(ctx, '/db/');
    assert.is(up.status, 200, up.text);
    resetOutages();
    ctx.log = '';
    assert.is(up.text, '{"rows":[{"one":1}]}');
    await ctx.mariadb.freeze();
    try {
      const answers = await Promise.all([1, 2, 3, 4].map(() => get(ctx, '/db/')));
      answers.push(await get(ctx, '/db/'));
      for (const answer of answers) {
        assert.is(answer.status, 503, JSON.stringify(answers));
        assert.is(answer.text, SERVICE_UNAVAILABLE);
        assert.is(answer.retryAfter, '7');
        assert.ok(answer.ms < 6000, `answered after ${answer.ms} ms (DATABASE_QUERY_TIMEOUT is 1.5 s)`);
      }
    } finally {
      ctx.mariadb.resume();
    }
    const back = await eventually200(ctx, '/db/');
    assert.is(back.status, 200, back.text);
    assert.is(count(ctx.log, /^Database unavailable: /), 1, ctx.log);
    assert.match(ctx.log, /^Database unavailable: SequelizeDatabaseError: Query timed out after 1.5 s \(DATABASE_QUERY_TIMEOUT\)\. Requests that need it answer 503 until it recovers\.$/m);
    assert.is(count(ctx.log, /^Database available again after [\d.]+ s \(\d+ failures\)\.$/), 1, ctx.log);
    assert.not.match(ctx.log, /Internal Server Error/);
  });

  test('cache frozen :: the cache view answers 503, the throttle fails open (THROTTLE_FAIL_OPEN) or 503 when off', async (ctx) => {
    assert.is((await eventually200(ctx, '/cache/')).text, '{"value":"missing"}');
    assert.is((await get(ctx, '/throttled/')).status, 200);
    resetOutages();
    ctx.log = '';
    await ctx.redis.freeze();
    try {
      const cached = await get(ctx, '/cache/');
      assert.is(cached.status, 503);
      assert.is(cached.text, SERVICE_UNAVAILABLE);
      assert.is(cached.retryAfter, '7');
      assert.ok(cached.ms < 5000, `answered after ${cached.ms} ms`);
      for (let i = 0; i < 3; i += 1) {
        const open = await get(ctx, '/throttled/');
        assert.is(open.status, 200, 'the throttle lets the request through');
        assert.is(open.text, '{"ok":true}');
      }
      await overrideSettings({ API_FRAMEWORK: { THROTTLE_FAIL_OPEN: false } }, async () => {
        const closed = await get(ctx, '/throttled/');
        assert.is(closed.status, 503);
        assert.is(closed.text, SERVICE_UNAVAILABLE);
      });
    } finally {
      ctx.redis.resume();
    }
    assert.is((await eventually200(ctx, '/cache/')).status, 200);
    assert.is(count(ctx.log, /^Cache unavailable: /), 1, ctx.log);
    assert.match(ctx.log, /^Cache unavailable: Error: Command timed out\./m);
    assert.is(count(ctx.log, /^Cache available again after /), 1, ctx.log);
  });

  test('stopped for good :: a killed database or cache answers 503 at once, not a 500', async (ctx) => {
    resetOutages();
    ctx.log = '';
    await ctx.redis.stop();
    const cached = await get(ctx, '/cache/');
    assert.is(cached.status, 503, cached.text);
    assert.is(cached.text, SERVICE_UNAVAILABLE);
    assert.is((await get(ctx, '/throttled/')).status, 200);
    await ctx.mariadb.stop();
    const answers = [await get(ctx, '/db/'), await get(ctx, '/db/')];
    for (const answer of answers) {
      assert.is(answer.status, 503, answer.text);
      assert.is(answer.text, SERVICE_UNAVAILABLE);
      assert.ok(answer.ms < 5000, `answered after ${answer.ms} ms`);
    }
    assert.is(count(ctx.log, /^Database unavailable: /), 1, ctx.log);
    assert.is(count(ctx.log, /^Cache unavailable: /), 1, ctx.log);
    assert.not.match(ctx.log, /Internal Server Error/);
  });
  test.run();
}
