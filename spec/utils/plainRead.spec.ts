/**
 * `plainReadPaths()` answers once per serializer class and model: serializers whose fields are
 * their class's share the class's answer; one whose fields were changed (a constructor removing
 * or adding fields, `fields.set()` before the list) is inspected on its own, and the list's
 * output follows its fields, from plain rows or instances.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { useTestDatabase } from '../../lib/core/db/testing';
import { ListAPIView } from '../../lib/generics';
import { CharField, ReadOnlyField, SerializerMethodField } from '../../lib/fields';
import { AllowAny } from '../../lib/permissions';
import { ModelSerializer, type SerializerOptions } from '../../lib/serializers';
import { plainReadPaths } from '../../lib/utils/plainRead';
import { User } from '../../contrib/auth/models';
import { SArticle, serializerModels } from '../models/serializers/models';
import { callView, jsonOnlyApiSettings, useSettings } from '../helpers';

const test = suite('utils/plainRead');
useTestDatabase(test, { models: serializerModels });
useSettings(test, () => ({ API_FRAMEWORK: jsonOnlyApiSettings(), TIME_ZONE: 'UTC', USE_TZ: true, ROOT_URLCONF: 'spec.models.serializers.urls' }));

class ArticleSerializer extends ModelSerializer {
  static Meta = { model: SArticle, fields: ['id', 'title', 'views', 'owner'] };
  static fields = { owner: new ReadOnlyField({ source: 'owner.username' }) };
}

/** The original's "dynamic fields" recipe: the constructor drops fields not asked for. */
class DroppingSerializer extends ArticleSerializer {
  constructor(instance?: unknown, options?: SerializerOptions) {
    super(instance, options);
    // With `many: true` the constructor answered the list serializer: its child has run this.
    if (!(this instanceof DroppingSerializer)) return;
    const keep = (this.context.keep as string[] | undefined) ?? null;
    if (keep) for (const name of [...this.fields.keys()]) if (!keep.includes(name)) this.fields.delete(name);
  }
}

/** A constructor adding a field the class does not have (one that needs instances). */
class AddingSerializer extends ArticleSerializer {
  constructor(instance?: unknown, options?: SerializerOptions) {
    super(instance, options);
    if (!(this instanceof AddingSerializer)) return;
    if (this.context.shout) this.fields.set('shouted', new SerializerMethodField());
  }

  getShouted(obj: SArticle): string {
    return obj.shout;
  }
}

function listView(serializer: typeof ArticleSerializer, context: Record<string, unknown>, plain = true): ReturnType<typeof ListAPIView.asView> {
  class ArticleList extends ListAPIView {
    override queryset = SArticle.objects.orderBy('id');
    override serializerClass = serializer;
    override permissionClasses = [AllowAny];
    override getSerializerContext(): Record<string, unknown> {
      return { ...super.getSerializerContext(), ...context };
    }

    override plainRowsAllowed(): boolean {
      return plain;
    }
  }
  return ArticleList.asView();
}

test.before(async () => {
  const ann = await User.objects.create({ username: 'ann', password: '!' });
  await SArticle.objects.create({ title: 'first', views: 3, owner_id: ann.id });
  await SArticle.objects.create({ title: 'second', owner_id: null });
});

test('cache :: serializers with their class fields share the class answer; changed fields are inspected alone', () => {
  const first = plainReadPaths(ArticleSerializer.many([]), SArticle);
  assert.equal(first, [['id'], ['title'], ['views'], ['owner', 'username']]);
  assert.is(plainReadPaths(ArticleSerializer.many([]), SArticle), first, 'the class answer, once computed');
  const rows: Array<[string, unknown, Record<string, unknown>, string[][] | null]> = [
    ['dropping, untouched', DroppingSerializer, {}, [['id'], ['title'], ['views'], ['owner', 'username']]],
    ['dropping owner', DroppingSerializer, { keep: ['id', 'title'] }, [['id'], ['title']]],
    ['dropping, untouched again', DroppingSerializer, {}, [['id'], ['title'], ['views'], ['owner', 'username']]],
    ['adding nothing', AddingSerializer, {}, [['id'], ['title'], ['views'], ['owner', 'username']]],
    ['adding a method field', AddingSerializer, { shout: true }, null],
  ];
  for (const [label, cls, context, expected] of rows) {
    const serializer = (cls as typeof ArticleSerializer).many([], { context });
    assert.equal(plainReadPaths(serializer, SArticle), expected, label);
  }
  // A field set on the instance after construction: no longer the class's fields.
  const changed = ArticleSerializer.many([]) as unknown as { child: ArticleSerializer };
  changed.child.fields.set('title', new CharField({ source: 'body' }));
  assert.equal(plainReadPaths(changed, SArticle), [['id'], ['body'], ['views'], ['owner', 'username']]);
  assert.is(plainReadPaths(ArticleSerializer.many([]), SArticle), first, 'the class answer is unchanged');
});

test('list :: the output follows the instance fields, from plain rows as from instances', async () => {
  const cases: Array<[string, typeof ArticleSerializer, Record<string, unknown>, string]> = [
    ['all fields', DroppingSerializer, {}, '[{"id":1,"title":"first","views":3,"owner":"ann"},{"id":2,"title":"second","views":0}]'],
    ['id and title', DroppingSerializer, { keep: ['id', 'title'] }, '[{"id":1,"title":"first"},{"id":2,"title":"second"}]'],
    ['without the method field', AddingSerializer, {}, '[{"id":1,"title":"first","views":3,"owner":"ann"},{"id":2,"title":"second","views":0}]'],
    ['with a method field', AddingSerializer, { shout: true }, '[{"id":1,"title":"first","views":3,"owner":"ann","shouted":"first!"},{"id":2,"title":"second","views":0,"shouted":"second!"}]'],
    ['all fields again', DroppingSerializer, {}, '[{"id":1,"title":"first","views":3,"owner":"ann"},{"id":2,"title":"second","views":0}]'],
  ];
  for (const [label, cls, context, expected] of cases) {
    const fromRows = await callView(listView(cls, context, true), { url: '/articles/' });
    const fromInstances = await callView(listView(cls, context, false), { url: '/articles/' });
    assert.is(fromRows.status, 200, `${label}: ${fromRows.text.slice(0, 3000)}`);
    assert.is(fromRows.text, expected, `${label} (plain rows)`);
    assert.is(fromInstances.text, expected, `${label} (instances)`);
  }
});

test.run();
