/**
 * Cache backends: the same behaviour table runs against the memory cache and, when
 * CACHE_URL names a Redis server, against Redis (with a unique key prefix, cleaned up after).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ImproperlyConfigured, overrideSettings, settings } from '../../lib/core/conf';
import {
  BaseCache,
  CacheKeyMissing,
  LocMemCache,
  RedisCache,
  caches,
  closeCaches,
  createCache,
} from '../../lib/core/cache';
import { reportSkipped } from '../skip';

async function rejects(promise: Promise<unknown>, type: new (...args: any[]) => Error): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    assert.instance(error, type);
    return error as Error;
  }
  assert.unreachable(`expected a ${type.name}`);
  throw new Error('unreachable');
}

const redisUrl = process.env.CACHE_URL && /^rediss?:/.test(process.env.CACHE_URL) ? process.env.CACHE_URL : null;

function behaviour(name: string, make: () => BaseCache): void {
  const s = suite<{ cache: BaseCache }>(`cache ${name}`);
  s.before((ctx) => {
    ctx.cache = make();
  });
  s.after(async (ctx) => {
    await ctx.cache.clear();
    await ctx.cache.close();
  });
  s.before.each(async (ctx) => {
    await ctx.cache.clear();
  });

  s(`${name} :: get/set round trip of JSON values and default`, async ({ cache }) => {
    assert.is(await cache.get('missing'), null);
    assert.is(await cache.get('missing', 'fallback'), 'fallback');
    await cache.set('obj', { a: [1, 'é', null], b: true });
    assert.equal(await cache.get('obj'), { a: [1, 'é', null], b: true });
    await cache.set('obj', 7);
    assert.is(await cache.get('obj'), 7);
    await rejects(cache.set('bad', undefined), TypeError);
  });

  s(`${name} :: values come back as a JSON round trip gives them`, async ({ cache }) => {
    const when = new Date(Date.UTC(2024, 4, 1, 12, 30));
    const values: unknown[] = [
      0, -0, 1.5, 1_700_000_000.123456, Number.NaN, Infinity, '', 'text', true, null,
      [1, undefined, () => 1, Symbol('s'), Number.NEGATIVE_INFINITY, [2, [3]]],
      { a: undefined, b: () => 1, c: when, d: { toJSON: (key: string) => `key=${key}` }, e: [when] },
      [new Number(3), new String('s'), new Boolean(false)],
      { 2: 'two', 1: 'one', z: 'z', ['__proto__']: { own: true } },
      JSON.parse('{"__proto__": {"own": 1}}'),
      Buffer.from('hi'),
      new Map([[1, 2]]),
      when,
      // eslint-disable-next-line no-sparse-arrays
      [1, , 3],
    ];
    for (const [i, value] of values.entries()) {
      await cache.set(`v${i}`, value);
      const expected: unknown = JSON.parse(JSON.stringify(value));
      const got = await cache.get(`v${i}`);
      assert.equal(got, expected, `value ${i}`);
      assert.equal(JSON.stringify(got), JSON.stringify(expected), `value ${i} (key order, own keys)`);
    }
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await rejects(cache.set('cyclic', cyclic), TypeError);
    await rejects(cache.set('big', { n: 10n }), TypeError);
    await rejects(cache.set('fn', () => 1), TypeError);
  });

  s(`${name} :: a value read from the cache may be changed without changing the cache`, async ({ cache }) => {
    await cache.set('history', [3, 2, 1]);
    await cache.set('nested', { list: [{ n: 1 }], map: { a: 'b' } });
    const history = (await cache.get<number[]>('history')) ?? [];
    history.unshift(4);
    const nested = (await cache.get<{ list: Array<{ n: number }>; map: Record<string, string> }>('nested'))!;
    nested.list[0].n = 2;
    nested.map.a = 'changed';
    assert.equal(await cache.get('history'), [3, 2, 1]);
    assert.equal(await cache.get('nested'), { list: [{ n: 1 }], map: { a: 'b' } });
  });

  s(`${name} :: stored values are copies`, async ({ cache }) => {
    const value = { list: [1] };
    await cache.set('copy', value);
    value.list.push(2);
    assert.equal(await cache.get('copy'), { list: [1] });
  });

  s(`${name} :: add only when absent`, async ({ cache }) => {
    assert.ok(await cache.add('k', 1));
    assert.not.ok(await cache.add('k', 2));
    assert.is(await cache.get('k'), 1);
  });

  s(`${name} :: delete and has`, async ({ cache }) => {
    await cache.set('k', 'v');
    assert.ok(await cache.has('k'));
    assert.ok(await cache.delete('k'));
    assert.not.ok(await cache.delete('k'));
    assert.not.ok(await cache.has('k'));
  });

  s(`${name} :: incr/decr on existing keys, error on missing or non-numbers`, async ({ cache }) => {
    await cache.set('n', 5);
    assert.is(await cache.incr('n'), 6);
    assert.is(await cache.incr('n', 10), 16);
    assert.is(await cache.decr('n', 20), -4);
    assert.is(await cache.get('n'), -4);
    const missing = await rejects(cache.incr('nope'), CacheKeyMissing);
    assert.is(missing.message, "Key 'nope' not found");
    assert.not.ok(await cache.has('nope'));
    await cache.set('s', 'text');
    await rejects(cache.incr('s'), TypeError);
  });

  s(`${name} :: timeout 0 stores nothing, null never expires`, async ({ cache }) => {
    await cache.set('gone', 1, 0);
    assert.not.ok(await cache.has('gone'));
    assert.ok(await cache.add('gone', 1, 0), 'add reports the key was absent');
    assert.not.ok(await cache.has('gone'));
    await cache.set('forever', 1, null);
    assert.is(await cache.get('forever'), 1);
  });

  s(`${name} :: keys are versioned and prefixed, Django style`, async ({ cache }) => {
    assert.is(cache.makeKey('k'), `${cache.keyPrefix}:1:k`);
    assert.is(cache.makeKey('k', 3), `${cache.keyPrefix}:3:k`);
  });

  s(`${name} :: getMany, setMany, deleteMany, getOrSet`, async ({ cache }) => {
    await cache.setMany({ a: 1, b: 'two', c: null });
    assert.equal(await cache.getMany(['a', 'b', 'x']), { a: 1, b: 'two' });
    assert.equal(await cache.getMany([]), {});
    await cache.deleteMany(['a', 'b']);
    assert.equal(await cache.getMany(['a', 'b']), {});
    let calls = 0;
    const compute = () => {
      calls += 1;
      return 'computed';
    };
    assert.is(await cache.getOrSet('lazy', compute), 'computed');
    assert.is(await cache.getOrSet('lazy', compute), 'computed');
    assert.is(calls, 1);
  });

  s(`${name} :: touch on present and missing keys`, async ({ cache }) => {
    assert.not.ok(await cache.touch('absent', 10));
    await cache.set('t', 1, 10);
    assert.ok(await cache.touch('t', 100));
    assert.ok(await cache.touch('t', null));
    assert.is(await cache.get('t'), 1);
  });

  s(`${name} :: clear removes everything of this cache`, async ({ cache }) => {
    await cache.setMany({ a: 1, b: 2 });
    await cache.clear();
    assert.equal(await cache.getMany(['a', 'b']), {});
  });

  s.run();
}

behaviour('locmem', () => new LocMemCache());

const mem = suite('cache locmem specifics');

mem('locmem :: expiry follows the injected clock', async () => {
  const cache = new LocMemCache();
  let now = 1_000_000;
  cache.timer = () => now;
  await cache.set('k', 'v', 10);
  await cache.set('default', 'v');
  await cache.set('n', 1, 10);
  now += 9_999;
  assert.is(await cache.get('k'), 'v');
  assert.is(await cache.incr('n'), 2);
  now += 1;
  assert.is(await cache.get('k'), null);
  assert.not.ok(await cache.has('n'), 'incr kept the expiry');
  assert.ok(await cache.add('k', 'again', 10));
  now += 290_000;
  assert.is(await cache.get('default'), null, 'default timeout is 300 seconds');
});

mem('locmem :: touch extends the expiry', async () => {
  const cache = new LocMemCache();
  let now = 0;
  cache.timer = () => now;
  await cache.set('k', 'v', 10);
  await cache.touch('k', 100);
  now += 50_000;
  assert.is(await cache.get('k'), 'v');
});

mem('locmem :: least recently used entries are culled at maxEntries', async () => {
  const cache = new LocMemCache({ maxEntries: 3, cullFrequency: 3 });
  await cache.set('a', 1);
  await cache.set('b', 2);
  await cache.set('c', 3);
  await cache.get('a'); // a is now the most recently used
  await cache.set('d', 4);
  assert.is(cache.size, 3);
  assert.not.ok(await cache.has('b'));
  assert.ok(await cache.has('a'));
  assert.ok(await cache.has('d'));
});

mem('locmem :: version isolates keys', async () => {
  const v1 = new LocMemCache();
  await v1.set('k', 'v');
  assert.is(await v1.get('k'), 'v');
  assert.is(v1.makeKey('k'), ':1:k');
});

mem('createCache :: URLs and options', async () => {
  const local = createCache(null);
  assert.instance(local, LocMemCache);
  const tuned = createCache('locmem://?max_entries=5&timeout=none&key_prefix=p&version=2') as LocMemCache;
  assert.is(tuned.maxEntries, 5);
  assert.is(tuned.defaultTimeout, null);
  assert.is(tuned.makeKey('k'), 'p:2:k');
  const redis = createCache('redis://127.0.0.1:6399/3?key_prefix=x&timeout=60');
  assert.instance(redis, RedisCache);
  assert.is(redis.keyPrefix, 'x');
  assert.is(redis.defaultTimeout, 60);
  assert.is((redis as RedisCache).client.options.db, 3);
  await redis.close();
  assert.throws(() => createCache('memcached://127.0.0.1'), (e: unknown) => e instanceof ImproperlyConfigured);
  assert.throws(() => createCache('not a url'), (e: unknown) => e instanceof ImproperlyConfigured);
  assert.throws(() => createCache('locmem://?max_entries=lots'), /max_entries/);
});

mem('caches.default :: follows CACHE_URL and is rebuilt when it changes', async () => {
  await overrideSettings({ CACHE_URL: null }, async () => {
    const first = caches.default;
    assert.instance(first, LocMemCache);
    assert.is(caches.default, first);
    await first.set('k', 1);
    await overrideSettings({ CACHE_URL: 'locmem://?key_prefix=other' }, async () => {
      assert.is.not(caches.default, first);
      assert.is(caches.default.keyPrefix, 'other');
    });
    assert.is(await caches.default.get('k'), null, 'a new cache after the setting changed back');
  });
  await closeCaches();
  assert.is(caches.default.keyPrefix, createCache(settings.CACHE_URL).keyPrefix);
  await closeCaches();
});

mem.run();

if (redisUrl) {
  const prefix = `spec-cache-${process.pid}-${Date.now()}`;
  behaviour('redis', () => createCache(redisUrl, { keyPrefix: prefix }));

  const red = suite<{ cache: RedisCache; other: RedisCache }>('cache redis specifics');
  red.before((ctx) => {
    ctx.cache = createCache(redisUrl, { keyPrefix: prefix }) as RedisCache;
    ctx.other = createCache(redisUrl, { keyPrefix: `${prefix}-other` }) as RedisCache;
  });
  red.after(async (ctx) => {
    await ctx.cache.clear();
    await ctx.other.clear();
    await ctx.cache.close();
    await ctx.other.close();
  });

  red('redis :: TTLs are set in milliseconds and kept by incr', async ({ cache }) => {
    await cache.set('ttl', 1, 30);
    const pttl = await cache.client.pttl(cache.makeKey('ttl'));
    assert.ok(pttl > 0 && pttl <= 30_000, `pttl ${pttl}`);
    await cache.incr('ttl', 2);
    assert.ok((await cache.client.pttl(cache.makeKey('ttl'))) > 0, 'incr kept the expiry');
    await cache.set('forever', 1, null);
    assert.is(await cache.client.pttl(cache.makeKey('forever')), -1);
    await cache.touch('ttl', null);
    assert.is(await cache.client.pttl(cache.makeKey('ttl')), -1);
  });

  red('redis :: expired keys disappear', async ({ cache }) => {
    await cache.set('short', 1, 0.001);
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.is(await cache.get('short'), null);
  });

  red('redis :: values are visible to another client; clear keeps other prefixes', async ({ cache, other }) => {
    const twin = createCache(redisUrl, { keyPrefix: prefix }) as RedisCache;
    try {
      await cache.set('shared', { x: 1 });
      assert.equal(await twin.get('shared'), { x: 1 });
      await other.set('mine', 1);
      await cache.clear();
      assert.is(await twin.get('shared'), null);
      assert.is(await other.get('mine'), 1);
    } finally {
      await twin.close();
    }
  });

  red('redis :: concurrent add and incr are atomic', async ({ cache }) => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => cache.add('race', i)));
    assert.is(results.filter(Boolean).length, 1);
    await cache.set('counter', 0);
    await Promise.all(Array.from({ length: 50 }, () => cache.incr('counter')));
    assert.is(await cache.get('counter'), 50);
  });

  red.run();
} else {
  reportSkipped('cache :: redis', 'set CACHE_URL=redis://127.0.0.1:6379/0 to run the Redis cache tests');
}
