import path from 'node:path';
import { suite } from 'uvu';
import { QueryTypes } from 'sequelize';
import * as assert from 'uvu/assert';
import { ImproperlyConfigured, PROJECT_ROOT, overrideSettings, settings } from '../../../lib/core/conf';
import { parseDatabaseUrl, getSequelize, getVendor, connection, getFieldInfo, flattenChoices, closeConnection, registerModels, unregisterModels } from '../../../lib/core/db';
import { bindGeneration, getConnectionState } from '../../../lib/core/db/connection';
import { useTestDatabase } from '../../../lib/core/db/testing';
import { LibAuthor, LibBook, LibTag } from './library/models';
import { useTestApps } from './helpers';

const test = suite('core/db/connection');
useTestApps(test);
const db = useTestDatabase(test);

test('parseDatabaseUrl :: accepted forms', () => {
  assert.equal(parseDatabaseUrl('sqlite::memory:'), { vendor: 'sqlite', storage: ':memory:' });
  assert.equal(parseDatabaseUrl('sqlite:db.sqlite3'), { vendor: 'sqlite', storage: path.join(PROJECT_ROOT, 'db.sqlite3') });
  assert.equal(parseDatabaseUrl('sqlite:///tmp/x/db.sqlite3'), { vendor: 'sqlite', storage: '/tmp/x/db.sqlite3' });
  assert.equal(parseDatabaseUrl('mysql://app:p%40ss@db.internal:3307/shop'), {
    vendor: 'mysql', host: 'db.internal', port: 3307, user: 'app', password: 'p@ss', database: 'shop',
  });
  assert.equal(parseDatabaseUrl('mariadb://root@127.0.0.1/test'), {
    vendor: 'mysql', host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'test',
  });
});

test('parseDatabaseUrl :: bad values raise ImproperlyConfigured naming DATABASE_URL and the forms', () => {
  for (const bad of ['', 'postgres://u@h/db', 'mysql://host-only', 'sqlite:', 'nonsense', 'mysql://u:secret@/db']) {
    try {
      parseDatabaseUrl(bad);
      assert.unreachable(`accepted ${bad}`);
    } catch (error) {
      assert.instance(error, ImproperlyConfigured, bad);
      const message = (error as Error).message;
      assert.match(message, 'DATABASE_URL');
      assert.match(message, "'sqlite::memory:'");
      assert.match(message, 'mysql://user:password@host:port/database');
      assert.not.match(message, 'secret');
    }
  }
});

test('connection :: follows the DATABASE_URL setting; a bad URL fails on use', async () => {
  assert.is(settings.DATABASE_URL, db.current?.url);
  const original = getSequelize();
  assert.is(connection.vendor, db.current?.vendor);
  assert.throws(() => overrideSettings({ DATABASE_URL: 'oracle://x/y' }, () => getSequelize()), (e: Error) => e instanceof ImproperlyConfigured);
  await overrideSettings({ DATABASE_URL: 'sqlite::memory:' }, async () => {
    assert.is.not(getSequelize(), original);
    await LibTag.sync();
    assert.is(await LibTag.objects.count(), 0);
    await closeConnection('sqlite::memory:');
  });
  assert.is(getSequelize(), original);
  await LibTag.objects.create({ name: 'kept' });
  assert.is(await LibTag.objects.count(), 1);
});

