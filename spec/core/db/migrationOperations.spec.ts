/**
 * Declarative migrations on the real database (SQLite, or MariaDB with DATABASE_URL): each
 * operation forwards and backwards, the data kept across SQLite table rebuilds, the SQL
 * `sqlmigrate` shows, and round trips that leave the schema identical.
 */
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { QueryTypes } from 'sequelize';
import { useTestDatabase } from '../../../lib/core/db/testing';
import { getSequelize, getVendor } from '../../../lib/core/db';
import { callCommand } from '../../../lib/core/management';
import { useTestApps } from './helpers';
import { booksApp, makeScratchDir, removeScratchDir } from './books/app';
import { schemaSnapshot, type SchemaSnapshot } from './schemaSnapshot';

const test = suite('core/db/migration operations');
let dir = '';
test.before(() => {
  dir = makeScratchDir();
  booksApp.migrationsDir = dir;
  const db = path.relative(dir, path.resolve(__dirname, '../../../lib/core/db')).split(path.sep).join('/');
  const write = (name: string, body: string): void => fs.writeFileSync(path.join(dir, `${name}.ts`), body.replace(/__DB__/g, db));
  write(
    '0001_initial',
    `import { CreateModel, type MigrationDependency } from '__DB__';
export const initial = true;
export const dependencies: MigrationDependency[] = [];
export const operations = [
  new CreateModel({ name: 'BkAuthor', table: 'books_author', fields: [
    ['id', { type: 'AutoField', primaryKey: true }],
    ['name', { type: 'CharField', maxLength: 100 }],
  ] }),
  new CreateModel({ name: 'BkTag', table: 'books_tag', fields: [
    ['id', { type: 'AutoField', primaryKey: true }],
    ['name', { type: 'CharField', maxLength: 50, unique: true }],
  ] }),
  new CreateModel({ name: 'BkBook', table: 'books_book', fields: [
    ['id', { type: 'AutoField', primaryKey: true }],
    ['title', { type: 'CharField', maxLength: 200 }],
    ['author', { type: 'ForeignKey', to: 'books.BkAuthor', onDelete: 'CASCADE' }],
    ['tags', { type: 'ManyToManyField', to: 'books.BkTag', dbTable: 'books_book_tags', columns: ['book_id', 'tag_id'] }],
  ], options: { ordering: ['title'] } }),
];
`,
  );
  write(
    '0002_changes',
    `import { AddField, AlterField, RenameField, AddIndex, AlterUniqueTogether, AlterModelOptions, RunSQL, RunCode, type MigrationDependency } from '__DB__';
export const dependencies: MigrationDependency[] = [['books', '0001_initial']];
export const operations = [
  new AddField({ model: 'BkBook', name: 'isbn', field: { type: 'CharField', maxLength: 13, default: 'n/a' }, preserveDefault: false }),
  new AddField({ model: 'BkBook', name: 'pages', field: { type: 'IntegerField', null: true, dbIndex: true } }),
  new AlterField({ model: 'BkAuthor', name: 'name', field: { type: 'CharField', maxLength: 150, unique: true } }),
  new RenameField({ model: 'BkBook', oldName: 'title', newName: 'headline' }),
  new AddIndex({ model: 'BkBook', index: { name: 'books_book_headline_idx', fields: ['headline'] } }),
  new AlterUniqueTogether({ name: 'BkBook', uniqueTogether: [['headline', 'author']] }),
  new AlterModelOptions({ name: 'BkBook', options: { ordering: ['-headline'], verboseName: 'book' } }),
  new RunSQL({ sql: [{ sql: 'INSERT INTO books_tag (name) VALUES ($1)', params: ["it's new"] }], reverseSql: "DELETE FROM books_tag WHERE name = 'it''s new'" }),
  new RunCode({
    code: async (apps) => {
      const Book = apps.getModel('books', 'BkBook');
      for (const book of await Book.findAll()) await book.update({ pages: String(book.get('headline')).length });
    },
    reverseCode: RunCode.noop,
  }),
];
`,
  );
  write(
    '0003_more',
    `import { RemoveField, RenameField, RenameModel, RemoveIndex, type MigrationDependency } from '__DB__';
export const dependencies: MigrationDependency[] = [['books', '0002_changes']];
export const operations = [
  new RemoveIndex({ model: 'BkBook', name: 'books_book_headline_idx' }),
  new RemoveField({ model: 'BkBook', name: 'pages' }),
  new RenameField({ model: 'BkBook', oldName: 'author', newName: 'writer' }),
  new RenameModel({ oldName: 'BkAuthor', newName: 'BkWriter', table: 'books_writer' }),
];
`,
  );
  write(
    '0004_drop_tags',
    `import { RemoveField, DeleteModel, type MigrationDependency } from '__DB__';
export const dependencies: MigrationDependency[] = [['books', '0003_more']];
export const operations = [
  new RemoveField({ model: 'BkBook', name: 'tags' }),
  new DeleteModel({ name: 'BkTag' }),
];
`,
  );
});
test.after(() => removeScratchDir(dir));
useTestApps(test, ['spec.core.db.books']);
useTestDatabase(test, { migrate: false });

