/**
 * Hyperlinked fields remember the URLs they answered (per request key: scheme and host, kept
 * `?format=`, format suffix; per view name and lookup value), so a hyperlinked list reverses
 * each object's URL once, not once per request. Every list below is compared with the same
 * list through fields whose `reverse` is not the library's (never memoised), on the first
 * request and on the repeated one, for every kind of request; a versioned request, a custom
 * `getUrl()` or a `reverse` replaced on a bound field are never answered from the memo; a new
 * URL conf or `clearUrlCaches()` forgets the memo.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../lib/core/conf';
import { clearUrlCaches, path, type ViewFunction } from '../lib/core/urls';
import { JsonResponse } from '../lib/core/http';
import { useTestDatabase } from '../lib/core/db/testing';
import { ListAPIView, type GenericSerializerClass } from '../lib/generics';
import { HyperlinkedIdentityField, HyperlinkedRelatedField, type ManyRelatedField } from '../lib/relations';
import { AllowAny } from '../lib/permissions';
import { reverse, type ReverseOptions } from '../lib/reverse';
import { HyperlinkedModelSerializer, type SerializerOptions } from '../lib/serializers';
import { NamespaceVersioning } from '../lib/versioning';
import type { Request } from '../lib/request';
import { STag, SArticle, serializerModels } from './models/serializers/models';
import { urlpatterns as linkUrlpatterns } from './models/serializers/linkUrls';
import { callView, jsonOnlyApiSettings, useSettings } from './helpers';

const test = suite('hyperlink memo');
useTestDatabase(test, { models: serializerModels });
useSettings(test, () => ({
  API_FRAMEWORK: jsonOnlyApiSettings(),
  ROOT_URLCONF: 'spec.models.serializers.linkUrls',
  ALLOWED_HOSTS: ['testserver', '.example.com'],
  SECURE_PROXY_SSL_HEADER: ['HTTP_X_FORWARDED_PROTO', 'https'],
}));

/** A field whose `reverse` is not the library's: the general path, never memoised. */
function unmemoised<F extends HyperlinkedRelatedField>(field: F): F {
  field.reverse = (viewname: string, options?: ReverseOptions): string => reverse(viewname, options);
  return field;
}

const FIELDS = ['url', 'title', 'byTitle', 'tags'];

class ArticleLinks extends HyperlinkedModelSerializer {
  static Meta = { model: SArticle, fields: FIELDS };
  static fields = { byTitle: new HyperlinkedIdentityField({ viewName: 'sarticle-by-title', lookupField: 'title' }) };
}

const generalTags = new HyperlinkedRelatedField({ viewName: 'stag-detail', many: true, readOnly: true }) as unknown as ManyRelatedField;
unmemoised(generalTags.childRelation as HyperlinkedRelatedField);

class GeneralArticleLinks extends HyperlinkedModelSerializer {
  static Meta = { model: SArticle, fields: FIELDS };
  static fields = {
    url: unmemoised(new HyperlinkedIdentityField({ viewName: 'sarticle-detail' })),
    byTitle: unmemoised(new HyperlinkedIdentityField({ viewName: 'sarticle-by-title', lookupField: 'title' })),
    tags: generalTags,
  };
}

/** Without the to-many `tags`: listed from plain rows. */
class PlainArticleLinks extends HyperlinkedModelSerializer {
  static Meta = { model: SArticle, fields: ['url', 'title', 'byTitle'] };
  static fields = { byTitle: new HyperlinkedIdentityField({ viewName: 'sarticle-by-title', lookupField: 'title' }) };
}

class GeneralPlainArticleLinks extends HyperlinkedModelSerializer {
  static Meta = { model: SArticle, fields: ['url', 'title', 'byTitle'] };
  static fields = {
    url: unmemoised(new HyperlinkedIdentityField({ viewName: 'sarticle-detail' })),
    byTitle: unmemoised(new HyperlinkedIdentityField({ viewName: 'sarticle-by-title', lookupField: 'title' })),
  };
}

/** The namespace version from an `X-Version` header (a request with a versioning scheme). */
class HeaderNamespaceVersioning extends NamespaceVersioning {
  override determineVersion(request: Request): string | null {
    return request.httpRequest.META.HTTP_X_VERSION ?? null;
  }
}