test('connection handler :: one answer until a connection setting or the models change', async () => {
  const state = getConnectionState();
  assert.is(getConnectionState(), state);
  // The vendor follows DATABASE_URL without opening a connection, and comes back with it.
  const vendor = getVendor();
  assert.is(overrideSettings({ DATABASE_URL: 'mysql://nobody@db.invalid:3306/none' }, () => getVendor()), 'mysql');
  assert.is(overrideSettings({ DATABASE_URL: 'sqlite::memory:' }, () => getVendor()), 'sqlite');
  assert.is(getVendor(), vendor);
  // Another URL selects another connection; restored, the same one again.
  const other = overrideSettings({ DATABASE_URL: 'sqlite::memory:' }, () => getConnectionState());
  assert.is.not(other, state);
  await closeConnection('sqlite::memory:');
  assert.is(getConnectionState(), state);
  // An equal setting given anew (a new array) keeps the connection.
  assert.is(overrideSettings({ DATABASE_REPLICA_URLS: [] }, () => getConnectionState()), state);
  // Registering a model already bound binds nothing (the bind generation stays).
  const generation = bindGeneration();
  registerModels([LibAuthor]);
  assert.is(getConnectionState(), state);
  assert.is(bindGeneration(), generation);
  unregisterModels([LibAuthor]);
  assert.is(getSequelize(), state.sequelize);
});

test('datetimes :: stored as Django stores them, read back exactly, compared correctly', async () => {
  const author = await LibAuthor.objects.create({ name: 'Dates' });
  const when = new Date(Date.UTC(2024, 4, 1, 12, 30, 5, 123));
  const book = await LibBook.objects.create({ title: 'dated', author_id: author.id, created: when });
  const [row] = await getSequelize().query('SELECT created FROM library_book WHERE id = ' + Number(book.pk), { type: QueryTypes.SELECT });
  const stored = (row as { created: unknown }).created;
  if (db.current?.vendor === 'sqlite') assert.is(stored, '2024-05-01 12:30:05.123000');
  else assert.is((stored as Date).toISOString(), when.toISOString());
  assert.is((await LibBook.objects.get({ pk: book.pk })).created.toISOString(), when.toISOString());
  assert.is(await LibBook.objects.filter({ created: when }).count(), 1);
  assert.is(await LibBook.objects.filter({ created__gt: new Date(when.getTime() - 1) }).count(), 1);
  assert.is(await LibBook.objects.filter({ created__gt: when }).count(), 0);
  assert.is(await LibBook.objects.filter({ created__lt: '2024-05-01T12:30:06Z' }).count(), 1);
  if (db.current?.vendor === 'sqlite') {
    // A row written by Django (no offset, microseconds) reads back as UTC.
    await getSequelize().query(`UPDATE library_book SET created = '2020-01-02 03:04:05.678901' WHERE id = ${Number(book.pk)}`);
    assert.is((await LibBook.objects.get({ pk: book.pk })).created.toISOString(), '2020-01-02T03:04:05.678Z');
  }
  await author.destroy();
});

test('getFieldInfo :: Django field metadata in declaration order', () => {
  const info = getFieldInfo(LibBook);
  assert.equal(info.fields.map((f) => f.name), ['id', 'title', 'price', 'in_print', 'format', 'created', 'author_id', 'editor_id']);
  assert.is(info.pk.name, 'id');
  const id = info.getField('id');
  assert.is(id?.fieldType, 'AutoField');
  assert.ok(id?.autoIncrement);
  const title = info.getField('title');
  assert.equal([title?.fieldType, title?.maxLength, title?.allowNull, title?.blank, title?.verboseName], ['CharField', 200, false, false, 'title']);
  const price = info.getField('price');
  assert.equal([price?.fieldType, price?.maxDigits, price?.decimalPlaces, price?.allowNull], ['DecimalField', 6, 2, true]);
  const inPrint = info.getField('in_print');
  assert.equal([inPrint?.fieldType, inPrint?.hasDefault, inPrint?.default], ['BooleanField', true, true]);
  const created = info.getField('created');
  assert.equal([created?.fieldType, created?.editable, created?.blank, created?.autoNowAdd, created?.hasDefault], ['DateTimeField', false, true, true, true]);
  const format = info.getField('format');
  assert.equal(flattenChoices(format?.choices ?? []), [['hb', 'Hardback'], ['pb', 'Paperback'], ['eb', 'E-book']]);
  const authorId = info.getField('author_id');
  assert.equal([authorId?.fieldType, authorId?.relation], ['ForeignKey', 'author']);
  const email = getFieldInfo(LibAuthor).getField('email');
  assert.equal([email?.fieldType, email?.blank, email?.maxLength], ['EmailField', true, 254]);
  const name = getFieldInfo(LibAuthor).getField('name');
  assert.equal([name?.helpText, name?.verboseName], ['Full name', 'author name']);
  assert.equal(getFieldInfo(LibTag).getField('name')?.unique, true);
  assert.is(getFieldInfo(LibBook), info, 'cached per class');
});