const mysql = (): boolean => getVendor() === 'mysql';
const books = (table: string): boolean => table.startsWith('books_');
const snapshot = (): Promise<SchemaSnapshot> => schemaSnapshot(getSequelize(), books);

async function migrateTo(target: string): Promise<string> {
  const result = await callCommand('migrate', ['books', target]);
  assert.is(result.exitCode, 0, result.stderr);
  return result.stdout;
}

async function select<T extends object>(sql: string): Promise<T[]> {
  return getSequelize().query<T>(sql, { type: QueryTypes.SELECT });
}

const snapshots: Record<string, SchemaSnapshot> = {};

test('CreateModel :: tables, FK index, M2M join table with its unique pair (names as the host framework makes them)', async () => {
  const out = await migrateTo('0001');
  assert.match(out, 'Applying books.0001_initial... OK');
  const schema = await snapshot();
  snapshots['0001'] = schema;
  assert.equal(Object.keys(schema).sort(), ['books_author', 'books_book', 'books_book_tags', 'books_tag']);
  const book = schema.books_book;
  assert.equal(book.columns, mysql()
    ? ['id int(11) NOT NULL PK auto_increment', 'title varchar(200) NOT NULL', 'author_id int(11) NOT NULL']
    : ['id integer NOT NULL PK', 'title varchar(200) NOT NULL', 'author_id integer NOT NULL']);
  assert.is(book.indexes.length, 1);
  assert.match(book.indexes[0], /^books_book_author_id_[0-9a-f]{8} \(author_id\)$/);
  assert.equal(book.foreignKeys, ['author_id -> books_author.id']);
  assert.equal(schema.books_tag.indexes, ['UNIQUE (column unique) (name)']);
  const join = schema.books_book_tags;
  assert.equal(join.foreignKeys, ['book_id -> books_book.id', 'tag_id -> books_tag.id']);
  assert.ok(join.indexes.some((i) => /^UNIQUE books_book_tags_book_id_tag_id_[0-9a-f]{8}_uniq \(book_id, tag_id\)$/.test(i)), join.indexes.join('; '));
  await getSequelize().query("INSERT INTO books_author (name) VALUES ('Ann')");
  await getSequelize().query("INSERT INTO books_book (title, author_id) VALUES ('Dune', 1)");
  await getSequelize().query("INSERT INTO books_tag (name) VALUES ('sf')");
  await getSequelize().query('INSERT INTO books_book_tags (book_id, tag_id) VALUES (1, 1)');
});