function listView(serializer: GenericSerializerClass, versioned = false, extraContext: Record<string, unknown> = {}): ViewFunction {
  class ArticleList extends ListAPIView {
    override queryset = SArticle.objects.orderBy('id');
    override serializerClass = serializer;
    override permissionClasses = [AllowAny];
    override versioningClass = versioned ? HeaderNamespaceVersioning : null;
    override getSerializerContext(): Record<string, unknown> {
      return { ...super.getSerializerContext(), ...extraContext };
    }
  }
  return ArticleList.asView();
}

const views = {
  memo: listView(ArticleLinks),
  general: listView(GeneralArticleLinks),
  plain: listView(PlainArticleLinks),
  generalPlain: listView(GeneralPlainArticleLinks),
  versioned: listView(ArticleLinks, true),
  generalVersioned: listView(GeneralArticleLinks, true),
};

type Call = [string, Parameters<typeof callView>[1], Record<string, unknown>?];

/** Requests that change the URLs (host, scheme, kept ?format=, suffix), each twice. */
const REQUESTS: Call[] = [
  ['plain host', { url: '/links/', headers: { host: 'testserver' } }],
  ['other host and port', { url: '/links/', headers: { host: 'api.example.com:8000' } }],
  ['https by proxy header', { url: '/links/', headers: { host: 'testserver', 'x-forwarded-proto': 'https' } }],
  ['?format=json kept', { url: '/links/?format=json', headers: { host: 'testserver' } }],
  ['format suffix', { url: '/links.json', headers: { host: 'testserver' } }, { format: 'json' }],
  ['plain host again', { url: '/links/', headers: { host: 'testserver' } }],
];

async function text(view: ViewFunction, call: Call): Promise<string> {
  const response = await callView(view, call[1], call[2] ?? {});
  assert.is(response.status, 200, `${call[0]}: ${response.text.slice(0, 500)}`);
  return response.text;
}

test.before(async () => {
  const js = await STag.objects.create({ name: 'js' });
  const ts = await STag.objects.create({ name: 'ts' });
  const first = await SArticle.objects.create({ title: 'first' });
  const second = await SArticle.objects.create({ title: 'zweiter Tag & ü?' });
  await SArticle.objects.create({ title: '42' });
  const tags = (SArticle.associations as unknown as Record<string, { set(a: unknown, b: unknown[]): Promise<void> }>).tags;
  await tags.set(first, [js, ts]);
  await tags.set(second, [ts]);
});

test('lists :: memoised URLs equal the general ones, first and repeated, for every kind of request', async () => {
  for (const round of [1, 2]) {
    for (const call of REQUESTS) {
      const label = `${call[0]} (round ${round})`;
      const general = await text(views.general, call);
      assert.is(await text(views.memo, call), general, `${label}: first`);
      assert.is(await text(views.memo, call), general, `${label}: repeated`);
      const generalPlain = await text(views.generalPlain, call);
      assert.is(await text(views.plain, call), generalPlain, `${label}: plain rows, first`);
      assert.is(await text(views.plain, call), generalPlain, `${label}: plain rows, repeated`);
    }
  }
  // A host the settings do not allow fails the same way on both paths.
  const evil = { url: '/links/', headers: { host: 'evil.test' } };
  const [generalEvil, memoEvil] = [await callView(views.general, evil), await callView(views.memo, evil)];
  assert.is(generalEvil.status, 400);
  assert.is(memoEvil.status, generalEvil.status);
  assert.is(memoEvil.text, generalEvil.text);
  const sample = JSON.parse(await text(views.memo, REQUESTS[4])) as Array<Record<string, unknown>>;
  assert.equal(sample[1], {
    url: 'http://testserver/links/articles/2.json/',
    title: 'zweiter Tag & ü?',
    byTitle: 'http://testserver/links/by-title/zweiter%20Tag%20&%20%C3%BC%3F.json/',
    tags: ['http://testserver/links/tags/2.json/'],
  });
});

test('versioning :: a request with a versioning scheme gets its version\'s URLs, never the memo\'s', async () => {
  const calls: Call[] = [
    ['unversioned', { url: '/links/', headers: { host: 'testserver' } }],
    ['v1', { url: '/links/', headers: { host: 'testserver', 'x-version': 'v1' } }],
    ['v2', { url: '/links/', headers: { host: 'testserver', 'x-version': 'v2' } }],
    ['v1 again', { url: '/links/', headers: { host: 'testserver', 'x-version': 'v1' } }],
  ];
  for (const call of calls) {
    const general = await text(views.generalVersioned, call);
    assert.is(await text(views.versioned, call), general, call[0]);
    assert.is(await text(views.versioned, call), general, `${call[0]} repeated`);
  }
  assert.match(await text(views.versioned, calls[2]), '"url":"http://testserver/v2/links/articles/1/"');
});

