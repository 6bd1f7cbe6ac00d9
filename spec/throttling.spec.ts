import { spawn, type ChildProcess } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fakeUser } from './helpers';
import { createCache, LocMemCache, type BaseCache } from '../lib/core/cache';
import { ImproperlyConfigured, overrideSettings, PROJECT_ROOT, settings } from '../lib/core/conf';
import { anonymousUser, HttpRequest, type AuthUser } from '../lib/core/http';
import { Request } from '../lib/request';
import { AllowAny } from '../lib/permissions';
import { JSONRenderer } from '../lib/renderers';
import { Response } from '../lib/response';
import { APIRequestFactory } from '../lib/test';
import { APIView } from '../lib/views';
import {
  AnonRateThrottle,
  BaseThrottle,
  ScopedRateThrottle,
  SimpleRateThrottle,
  UserRateThrottle,
} from '../lib/throttling';

const test = suite('throttling');


function makeRequest(options: { user?: AuthUser; remoteAddr?: string; xff?: string } = {}): Request {
  const headers: Record<string, string> = { host: 'testserver' };
  if (options.xff !== undefined) headers['x-forwarded-for'] = options.xff;
  const request = new Request(HttpRequest.create({ url: '/', headers, remoteAddress: options.remoteAddr ?? '10.0.0.1' }));
  request.user = options.user ?? anonymousUser;
  request.auth = null;
  return request;
}

const view = {} as any;

/** A clock and cache shared by the throttles of one test. */
function harness(cache: BaseCache = new LocMemCache()) {
  const clock = { now: 1000 };
  function make<T extends SimpleRateThrottle>(cls: new () => T): T {
    const throttle = new cls();
    throttle.cache = cache;
    throttle.timer = () => clock.now;
    return throttle;
  }
  return { clock, make, cache };
}

function withRates<T>(rates: Record<string, string | null>, fn: () => T): T {
  return overrideSettings({ API_FRAMEWORK: { ...settings.API_FRAMEWORK, DEFAULT_THROTTLE_RATES: rates } }, fn);
}

// -- Rates ---------------------------------------------------------------------------------------

test('rates :: parseRate understands s, m, h, d and words', () => {
  const throttle = new (class extends SimpleRateThrottle {
    override rate = '1/s';
  })();
  assert.equal(throttle.parseRate('100/day'), [100, 86400]);
  assert.equal(throttle.parseRate('5/min'), [5, 60]);
  assert.equal(throttle.parseRate('7/hour'), [7, 3600]);
  assert.equal(throttle.parseRate('3/s'), [3, 1]);
  assert.equal(throttle.parseRate(null), [null, null]);
  assert.throws(() => throttle.parseRate('ten/min'), (e: unknown) => e instanceof ImproperlyConfigured);
  assert.throws(() => throttle.parseRate('10/week'), (e: unknown) => e instanceof ImproperlyConfigured);
  assert.throws(() => throttle.parseRate('10'), (e: unknown) => e instanceof ImproperlyConfigured);
});

test('rates :: a scope without a rate is ImproperlyConfigured', async () => {
  class Missing extends SimpleRateThrottle {
    override scope = 'nope';
  }
  await withRates({ anon: null }, async () => {
    try {
      await new Missing().allowRequest(makeRequest(), view);
      assert.unreachable();
    } catch (error) {
      assert.instance(error, ImproperlyConfigured);
      assert.is((error as Error).message, "No default throttle rate set for 'nope' scope");
    }
  });
});

test('rates :: neither scope nor rate is ImproperlyConfigured', async () => {
  class Nothing extends SimpleRateThrottle {}
  try {
    await new Nothing().allowRequest(makeRequest(), view);
    assert.unreachable();
  } catch (error) {
    assert.instance(error, ImproperlyConfigured);
    assert.is((error as Error).message, "You must set either `.scope` or `.rate` for 'Nothing' throttle");
  }
});