test('AddField / AlterField / RenameField / AddIndex / AlterUniqueTogether / RunSQL / RunCode :: forwards keep the rows', async () => {
  await migrateTo('0002');
  const schema = await snapshot();
  snapshots['0002'] = schema;
  const book = schema.books_book;
  const columns = book.columns.map((c) => c.split(' ')[0]);
  assert.equal(columns, ['id', 'headline', 'author_id', 'isbn', 'pages']);
  assert.ok(book.columns.includes(mysql() ? 'isbn varchar(13) NOT NULL' : 'isbn varchar(13) NOT NULL'), book.columns.join('; '));
  assert.ok(book.columns.includes(mysql() ? 'pages int(11) NULL' : 'pages integer NULL'), book.columns.join('; '));
  assert.ok(book.indexes.includes('books_book_headline_idx (headline)'), book.indexes.join('; '));
  assert.ok(book.indexes.some((i) => /^UNIQUE books_book_headline_author_id_[0-9a-f]{8}_uniq \(headline, author_id\)$/.test(i)), book.indexes.join('; '));
  assert.ok(book.indexes.some((i) => /^books_book_pages_[0-9a-f]{8} \(pages\)$/.test(i)), book.indexes.join('; '));
  assert.ok(schema.books_author.columns.includes('name varchar(150) NOT NULL'));
  assert.equal(schema.books_author.indexes, ['UNIQUE (column unique) (name)']);
  // The one-off default filled the existing row, RunCode saw the renamed column, the join row survived the rebuild.
  assert.equal(await select('SELECT headline, isbn, pages, author_id FROM books_book'), [{ headline: 'Dune', isbn: 'n/a', pages: 4, author_id: 1 }]);
  assert.equal(await select('SELECT book_id, tag_id FROM books_book_tags'), [{ book_id: 1, tag_id: 1 }]);
  assert.equal((await select<{ name: string }>('SELECT name FROM books_tag ORDER BY id')).map((r) => r.name), ['sf', "it's new"]);
  // The default was a one-off: the column has none.
  assert.not.ok(book.columns.some((c) => c.includes('DEFAULT')), book.columns.join('; '));
});

test('migrate books 0001 :: every operation backwards; the schema is the 0001 one again, rows kept', async () => {
  const out = await migrateTo('0001');
  assert.match(out, 'Unapplying books.0002_changes... OK');
  assert.equal(await snapshot(), snapshots['0001']);
  assert.equal(await select('SELECT title, author_id FROM books_book'), [{ title: 'Dune', author_id: 1 }]);
  assert.equal((await select<{ name: string }>('SELECT name FROM books_tag')).map((r) => r.name), ['sf']);
});

test('migrate books 0002 again :: identical schema to the first time (round trip)', async () => {
  await migrateTo('0002');
  assert.equal(await snapshot(), snapshots['0002']);
});

test('RemoveIndex / RemoveField / RenameField (a foreign key) / RenameModel :: forwards and backwards', async () => {
  await migrateTo('0003');
  const schema = await snapshot();
  assert.equal(Object.keys(schema).sort(), ['books_book', 'books_book_tags', 'books_tag', 'books_writer']);
  assert.not.ok(schema.books_book.columns.some((c) => c.startsWith('pages ')));
  assert.not.ok(schema.books_book.indexes.includes('books_book_headline_idx (headline)'));
  assert.equal(schema.books_book.foreignKeys, ['writer_id -> books_writer.id']);
  // Indexes named after the renamed column follow it, on both engines.
  const indexes = schema.books_book.indexes.join('; ');
  assert.match(indexes, /UNIQUE books_book_headline_writer_id_[0-9a-f]{8}_uniq \(headline, writer_id\)/);
  assert.match(indexes, /books_book_writer_id_[0-9a-f]{8} \(writer_id\)/);
  assert.not.match(indexes, 'author_id');
  assert.equal(await select('SELECT headline, writer_id FROM books_book'), [{ headline: 'Dune', writer_id: 1 }]);
  assert.ok(schema.books_writer.columns.includes('name varchar(150) NOT NULL'));
  assert.equal(await select('SELECT name FROM books_writer'), [{ name: 'Ann' }]);
  await migrateTo('0002');
  const back = await snapshot();
  // The rows of the dropped column come back as NULL; the schema is the 0002 one.
  assert.equal(back, snapshots['0002']);
  assert.equal(await select('SELECT name FROM books_author'), [{ name: 'Ann' }]);
});

test('DeleteModel / RemoveField (M2M) :: forwards drop the join table and the table, backwards re-create them empty', async () => {
  await migrateTo('0004');
  assert.equal(Object.keys(await snapshot()).sort(), ['books_book', 'books_writer']);
  await migrateTo('0003');
  const schema = await snapshot();
  assert.equal(Object.keys(schema).sort(), ['books_book', 'books_book_tags', 'books_tag', 'books_writer']);
  assert.equal(await select('SELECT id FROM books_tag'), []);
});