test('invalidation :: a new ROOT_URLCONF and clearUrlCaches() after an in-place edit forget the memo', async () => {
  const call: Call = ['plain host', { url: '/links/', headers: { host: 'testserver' } }];
  assert.match(await text(views.memo, call), '"url":"http://testserver/links/articles/1/"');
  await overrideSettings({ ROOT_URLCONF: 'spec.models.serializers.urls' }, async () => {
    // That URL conf has articles and tags (no article by title): list without it.
    class Short extends HyperlinkedModelSerializer {
      static Meta = { model: SArticle, fields: ['url', 'tags'] };
    }
    const first = await text(listView(Short), call);
    assert.match(first, '"url":"http://testserver/articles/1/"');
    assert.match(first, '"tags":["http://testserver/tags/1/","http://testserver/tags/2/"]');
    assert.match(await text(views.plain, ['by title', call[1]]).catch((error: unknown) => String(error)), /sarticle-by-title|500/);
  });
  assert.match(await text(views.memo, call), '"url":"http://testserver/links/articles/1/"');
  const index = linkUrlpatterns.findIndex((pattern) => 'name' in pattern && pattern.name === 'sarticle-detail');
  const original = linkUrlpatterns[index];
  linkUrlpatterns[index] = path('moved/articles/<int:pk>/', () => new JsonResponse({}), { name: 'sarticle-detail' });
  clearUrlCaches();
  try {
    assert.match(await text(views.memo, call), '"url":"http://testserver/moved/articles/1/"');
    assert.is(await text(views.memo, call), await text(views.general, call));
  } finally {
    linkUrlpatterns[index] = original;
    clearUrlCaches();
  }
  assert.match(await text(views.memo, call), '"url":"http://testserver/links/articles/1/"');
});

test('own code :: a getUrl() override and a reverse replaced on a bound field run for every object', async () => {
  let numbered = 0;
  class NumberedIdentity extends HyperlinkedIdentityField {
    override getUrl(...args: Parameters<HyperlinkedIdentityField['getUrl']>): string | null {
      return `${super.getUrl(...args)}#${++numbered}`;
    }
  }
  class Numbered extends HyperlinkedModelSerializer {
    static Meta = { model: SArticle, fields: ['url', 'title'] };
    static fields = { url: new NumberedIdentity({ viewName: 'sarticle-detail' }) };
  }
  const call: Call = ['plain host', { url: '/links/', headers: { host: 'testserver' } }];
  assert.match(await text(listView(Numbered), call), '"url":"http://testserver/links/articles/3/#3"');
  assert.match(await text(listView(Numbered), call), '"url":"http://testserver/links/articles/3/#6"');

  let reversed = 0;
  class Spied extends HyperlinkedModelSerializer {
    static Meta = { model: SArticle, fields: ['url', 'title'] };
    constructor(instance?: unknown, options?: SerializerOptions) {
      super(instance, options);
      if (!(this instanceof Spied)) return;
      const url = this.context.spy || this.context.retarget ? this.fields.get('url') as HyperlinkedIdentityField : null;
      if (url && this.context.retarget) Object.assign(url, { viewName: 'sarticle-by-title', lookupField: 'title', lookupUrlKwarg: 'title' });
      if (url && this.context.spy) url.reverse = (viewname: string, opts?: ReverseOptions): string => {
        reversed += 1;
        return reverse(viewname, opts);
      };
    }
  }
  // Untouched serializers of the class first (the class's plan, the memo filled), then ones
  // whose bound field got a reverse of its own.
  for (const round of [1, 2]) {
    assert.match(await text(listView(Spied), call), '"url":"http://testserver/links/articles/1/"');
    assert.is(reversed, 0, `round ${round}: the library's reverse`);
  }
  for (const round of [1, 2]) {
    const before = reversed;
    assert.match(await text(listView(Spied, false, { spy: true }), call), '"url":"http://testserver/links/articles/1/"');
    assert.is(reversed - before, 3, `round ${round}: one reverse per object`);
  }
  // A bound field given other options links by them.
  for (const round of [1, 2]) {
    assert.match(await text(listView(Spied, false, { retarget: true }), call), '"url":"http://testserver/links/by-title/first/"', `round ${round}`);
  }
  assert.match(await text(listView(Spied), call), '"url":"http://testserver/links/articles/1/"');
});

test.run();
