/**
 * Relational fields: hyperlinks (absolute, versioned, errors), slugs, strings, select choices
 * with HTML_SELECT_CUTOFF, and hyperlink input resolution.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { overrideSettings } from '../lib/core/conf';
import { reverse as urlsReverse } from '../lib/core/urls';
import { useTestDatabase } from '../lib/core/db/testing';
import { ImproperlyConfigured } from '../lib/core/exceptions';
import { HyperlinkedIdentityField, HyperlinkedRelatedField, SlugRelatedField, StringRelatedField, PrimaryKeyRelatedField } from '../lib/relations';
import { HyperlinkedModelSerializer } from '../lib/serializers';
import { ValidationError } from '../lib/exceptions';
import { STag, SArticle, serializerModels } from './models/serializers/models';

const URLCONF = 'spec.models.serializers.urls';

/** The parts of an API request that `reverse()` reads. */
function fakeRequest(version: string | null = null): Record<string, unknown> {
  const httpRequest = {
    buildAbsoluteUri: (location: string) => `http://testserver${location}`,
    query: new Map<string, string>(),
  };
  const versioningScheme = version ? {
    reverse: (viewname: string, options: Record<string, unknown>) => {
      return `http://testserver${urlsReverse(`${version}:${viewname}`, { kwargs: options.kwargs as Record<string, unknown> })}`;
    },
    getVersionedViewname: (name: string, v: string) => `${v}:${name}`,
  } : null;
  return { httpRequest, version, versioningScheme };
}

function bound<T extends { bind(name: string, parent: unknown): void }>(field: T, context: Record<string, unknown>): T {
  field.bind('rel', { parent: null, rootContext: context });
  return field;
}

const test = suite('relations');
useTestDatabase(test, { models: serializerModels });
let restore: () => void;

test.before(async () => {
  restore = overrideSettings.enter({ ROOT_URLCONF: URLCONF });
  await STag.objects.create({ name: 'js' });
  await STag.objects.create({ name: 'ts' });
  await STag.objects.create({ name: 'py' });
});

test.after(() => restore());

test('hyperlinks :: absolute URL from the request in context', async () => {
  const tag = await STag.objects.get({ name: 'js' });
  const field = bound(new HyperlinkedRelatedField({ viewName: 'stag-detail', readOnly: true }), { request: fakeRequest() });
  assert.is(field.toRepresentation(tag), `http://testserver/tags/${tag.id}/`);
  const identity = bound(new HyperlinkedIdentityField({ viewName: 'tag-by-name', lookupField: 'name' }), { request: fakeRequest() });
  assert.is(identity.toRepresentation(tag), 'http://testserver/by-name/js/');
});

test('hyperlinks :: versioned URLs under the request version', async () => {
  const tag = await STag.objects.get({ name: 'ts' });
  const field = bound(new HyperlinkedRelatedField({ viewName: 'stag-detail', readOnly: true }), { request: fakeRequest('v2') });
  assert.is(field.toRepresentation(tag), `http://testserver/v2/tags/${tag.id}/`);
});

test('hyperlinks :: the original errors without request or with a bad view name', async () => {
  const tag = await STag.objects.get({ name: 'js' });
  const noRequest = bound(new HyperlinkedIdentityField({ viewName: 'stag-detail' }), {});
  assert.throws(() => noRequest.toRepresentation(tag),
    /`HyperlinkedIdentityField` requires the request in the serializer context. Add `context=\{'request': request\}` when instantiating the serializer./);
  const badName = bound(new HyperlinkedRelatedField({ viewName: 'nope-detail', readOnly: true }), { request: fakeRequest() });
  assert.throws(() => badName.toRepresentation(tag), (error: unknown) => error instanceof ImproperlyConfigured
    && /Could not resolve URL for hyperlinked relationship using view name "nope-detail". You may have failed to include the related model in your API, or incorrectly configured the `lookupField` option on this field./.test(String((error as Error).message)));
});

test('hyperlinks :: input URLs resolve to objects; bad input has the original messages', async () => {
  const tag = await STag.objects.get({ name: 'py' });
  const field = bound(new HyperlinkedRelatedField({ viewName: 'stag-detail', queryset: STag.objects.all() }), { request: fakeRequest() });
  const found = await field.runValidation(`http://testserver/tags/${tag.id}/`) as STag;
  assert.is(found.id, tag.id);
  const fail = async (input: unknown): Promise<string> => {
    try { await field.runValidation(input); } catch (error) { return String((error as ValidationError).detail); }
    return 'valid';
  };
  assert.is(await fail('http://testserver/nowhere/'), 'Invalid hyperlink - No URL match.');
  assert.is(await fail(`/articles/${tag.id}/`), 'Invalid hyperlink - Incorrect URL match.');
  assert.is(await fail('/tags/99999/'), 'Invalid hyperlink - Object does not exist.');
  assert.is(await fail(12), 'Incorrect type. Expected URL string, received int.');
});

test('HyperlinkedModelSerializer :: url field and hyperlinked relations', async () => {
  class ArticleLinks extends HyperlinkedModelSerializer {
    static Meta = { model: SArticle, fields: ['url', 'title', 'tags'] };
  }
  const tag = await STag.objects.get({ name: 'js' });
  const article = await SArticle.objects.create({ title: 'Linked', created: new Date() });
  await (SArticle.associations as unknown as Record<string, { set(a: unknown, b: unknown[]): Promise<void> }>).tags.set(article, [tag]);
  const data = await new ArticleLinks(article, { context: { request: fakeRequest() } }).getData();
  assert.equal(JSON.parse(JSON.stringify(data)), {
    url: `http://testserver/articles/${article.id}/`, title: 'Linked', tags: [`http://testserver/tags/${tag.id}/`],
  });
  const cutoff = await overrideSettings({ API_FRAMEWORK: { URL_FIELD_NAME: 'link' } }, () => {
    class Renamed extends HyperlinkedModelSerializer {
      static Meta = { model: STag, fields: '__all__' as const };
    }
    return [...new Renamed().fields.keys()];
  });
  assert.equal(cutoff, ['link', 'name']);
});

test('slug, string and select choices with HTML_SELECT_CUTOFF', async () => {
  const slug = bound(new SlugRelatedField({ slugField: 'name', queryset: STag.objects.all() }), {});
  assert.is(((await slug.runValidation('ts')) as STag).name, 'ts');
  let message = '';
  try { await slug.runValidation('nope'); } catch (error) { message = String((error as ValidationError).detail); }
  assert.is(message, 'Object with name=nope does not exist.');
  const tag = await STag.objects.get({ name: 'ts' });
  assert.is(slug.toRepresentation(tag), 'ts');
  assert.is(bound(new StringRelatedField(), {}).toRepresentation(tag), '#ts');
  const pk = bound(new PrimaryKeyRelatedField({ queryset: STag.objects.all() }), {});
  await overrideSettings({ API_FRAMEWORK: { HTML_SELECT_CUTOFF: 2, HTML_SELECT_CUTOFF_TEXT: 'More than {count} tags' } }, async () => {
    const options = await pk.iterOptions();
    assert.equal(options.map((o) => (o.kind === 'option' ? o.displayText : o.kind)), ['#js', '#ts', 'More than 2 tags']);
  });
  let nullMessage = '';
  try { await pk.runValidation(''); } catch (error) { nullMessage = String((error as ValidationError).detail); }
  assert.is(nullMessage, 'This field may not be null.');
  assert.throws(() => new PrimaryKeyRelatedField(), /^Relational field must provide a `queryset` option, override `getQueryset\(\)`, or set `readOnly: true`\.$/);
});

test.run();