test('migrate books zero :: everything unapplied, no table left', async () => {
  await callCommand('migrate', ['books', '0002']);
  const out = await migrateTo('zero');
  assert.match(out, 'Unapplying books.0001_initial... OK');
  assert.equal(Object.keys(await snapshot()), []);
  if (mysql()) assert.match(out, 'MySQL DDL is not transactional');
  else assert.not.match(out, 'not transactional');
});

test('sqlmigrate :: the SQL of each operation, forwards and backwards, values written as literals', async () => {
  const forward = await callCommand('sqlmigrate', ['books', '0002']);
  assert.is(forward.exitCode, 0, forward.stderr);
  const sql = forward.stdout;
  for (const description of [
    'Add field isbn to bkbook',
    'Add field pages to bkbook',
    'Alter field name on bkauthor',
    'Rename field title on bkbook to headline',
    'Create index books_book_headline_idx on field(s) headline of model bkbook',
    'Alter unique_together for bkbook (1 constraint(s))',
    'Change Meta options on bkbook',
    'Raw SQL operation',
    'Raw code operation',
  ]) {
    assert.match(sql, `--\n-- ${description}\n--\n`);
  }
  assert.match(sql, "INSERT INTO books_tag (name) VALUES ('it\\'s new');".replace("\\'", mysql() ? "\\'" : "''"));
  assert.match(sql, '-- (RunCode: a TypeScript function, no SQL to show)');
  if (mysql()) {
    assert.not.match(sql, 'BEGIN;');
    assert.match(sql, 'ALTER TABLE `books_book` ADD COLUMN `isbn` varchar(13) NULL;\nUPDATE `books_book` SET `isbn` = \'n/a\';\nALTER TABLE `books_book` MODIFY `isbn` varchar(13) NOT NULL;');
    assert.match(sql, 'ALTER TABLE `books_author` CHANGE `name` `name` varchar(150) NOT NULL;\nALTER TABLE `books_author` ADD CONSTRAINT `name` UNIQUE (`name`);');
    assert.match(sql, 'ALTER TABLE `books_book` CHANGE `title` `headline` varchar(200) NOT NULL;');
    assert.match(sql, 'CREATE INDEX `books_book_headline_idx` ON `books_book` (`headline`);');
  } else {
    assert.ok(sql.startsWith('BEGIN;\n') && sql.endsWith('COMMIT;\n'));
    assert.match(sql, 'CREATE TABLE "new__books_book" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "title" varchar(200) NOT NULL, "author_id" integer NOT NULL REFERENCES "books_author" ("id") DEFERRABLE INITIALLY DEFERRED, "isbn" varchar(13) NOT NULL);');
    assert.match(sql, 'INSERT INTO "new__books_book" ("id", "title", "author_id", "isbn") SELECT "id", "title", "author_id", \'n/a\' FROM "books_book";');
    assert.match(sql, 'ALTER TABLE "books_book" ADD COLUMN "pages" integer NULL;');
    assert.match(sql, 'CREATE TABLE "new__books_author" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "name" varchar(150) NOT NULL UNIQUE);');
    assert.match(sql, 'CREATE INDEX "books_book_headline_idx" ON "books_book" ("headline");');
  }
  const backward = await callCommand('sqlmigrate', ['books', '0002', '--backwards']);
  assert.is(backward.exitCode, 0, backward.stderr);
  const back = backward.stdout;
  assert.ok(back.indexOf('-- Raw code operation') < back.indexOf('-- Add field isbn to bkbook'), 'operations are reversed');
  assert.match(back, "DELETE FROM books_tag WHERE name = 'it''s new';");
  assert.match(back, mysql() ? 'DROP INDEX `books_book_headline_idx` ON `books_book`;' : 'DROP INDEX "books_book_headline_idx";');
  assert.match(back, mysql() ? 'ALTER TABLE `books_book` CHANGE `headline` `title` varchar(200) NOT NULL;' : 'SELECT "id", "headline", "author_id", "isbn", "pages" FROM "books_book"');
  assert.match(back, mysql() ? 'ALTER TABLE `books_book` DROP COLUMN `isbn`;' : 'INSERT INTO "new__books_book" ("id", "title", "author_id") SELECT "id", "title", "author_id" FROM "books_book";');
});

