/**
 * Read paths without model instances: `QuerySet.readOnlyRows()` answers plain objects with the
 * very values instances hold (every column type, on SQLite and MySQL), selecting only the
 * columns asked for (a dotted path becomes one LEFT JOIN); the list mixin uses them when the
 * serializer reads nothing but columns and identity hyperlinks, and the output is byte for byte
 * the instances' output; anything that may run code against an instance keeps instances.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { useTestDatabase, captureDataQueries } from '../../../lib/core/db/testing';
import { FieldError } from '../../../lib/core/db';
import { ListAPIView } from '../../../lib/generics';
import { HyperlinkedIdentityField } from '../../../lib/relations';
import { ModelSerializer } from '../../../lib/serializers';
import { ReadOnlyField, SerializerMethodField } from '../../../lib/fields';
import { PageNumberPagination } from '../../../lib/pagination';
import { AllowAny } from '../../../lib/permissions';
import { plainReadPaths } from '../../../lib/utils/plainRead';
import { User } from '../../../contrib/auth/models';
import { SArticle, serializerModels } from '../../models/serializers/models';
import { callView, jsonOnlyApiSettings, useSettings } from '../../helpers';

const test = suite('core/db/plain rows');
useTestDatabase(test, { models: serializerModels });

const COLUMNS = ['id', 'title', 'body', 'views', 'ratio', 'price', 'published', 'created', 'day', 'at', 'uid', 'extra', 'contact', 'status', 'owner_id'];

class ArticleSerializer extends ModelSerializer {
  static Meta = { model: SArticle, fields: ['url', ...COLUMNS.filter((c) => c !== 'owner_id'), 'owner'] };
  static fields = {
    url: new HyperlinkedIdentityField({ viewName: 'sarticle-detail' }),
    owner: new ReadOnlyField({ source: 'owner.username' }),
  };
}

class WithMethodSerializer extends ArticleSerializer {
  static override fields = { ...ArticleSerializer.fields, shouted: new SerializerMethodField() };
  static override Meta = { model: SArticle, fields: [...ArticleSerializer.Meta.fields, 'shouted'] };
  getShouted(obj: SArticle): string {
    return obj.shout;
  }
}

class Pages extends PageNumberPagination {
  override pageSize = 2;
}

function listView(serializer: typeof ArticleSerializer, plain: boolean): ReturnType<typeof ListAPIView.asView> {
  class ArticleList extends ListAPIView {
    override queryset = SArticle.objects.orderBy('id');
    override serializerClass = serializer;
    override permissionClasses = [AllowAny];
    override paginationClass = Pages;
    override plainRowsAllowed(): boolean {
      return plain;
    }
  }
  return ArticleList.asView();
}

useSettings(test, () => ({ API_FRAMEWORK: jsonOnlyApiSettings(), TIME_ZONE: 'UTC', USE_TZ: true, ROOT_URLCONF: 'spec.models.serializers.urls' }));

test.before(async () => {
  const ann = await User.objects.create({ username: 'ann', password: '!' });
  await SArticle.objects.create({
    title: 'every type', body: 'b\0dy', views: 7, ratio: 0.25, price: '12.50', published: true, created: new Date('2024-02-29T10:11:12.345Z'),
    day: '2024-02-29', at: '10:11:12', uid: '3b241101-e2bb-4255-8caf-4136c566a962', extra: { a: [1, 'x', null], b: true }, contact: 'a@b.c',
    status: 'live', owner_id: ann.id,
  });
  await SArticle.objects.create({ title: 'nulls', published: false, owner_id: null });
  await SArticle.objects.create({ title: 'third', owner_id: ann.id, extra: [1, 2] });
});

test('values :: every column type equals the instance value; joins give nested rows with pk', async () => {
  const instances = await SArticle.objects.selectRelated('owner').orderBy('id').fetch();
  const rows = await SArticle.objects.orderBy('id').readOnlyRows(COLUMNS.map((c) => [c]).concat([['owner', 'username']])).fetch();
  assert.is(rows.length, instances.length);
  rows.forEach((row, i) => {
    const instance = instances[i];
    assert.not.instance(row, SArticle, 'no model instance');
    for (const column of COLUMNS) assert.equal(row[column as keyof typeof row], instance.get(column), `${column} of row ${i}`);
    assert.is((row as unknown as { pk: unknown }).pk, instance.id);
    const owner = (row as unknown as { owner: { username: string; pk: number } | null }).owner;
    if (instance.owner) {
      assert.is(owner?.username, instance.owner.username);
      assert.is(owner?.pk, instance.owner.id);
    } else {
      assert.is(owner, null);
    }
  });
});

test('columns :: only the columns asked for (and keys) are selected, with one JOIN', async () => {
  const statements = await captureDataQueries(() => SArticle.objects.filter({ title__startswith: 'ev' }).readOnlyRows([['title'], ['owner', 'username']]).fetch());
  assert.is(statements.length, 1);
  const [sql] = statements;
  assert.match(sql, /JOIN/);
  for (const absent of ['`body`', '"body"', '`extra`', '"extra"', 'password']) assert.not.ok(sql.includes(absent), `${absent} in ${sql}`);
  const [row] = await SArticle.objects.filter({ title__startswith: 'ev' }).readOnlyRows([['title'], ['owner', 'username']]).fetch();
  assert.equal(Object.keys(row).sort(), ['id', 'owner', 'owner_id', 'title']);
});

test('paths :: a to-many relation or an unknown name is a FieldError', async () => {
  for (const bad of [['tags', 'name'], ['nope'], ['owner', 'nope']]) {
    try {
      await SArticle.objects.readOnlyRows([bad]).fetch();
      assert.unreachable(bad.join('.'));
    } catch (error) {
      assert.instance(error, FieldError, bad.join('.'));
    }
  }
});

test('serializers :: column-only serializers qualify; a SerializerMethodField keeps instances', () => {
  const plain = plainReadPaths(ArticleSerializer.many([]), SArticle);
  assert.ok(plain);
  assert.equal(plain!.find((p) => p.length === 2), ['owner', 'username']);
  assert.is(plainReadPaths(WithMethodSerializer.many([]), SArticle), null);
});

test('list :: the output from plain rows is byte for byte the instances output, paginated', async () => {
  for (const query of ['', '?page=2']) {
    const fromRows = await callView(listView(ArticleSerializer, true), { url: `/articles/${query}` });
    const fromInstances = await callView(listView(ArticleSerializer, false), { url: `/articles/${query}` });
    assert.is(fromRows.status, 200);
    assert.is(fromRows.text, fromInstances.text, `page ${query}`);
  }
  const withMethod = await callView(listView(WithMethodSerializer, true), { url: '/articles/' });
  assert.match(withMethod.text, '"shouted":"every type!"');
});

test.run();