test('rates :: a null rate never throttles', async () => {
  const { make } = harness();
  await withRates({ anon: null }, async () => {
    for (let i = 0; i < 5; i++) assert.ok(await make(AnonRateThrottle).allowRequest(makeRequest(), view));
  });
});

test('base :: allowRequest must be overridden; wait is null', () => {
  assert.throws(() => new BaseThrottle().allowRequest(makeRequest(), view), /must be overridden/);
  assert.is(new BaseThrottle().wait(), null);
});

// -- Anonymous throttle --------------------------------------------------------------------------

test('anon :: the 4th request in a minute is refused, per IP', async () => {
  const { make } = harness();
  await withRates({ anon: '3/min' }, async () => {
    for (let i = 0; i < 3; i++) assert.ok(await make(AnonRateThrottle).allowRequest(makeRequest(), view));
    const fourth = make(AnonRateThrottle);
    assert.not.ok(await fourth.allowRequest(makeRequest(), view));
    assert.is(fourth.wait(), 60);
    // Another client has its own history.
    assert.ok(await make(AnonRateThrottle).allowRequest(makeRequest({ remoteAddr: '10.0.0.2' }), view));
  });
});

test('anon :: authenticated requests are not throttled', async () => {
  const { make } = harness();
  await withRates({ anon: '1/min' }, async () => {
    for (let i = 0; i < 3; i++) assert.ok(await make(AnonRateThrottle).allowRequest(makeRequest({ user: fakeUser(1) }), view));
    assert.is(make(AnonRateThrottle).getCacheKey(makeRequest({ user: fakeUser(1) })), null);
  });
});

test('anon :: the injected timer frees requests as the window passes', async () => {
  const { make, clock } = harness();
  await withRates({ anon: '3/min' }, async () => {
    for (const t of [0, 10, 20]) {
      clock.now = 1000 + t;
      assert.ok(await make(AnonRateThrottle).allowRequest(makeRequest(), view));
    }
    clock.now = 1030;
    const refused = make(AnonRateThrottle);
    assert.not.ok(await refused.allowRequest(makeRequest(), view));
    assert.is(refused.wait(), 30); // the oldest leaves the window at 1060
    clock.now = 1060; // the request at 1000 is exactly a minute old
    assert.ok(await make(AnonRateThrottle).allowRequest(makeRequest(), view));
    clock.now = 1061;
    assert.not.ok(await make(AnonRateThrottle).allowRequest(makeRequest(), view));
  });
});

test('wait :: spreads the remaining window over the requests still available', async () => {
  const { make, clock } = harness();
  await withRates({ anon: '4/min' }, async () => {
    clock.now = 1000;
    const first = make(AnonRateThrottle);
    assert.ok(await first.allowRequest(makeRequest(), view));
    clock.now = 1012;
    const second = make(AnonRateThrottle);
    assert.ok(await second.allowRequest(makeRequest(), view));
    // history [1012, 1000]: (60 - 12) / (4 - 2 + 1)
    assert.is(second.wait(), 16);
  });
});

test('cache :: history key and value follow the original format', async () => {
  const { make, cache } = harness();
  await withRates({ anon: '3/min' }, async () => {
    await make(AnonRateThrottle).allowRequest(makeRequest({ remoteAddr: '10.9.9.9' }), view);
    assert.equal(await cache.get('throttle_anon_10.9.9.9'), [1000]);
  });
});

// -- User throttle -------------------------------------------------------------------------------

test('user :: keyed by user pk when authenticated, by IP otherwise', async () => {
  const { make } = harness();
  await withRates({ user: '2/min' }, async () => {
    const throttle = make(UserRateThrottle);
    assert.is(throttle.getCacheKey(makeRequest({ user: fakeUser(7) })), 'throttle_user_7');
    assert.is(throttle.getCacheKey(makeRequest({ remoteAddr: '10.1.1.1' })), 'throttle_user_10.1.1.1');
    // Same user from two addresses shares one limit.
    assert.ok(await make(UserRateThrottle).allowRequest(makeRequest({ user: fakeUser(7), remoteAddr: '10.0.0.3' }), view));
    assert.ok(await make(UserRateThrottle).allowRequest(makeRequest({ user: fakeUser(7), remoteAddr: '10.0.0.4' }), view));
    assert.not.ok(await make(UserRateThrottle).allowRequest(makeRequest({ user: fakeUser(7), remoteAddr: '10.0.0.5' }), view));
    assert.ok(await make(UserRateThrottle).allowRequest(makeRequest({ user: fakeUser(8) }), view));
  });
});