test('sqlmigrate :: CreateModel / RenameModel / DeleteModel SQL', async () => {
  const initial = (await callCommand('sqlmigrate', ['books', '0001'])).stdout;
  if (mysql()) {
    assert.match(initial, 'CREATE TABLE `books_book` (`id` integer AUTO_INCREMENT NOT NULL PRIMARY KEY, `title` varchar(200) NOT NULL, `author_id` integer NOT NULL)');
    assert.match(initial, /ALTER TABLE `books_book` ADD CONSTRAINT `books_book_author_id_[0-9a-f]{8}_fk_books_author_id` FOREIGN KEY \(`author_id`\) REFERENCES `books_author` \(`id`\);/);
  } else {
    assert.match(initial, 'CREATE TABLE "books_book" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "title" varchar(200) NOT NULL, "author_id" integer NOT NULL REFERENCES "books_author" ("id") DEFERRABLE INITIALLY DEFERRED);');
  }
  assert.match(initial, mysql() ? /CREATE UNIQUE INDEX `books_book_tags_book_id_tag_id_[0-9a-f]{8}_uniq` ON `books_book_tags` \(`book_id`, `tag_id`\);/ : /CREATE UNIQUE INDEX "books_book_tags_book_id_tag_id_[0-9a-f]{8}_uniq" ON "books_book_tags" \("book_id", "tag_id"\);/);
  const rename = (await callCommand('sqlmigrate', ['books', '0003'])).stdout;
  assert.match(rename, mysql() ? 'RENAME TABLE `books_author` TO `books_writer`;' : 'ALTER TABLE "books_author" RENAME TO "books_writer";');
  const drop = (await callCommand('sqlmigrate', ['books', '0004'])).stdout;
  assert.match(drop, mysql() ? 'DROP TABLE `books_book_tags`;\n--\n-- Delete model BkTag\n--\nDROP TABLE `books_tag`;' : 'DROP TABLE "books_book_tags";\n--\n-- Delete model BkTag\n--\nDROP TABLE "books_tag";');
  const unknown = await callCommand('sqlmigrate', ['books', '0009']);
  assert.is(unknown.exitCode, 1);
  assert.is(unknown.stderr, "CommandError: Cannot find a migration matching '0009' from app 'books'.\n");
});

test('showmigrations :: marks the applied ones', async () => {
  await callCommand('migrate', ['books', '0002']);
  assert.is((await callCommand('showmigrations', ['books'])).stdout, 'books\n [X] 0001_initial\n [X] 0002_changes\n [ ] 0003_more\n [ ] 0004_drop_tags\n');
  await callCommand('migrate', ['books', 'zero']);
});

test('a failing migration :: rolled back as a whole on SQLite (foreign keys checked before commit); partly applied on MySQL', async () => {
  assert.is((await callCommand('migrate', ['books', '0004'])).exitCode, 0);
  const db = path.relative(dir, path.resolve(__dirname, '../../../lib/core/db')).split(path.sep).join('/');
  const file = path.join(dir, '0005_broken.ts');
  fs.writeFileSync(
    file,
    `import { AddField, RunSQL, type MigrationDependency } from '${db}';
export const dependencies: MigrationDependency[] = [['books', '0004_drop_tags']];
export const operations = [
  new AddField({ model: 'BkBook', name: 'note', field: { type: 'TextField', null: true } }),
  new RunSQL({ sql: "INSERT INTO books_book (headline, writer_id, isbn) VALUES ('Ghost', 999, '')", reverseSql: [] }),
];
`,
  );
  try {
    const result = await callCommand('migrate', ['books', '0005']);
    assert.is(result.exitCode, 1);
    const columns = (await snapshot()).books_book.columns.map((c) => c.split(' ')[0]);
    const recorded = await select<{ name: string }>("SELECT name FROM django_migrations WHERE app = 'books' AND name = '0005_broken'");
    assert.equal(recorded, []);
    if (mysql()) {
      assert.match(result.stderr, 'while running: INSERT INTO books_book');
      assert.ok(columns.includes('note'), 'MySQL committed the ADD COLUMN before the failure');
    } else {
      assert.match(result.stderr, 'Migration books.0005_broken leaves rows of books_book pointing at missing rows of books_writer.');
      assert.not.ok(columns.includes('note'), 'the whole migration was rolled back');
      assert.equal(await select("SELECT id FROM books_book WHERE headline = 'Ghost'"), []);
    }
  } finally {
    fs.rmSync(file);
  }
});

test.run();