test('getFieldInfo :: relations, forward and reverse', () => {
  const book = getFieldInfo(LibBook);
  const author = book.getRelation('author');
  assert.equal([author?.kind, author?.foreignKey, author?.target, author?.relatedName, author?.many, author?.allowNull], ['belongsTo', 'author_id', LibAuthor, 'books', false, false]);
  const editor = book.getRelation('editor');
  assert.equal([editor?.allowNull, editor?.blank], [true, true]);
  const tags = book.getRelation('tags');
  assert.equal([tags?.kind, tags?.many, tags?.throughTable, tags?.foreignKey, tags?.otherKey], ['belongsToMany', true, 'library_book_tags', 'book_id', 'tag_id']);
  const books = getFieldInfo(LibAuthor).getRelation('books');
  assert.equal([books?.kind, books?.reverse, books?.target, books?.foreignKey, books?.many], ['hasMany', true, LibBook, 'author_id', true]);
  const reverseTags = getFieldInfo(LibTag).getRelation('libbook');
  assert.equal([reverseTags?.name, reverseTags?.kind, reverseTags?.reverse], ['libbook_set', 'belongsToMany', true]);
});

test('BaseModel :: pk, meta, objects', async () => {
  const tag = LibTag.build({ name: 'x' });
  assert.is(tag.pk, null);
  await tag.save();
  assert.type(tag.pk, 'number');
  assert.is(LibTag.objects, LibTag.objects, 'the manager is cached');
  assert.is.not(LibTag.objects.all(), LibTag.objects.all());
  assert.is(LibBook.meta.appLabel, 'library');
  assert.is(LibTag.objects.model, LibTag);
});

test('SQLite :: column types are read once per connection, and again after a schema change', async () => {
  if (db.current?.vendor !== 'sqlite') return;
  const sequelize = getSequelize();
  const handle = await (sequelize as unknown as { connectionManager: { getConnection(): Promise<NodeJS.EventEmitter> } })
    .connectionManager.getConnection();
  const traced: string[] = [];
  const listener = (sql: string): void => {
    traced.push(sql);
  };
  const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  const pragmas = async (): Promise<string[]> => {
    await settle();
    const found = traced.filter((sql) => sql.startsWith('PRAGMA table_info'));
    traced.length = 0;
    return found;
  };
  handle.on('trace', listener);
  try {
    const author = await LibAuthor.objects.create({ name: 'Types' });
    await LibBook.objects.create({ title: 'Cached', author_id: author.pk, in_print: false });
    const read = async (): Promise<unknown[]> => {
      const [book] = await LibBook.objects.selectRelated('author').filter({ title: 'Cached' }).fetch();
      return [book.in_print, book.created instanceof Date, book.author?.name];
    };
    const first = await read();
    await pragmas();
    // Values are parsed by the cached column types exactly as by fresh ones.
    assert.equal(await read(), first);
    assert.equal(first, [false, true, 'Types']);
    assert.equal(await pragmas(), []);
    await sequelize.query('CREATE TABLE spec_type_probe (id INTEGER)');
    await sequelize.query('DROP TABLE spec_type_probe');
    assert.equal(await read(), first);
    assert.equal((await pragmas()).length, 2);
  } finally {
    handle.removeListener('trace', listener);
  }
});

test.run();