test('user :: a rate on the class overrides the scope', async () => {
  const { make } = harness();
  class OnePerDay extends UserRateThrottle {
    override rate = '1/day';
  }
  assert.ok(await make(OnePerDay).allowRequest(makeRequest({ user: fakeUser(1) }), view));
  const second = make(OnePerDay);
  assert.not.ok(await second.allowRequest(makeRequest({ user: fakeUser(1) }), view));
  assert.is(second.wait(), 86400);
});

// -- Scoped throttle -----------------------------------------------------------------------------

test('scoped :: views without throttleScope are not throttled', async () => {
  const { make } = harness();
  await withRates({ burst: '1/min' }, async () => {
    for (let i = 0; i < 3; i++) assert.ok(await make(ScopedRateThrottle).allowRequest(makeRequest(), {} as any));
  });
});

test('scoped :: each scope has its own rate and history', async () => {
  const { make } = harness();
  const burst = { throttleScope: 'burst' } as any;
  const sustained = { throttleScope: 'sustained' } as any;
  await withRates({ burst: '1/min', sustained: '2/min' }, async () => {
    assert.ok(await make(ScopedRateThrottle).allowRequest(makeRequest(), burst));
    const refused = make(ScopedRateThrottle);
    assert.not.ok(await refused.allowRequest(makeRequest(), burst));
    assert.is(refused.wait(), 60);
    assert.ok(await make(ScopedRateThrottle).allowRequest(makeRequest(), sustained));
    assert.ok(await make(ScopedRateThrottle).allowRequest(makeRequest(), sustained));
    assert.not.ok(await make(ScopedRateThrottle).allowRequest(makeRequest(), sustained));
    assert.is(make(ScopedRateThrottle).formatCacheKey({ scope: 'burst', ident: 3 }), 'throttle_burst_3');
  });
});

test('scoped :: an unknown scope is ImproperlyConfigured', async () => {
  await withRates({}, async () => {
    try {
      await new ScopedRateThrottle().allowRequest(makeRequest(), { throttleScope: 'ghost' } as any);
      assert.unreachable();
    } catch (error) {
      assert.is((error as Error).message, "No default throttle rate set for 'ghost' scope");
    }
  });
});

// -- Client identification (NUM_PROXIES) ---------------------------------------------------------

const identCases: Array<[number | null, string | undefined, string]> = [
  [null, undefined, '10.0.0.1'],
  [null, '1.1.1.1, 2.2.2.2', '1.1.1.1,2.2.2.2'],
  [null, ' 1.1.1.1 ', '1.1.1.1'],
  [0, '1.1.1.1, 2.2.2.2', '10.0.0.1'],
  [0, undefined, '10.0.0.1'],
  [1, '1.1.1.1, 2.2.2.2', '2.2.2.2'],
  [2, '1.1.1.1, 2.2.2.2', '1.1.1.1'],
  [5, '1.1.1.1, 2.2.2.2', '1.1.1.1'],
  [1, undefined, '10.0.0.1'],
  [1, '3.3.3.3', '3.3.3.3'],
];

for (const [numProxies, xff, expected] of identCases) {
  test(`ident :: NUM_PROXIES=${numProxies} X-Forwarded-For=${JSON.stringify(xff)} -> ${expected}`, () => {
    overrideSettings({ API_FRAMEWORK: { NUM_PROXIES: numProxies } }, () => {
      assert.is(new BaseThrottle().getIdent(makeRequest({ xff })), expected);
    });
  });
}

// -- Concurrency ---------------------------------------------------------------------------------

