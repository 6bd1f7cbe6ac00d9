import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../../lib/core/conf';
import { HttpResponse } from '../../lib/core/http';
import {
  clearUrlCaches, getResolver, include, path, rePath, registerConverter, resolve, Resolver404, RoutePattern, URLPattern,
  type ResolverMatch, type UrlConfModule,
} from '../../lib/core/urls';
import { MAX_RESOLVED, memoisedMatch } from '../../lib/core/urls/resolveMemo';

const view = (name: string) => {
  const fn = () => new HttpResponse(name);
  Object.defineProperty(fn, 'name', { value: name });
  return fn;
};

/** A URL conf of the framework's patterns and converters only: memoisable. */
function plainConf(): UrlConfModule {
  return {
    urlpatterns: [
      path('snippets/<int:pk>/', view('snippet'), { name: 'snippet-detail' }),
      path('articles/<slug:slug>/', view('article'), { name: 'article' }),
      rePath('^archive/(?P<year>[0-9]{4})/$', view('archive'), { name: 'archive' }),
      rePath('^positional/([0-9]+)/([a-z]+)/$', view('positional'), { name: 'positional' }),
      path('files/<path:rest>', view('files'), { name: 'files' }),
      path('tokens/<uuid:key>/', view('token'), { name: 'token' }),
      path('defaults/', view('defaults'), { name: 'defaults', kwargs: { flag: true } }),
      path('app/', include({ appName: 'app', urlpatterns: [path('users/<int:pk>/', view('user'), { name: 'user' })] }, { namespace: 'inst' })),
      path('v<int:version>/', include([path('deep/<str:name>/', view('deep'), { name: 'deep' })], { namespace: 'outer' })),
      path('', view('root'), { name: 'root' }),
    ],
  };
}

const PATHS = [
  '/snippets/12/', '/articles/a-b_c/', '/archive/2024/', '/positional/7/abc/', '/files/a/b/c.txt',
  '/tokens/12345678-1234-1234-1234-123456789abc/', '/defaults/', '/app/users/5/', '/v2/deep/x/', '/',
];

function fields(match: ResolverMatch): unknown {
  return {
    func: match.func, args: match.args, kwargs: match.kwargs, urlName: match.urlName, appNames: match.appNames,
    namespaces: match.namespaces, appName: match.appName, namespace: match.namespace, viewName: match.viewName,
    route: match.route, tried: match.tried,
  };
}

const memo = suite('resolve memo');

memo('a memoised resolution answers what walking the URL conf answers, for every row', () => {
  const conf = plainConf();
  for (const pathname of PATHS) {
    const walked = getResolver(conf).resolve(pathname, []);
    assert.ok(walked, pathname);
    const first = resolve(pathname, conf);
    assert.ok(memoisedMatch(getResolver(conf), pathname), `${pathname} is memoised`);
    const second = resolve(pathname, conf);
    assert.equal(fields(first), fields(walked!), `${pathname}: first answer`);
    assert.equal(fields(second), fields(walked!), `${pathname}: memoised answer`);
    assert.is.not(second, first, pathname);
  }
});

memo('every answer has its own args and kwargs', () => {
  const conf = plainConf();
  const first = resolve('/snippets/3/', conf);
  first.kwargs.pk = 99;
  first.kwargs.extra = 'x';
  const second = resolve('/snippets/3/', conf);
  assert.equal(second.kwargs, { pk: 3 });
  second.kwargs.pk = 100;
  assert.equal(resolve('/snippets/3/', conf).kwargs, { pk: 3 });
  const positional = resolve('/positional/1/a/', conf);
  positional.args.push('more');
  assert.equal(resolve('/positional/1/a/', conf).args, ['1', 'a']);
});

memo('a failed resolution is not kept: Resolver404 with what was tried, every time', () => {
  const conf = plainConf();
  for (let i = 0; i < 2; i++) {
    assert.throws(() => resolve('/nothing/', conf), (error: unknown) => error instanceof Resolver404 && error.tried.length > 0);
  }
  assert.is(memoisedMatch(getResolver(conf), '/nothing/'), undefined);
});