test('concurrency :: simultaneous requests in one process never exceed the limit', async () => {
  const { make } = harness();
  await withRates({ anon: '5/min' }, async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => make(AnonRateThrottle).allowRequest(makeRequest(), view)));
    assert.is(results.filter(Boolean).length, 5);
  });
});

// -- Through a view -----------------------------------------------------------------------------

function throttledView(...classes: Array<new () => BaseThrottle>) {
  class Limited extends APIView {
    override authenticationClasses = [];
    override permissionClasses = [AllowAny];
    override throttleClasses = classes as any;
    override rendererClasses = [JSONRenderer] as any;

    get() {
      return new Response({ ok: true });
    }
  }
  return Limited.asView();
}

const factory = new APIRequestFactory();

test('view :: the refused request is 429 with Retry-After and the wait in the detail', async () => {
  const { clock, cache } = harness();
  class Limit extends SimpleRateThrottle {
    override rate = '2/min';
    override cache = cache;
    override timer = () => clock.now;
    override getCacheKey(request: Request) {
      return this.formatCacheKey({ scope: 'limit', ident: this.getIdent(request) });
    }
  }
  const view = throttledView(Limit);
  clock.now = 1000;
  assert.is((await view(await factory.get('/'), {})).status, 200);
  clock.now = 1001;
  assert.is((await view(await factory.get('/'), {})).status, 200);
  clock.now = 1010.5;
  const refused = (await view(await factory.get('/'), {})) as any;
  assert.is(refused.status, 429);
  assert.is(refused.getHeader('Retry-After'), '50');
  assert.equal(JSON.parse(JSON.stringify(refused.data)), { detail: 'Request was throttled. Expected available in 50 seconds.' });
  clock.now = 1059;
  const last = (await view(await factory.get('/'), {})) as any;
  assert.is(last.getHeader('Retry-After'), '1');
  assert.equal(JSON.parse(JSON.stringify(last.data)), { detail: 'Request was throttled. Expected available in 1 second.' });
});

test('view :: with several refusing throttles the longest wait is reported', async () => {
  const { clock, cache } = harness();
  function limit(rate: string, scope: string) {
    return class extends SimpleRateThrottle {
      override rate = rate;
      override cache = cache;
      override timer = () => clock.now;
      override getCacheKey() {
        return scope;
      }
    };
  }
  class NoWait extends BaseThrottle {
    override allowRequest() {
      return false;
    }
  }
  const view = throttledView(limit('1/min', 'a'), limit('1/hour', 'b'), NoWait);
  const response = (await view(await factory.get('/'), {})) as any;
  // The first request is refused by NoWait only: no known wait, no Retry-After.
  assert.is(response.status, 429);
  assert.is(response.getHeader('Retry-After'), undefined);
  assert.equal(JSON.parse(JSON.stringify(response.data)), { detail: 'Request was throttled.' });
  const second = (await view(await factory.get('/'), {})) as any;
  assert.is(second.getHeader('Retry-After'), '3600');
  assert.equal(JSON.parse(JSON.stringify(second.data)), { detail: 'Request was throttled. Expected available in 3600 seconds.' });
});

test('view :: ScopedRateThrottle reads the view throttleScope', async () => {
  const { clock, cache } = harness();
  class Scoped extends ScopedRateThrottle {
    override cache = cache;
    override timer = () => clock.now;
  }
  class Burst extends APIView {
    override authenticationClasses = [];
    override throttleClasses = [Scoped];
    override rendererClasses = [JSONRenderer] as any;
    override throttleScope = 'burst';

    get() {
      return new Response({ ok: true });
    }
  }
  const view = Burst.asView();
  await withRates({ burst: '1/min' }, async () => {
    assert.is((await view(await factory.get('/'), {})).status, 200);
    assert.is((await view(await factory.get('/'), {})).status, 429);
  });
});

// -- Redis ---------------------------------------------------------------------------------------