memo('a project converter makes the URL conf walked every time', () => {
  let calls = 0;
  class CountingConverter {
    regex = '[0-9]+';
    toPython(value: string): unknown {
      calls += 1;
      return Number(value) + calls * 1000;
    }
    toUrl(value: unknown): string {
      return String(value);
    }
  }
  registerConverter(CountingConverter, 'resolvememocounting');
  const conf: UrlConfModule = {
    urlpatterns: [
      path('plain/', view('plain')),
      path('nested/', include([path('n/<resolvememocounting:pk>/', view('counted'))])),
    ],
  };
  assert.is(resolve('/nested/n/1/', conf).kwargs.pk, 1001);
  assert.is(resolve('/nested/n/1/', conf).kwargs.pk, 2001);
  // Even a path that does not reach the converter: the conf as a whole is not memoised.
  resolve('/plain/', conf);
  assert.is(memoisedMatch(getResolver(conf), '/plain/'), undefined);
});

memo('a project converter registered under a built-in name is not taken for the built-in one', () => {
  class OddInt {
    regex = '[0-9]+';
    toPython(value: string): unknown {
      return Number(value) * 2;
    }
    toUrl(value: unknown): string {
      return String(value);
    }
  }
  // Declared while `int` means OddInt; the built-in `int` is restored right after.
  const builtin = new RoutePattern('<int:x>/', true).converters.x;
  registerConverter(OddInt, 'int');
  let conf: UrlConfModule;
  try {
    conf = { urlpatterns: [path('odd/<int:pk>/', view('odd'))] };
  } finally {
    registerConverter(builtin, 'int');
  }
  assert.is(resolve('/odd/4/', conf).kwargs.pk, 8);
  assert.is(memoisedMatch(getResolver(conf), '/odd/4/'), undefined);
  const plain = plainConf();
  resolve('/snippets/4/', plain);
  assert.ok(memoisedMatch(getResolver(plain), '/snippets/4/'), 'the restored built-in int is memoisable again');
});

memo('a subclassed pattern or URLPattern makes the URL conf walked every time', () => {
  class CountingPattern extends URLPattern {
    calls = 0;
    override resolve(pathname: string): ResolverMatch | null {
      this.calls += 1;
      return super.resolve(pathname);
    }
  }
  const inner = path('counted/', view('counted')) as URLPattern;
  const counting = new CountingPattern(inner.pattern, inner.callback, inner.defaultKwargs, inner.name);
  const conf: UrlConfModule = { urlpatterns: [counting] };
  resolve('/counted/', conf);
  resolve('/counted/', conf);
  assert.is(counting.calls, 2);
  assert.is(memoisedMatch(getResolver(conf), '/counted/'), undefined);
});

memo('the memo is forgotten on a setting change and by clearUrlCaches()', async () => {
  const conf = plainConf();
  resolve('/snippets/1/', conf);
  assert.ok(memoisedMatch(getResolver(conf), '/snippets/1/'));
  await overrideSettings({ APPEND_SLASH: false }, () => undefined);
  assert.is(memoisedMatch(getResolver(conf), '/snippets/1/'), undefined);
  resolve('/snippets/1/', conf);
  assert.ok(memoisedMatch(getResolver(conf), '/snippets/1/'));
  clearUrlCaches();
  assert.is(memoisedMatch(getResolver(conf), '/snippets/1/'), undefined);
});

memo('the memo is bounded: past MAX_RESOLVED paths it starts over', () => {
  const conf = plainConf();
  for (let i = 0; i < MAX_RESOLVED; i++) resolve(`/snippets/${i}/`, conf);
  assert.ok(memoisedMatch(getResolver(conf), '/snippets/0/'));
  resolve(`/snippets/${MAX_RESOLVED}/`, conf);
  assert.is(memoisedMatch(getResolver(conf), '/snippets/0/'), undefined);
  assert.ok(memoisedMatch(getResolver(conf), `/snippets/${MAX_RESOLVED}/`));
});

memo.run();