const redisUrl = process.env.CACHE_URL && process.env.CACHE_URL.startsWith('redis') ? process.env.CACHE_URL : null;
const redisCache = redisUrl ? createCache(redisUrl, { keyPrefix: `throttle-spec-${process.pid}` }) : null;

if (!redisCache) {
  console.log('  (throttling: Redis tests skipped; set CACHE_URL=redis://... to run them)');
} else {
  test('redis :: the atomic script keeps the same history and limit', async () => {
    await redisCache.clear();
    const { make, clock } = harness(redisCache);
    await withRates({ anon: '3/min' }, async () => {
      for (const t of [0, 10, 20]) {
        clock.now = 1000 + t;
        assert.ok(await make(AnonRateThrottle).allowRequest(makeRequest({ remoteAddr: '10.7.7.7' }), view));
      }
      clock.now = 1030;
      const refused = make(AnonRateThrottle);
      assert.not.ok(await refused.allowRequest(makeRequest({ remoteAddr: '10.7.7.7' }), view));
      assert.equal(refused.history, [1020, 1010, 1000]);
      assert.is(refused.wait(), 30);
      assert.equal(await redisCache.get('throttle_anon_10.7.7.7'), [1020, 1010, 1000]);
      clock.now = 1060.5;
      assert.ok(await make(AnonRateThrottle).allowRequest(makeRequest({ remoteAddr: '10.7.7.7' }), view));
    });
  });

  test('redis :: concurrent requests share one limit', async () => {
    await redisCache.clear();
    // A second client object: a different connection, as another server process would have.
    const other = createCache(redisUrl!, { keyPrefix: `throttle-spec-${process.pid}` });
    const a = harness(redisCache);
    const b = harness(other);
    await withRates({ anon: '4/min' }, async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).make(AnonRateThrottle).allowRequest(makeRequest(), view)),
      );
      assert.is(results.filter(Boolean).length, 4);
    });
    await other.close();
  });

  test('redis :: two server processes share one limit (the 4th request is 429)', async () => {
    const prefix = `throttle-two-servers-${process.pid}-${Date.now()}`;
    const url = new URL(redisUrl!);
    url.searchParams.set('key_prefix', prefix);
    const servers = await Promise.all([startFixtureServer(url.toString()), startFixtureServer(url.toString())]);
    children.push(...servers.map((s) => s.child));
    const statuses: number[] = [];
    const pids = new Set<number>();
    let last: { status: number; retryAfter: string | null; body: any } | null = null;
    for (let i = 0; i < 4; i++) {
      const server = servers[i % 2];
      const response = await fetch(`http://127.0.0.1:${server.port}/throttled/`);
      const body: any = await response.json();
      statuses.push(response.status);
      if (body.pid) pids.add(body.pid);
      last = { status: response.status, retryAfter: response.headers.get('retry-after'), body };
    }
    assert.equal(statuses, [200, 200, 200, 429]);
    assert.is(pids.size, 2, 'both processes answered');
    assert.is(last!.retryAfter, '60');
    assert.equal(last!.body, { detail: 'Request was throttled. Expected available in 60 seconds.' });
    const cleanup = createCache(url.toString());
    await cleanup.clear();
    await cleanup.close();
  });
}

const children: ChildProcess[] = [];

/** Start spec/fixtures/throttleServer.ts in a child process and wait for its port. */
function startFixtureServer(cacheUrl: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'spec/fixtures/throttleServer.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, CACHE_URL: cacheUrl, THROTTLE_RATE: '3/min', DATABASE_URL: 'sqlite::memory:' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    let errors = '';
    const timer = setTimeout(() => reject(new Error(`fixture server did not start: ${errors}`)), 30000);
    child.stderr!.on('data', (chunk) => (errors += String(chunk)));
    child.stdout!.on('data', (chunk) => {
      output += String(chunk);
      const match = /listening (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]) });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`fixture server exited with ${code}: ${errors}`));
    });
  });
}

test.after(async () => {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
  if (redisCache) {
    await redisCache.clear();
    await redisCache.close();
  }
});

test.run();
