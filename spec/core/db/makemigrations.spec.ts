/**
 * `makemigrations` end to end on the test app `books`: the first migration written from the
 * models, `--check` / `--dry-run` / `--empty` / `--name` / `--merge`, the question for a new
 * NOT NULL field, a field the migrations cannot express, then `migrate` on the result.
 */
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Table, Column, DataType } from 'sequelize-typescript';
import { useTestDatabase } from '../../../lib/core/db/testing';
import { BaseModel, field, getSequelize, type ModelMeta } from '../../../lib/core/db';
import { callCommand } from '../../../lib/core/management';
import { ModelStateBuilder, UnsupportedFieldError } from '../../../lib/core/db/migrations/modelState';
import { useTestApps } from './helpers';
import { booksApp, makeScratchDir, removeScratchDir } from './books/app';
import { reviewsApp } from './reviews/app';
import { overrideSettings } from '../../../lib/core/conf';
import { apps } from '../../../lib/core/apps';
import { schemaSnapshot } from './schemaSnapshot';

const test = suite('core/db/makemigrations');
let dir = '';
test.before(() => {
  dir = makeScratchDir();
  booksApp.migrationsDir = dir;
});
test.after(() => removeScratchDir(dir));
useTestApps(test, ['spec.core.db.books']);
useTestDatabase(test, { migrate: false });

const files = (): string[] => fs.readdirSync(dir).filter((f) => f.endsWith('.ts')).sort();
const read = (name: string): string => fs.readFileSync(path.join(dir, name), 'utf8');
/** Source with line wrapping undone (the writer wraps long literals), for substring checks. */
const flat = (source: string): string =>
  source
    .replace(/,\s*([\]}])/g, ' $1')
    .replace(/\s+/g, ' ')
    .replace(/\[ /g, '[')
    .replace(/ \]/g, ']');
/** Rewrite a migration file (as a developer would), keeping it readable by the loader. */
function edit(name: string, change: (source: string) => string): void {
  const file = path.join(dir, name);
  const source = read(name);
  const next = change(source);
  assert.is.not(next, source, `edit of ${name} changed nothing`);
  fs.writeFileSync(file, next);
  const later = new Date(Date.now() + 2000);
  fs.utimesSync(file, later, later);
}

test('--check :: exit 1 and the plan when the models have no migration; nothing written', async () => {
  const result = await callCommand('makemigrations', ['--check', '--noinput']);
  assert.is(result.exitCode, 1, result.stderr);
  assert.match(result.stdout, "Migrations for 'books':\n");
  assert.match(result.stdout, '0001_initial.ts\n    - Create model BkAuthor\n    - Create model BkTag\n    - Create model BkBook\n');
  assert.equal(files(), []);
});

test('--dry-run :: prints the file, writes nothing', async () => {
  const result = await callCommand('makemigrations', ['books', '--dry-run', '--noinput']);
  assert.is(result.exitCode, 0, result.stderr);
  assert.match(result.stdout, 'export const initial = true;');
  assert.match(result.stdout, 'new CreateModel({');
  assert.equal(files(), []);
});

test('makemigrations :: writes 0001_initial.ts, readable and stable', async () => {
  const result = await callCommand('makemigrations', ['books', '--noinput']);
  assert.is(result.exitCode, 0, result.stderr);
  assert.equal(files(), ['0001_initial.ts']);
  const source = read('0001_initial.ts');
  assert.match(source, "import { CreateModel, type MigrationDependency } from '../../../../../lib/core/db';");
  assert.match(source, 'export const dependencies: MigrationDependency[] = [];');
  assert.match(source, "      ['title', { type: 'CharField', maxLength: 200 }],\n");
  assert.match(source, "      ['isbn', { type: 'CharField', maxLength: 13, blank: true, default: '' }],\n");
  assert.match(source, "      ['pages', { type: 'IntegerField', null: true, dbIndex: true }],\n");
  assert.match(source, "      ['price', { type: 'DecimalField', maxDigits: 6, decimalPlaces: 2, null: true }],\n");
  assert.match(flat(source), "['format', { type: 'CharField', maxLength: 10, default: 'soft', choices: [['hard', 'Hardcover'], ['soft', 'Paperback']] }]");
  assert.match(source, "      ['created', { type: 'DateTimeField', autoNowAdd: true }],\n");
  assert.match(flat(source), "['author', { type: 'ForeignKey', to: 'books.BkAuthor', onDelete: 'CASCADE', relatedName: 'books' }]");
  assert.match(flat(source), "['tags', { type: 'ManyToManyField', to: 'books.BkTag', dbTable: 'books_book_tags', columns: ['book_id', 'tag_id'] }]");
  assert.match(source, "uniqueTogether: [['title', 'author']]");
  assert.match(source, "indexes: [{ name: 'books_book_title_idx', fields: ['title'] }]");
  // Same models, same bytes.
  const again = await callCommand('makemigrations', ['books', '--dry-run', '--noinput']);
  assert.match(again.stdout, 'No changes detected');
  fs.renameSync(path.join(dir, '0001_initial.ts'), path.join(dir, 'saved.txt'));
  const dry = await callCommand('makemigrations', ['books', '--dry-run', '--noinput']);
  assert.ok(dry.stdout.includes(source), 'the dry run prints the same file');
  fs.renameSync(path.join(dir, 'saved.txt'), path.join(dir, '0001_initial.ts'));
});

test('--check :: exit 0 once the migration exists; migrate builds the tables', async () => {
  const check = await callCommand('makemigrations', ['--check', '--noinput']);
  assert.is(check.exitCode, 0, check.stderr);
  assert.is(check.stdout, 'No changes detected\n');
  const migrate = await callCommand('migrate');
  assert.is(migrate.exitCode, 0, migrate.stderr);
  const schema = await schemaSnapshot(getSequelize(), (t) => t.startsWith('books_'));
  assert.equal(Object.keys(schema).sort(), ['books_author', 'books_book', 'books_book_tags', 'books_tag']);
  assert.ok(schema.books_book.indexes.includes('books_book_title_idx (title)'));
  await getSequelize().query("INSERT INTO books_author (name) VALUES ('Ann')");
});

test('field added to the model :: 0002 with AddField, depending on 0001; migrate applies it', async () => {
  // The history lacks `isbn` (as if the model gained it after 0001).
  edit('0001_initial.ts', (s) => s.replace("      ['isbn', { type: 'CharField', maxLength: 13, blank: true, default: '' }],\n", ''));
  await callCommand('migrate', ['books', 'zero']);
  await callCommand('migrate');
  const result = await callCommand('makemigrations', ['--noinput']);
  assert.is(result.exitCode, 0, result.stderr);
  assert.match(result.stdout, '0002_bkbook_isbn.ts\n    - Add field isbn to bkbook\n');
  const source = read('0002_bkbook_isbn.ts');
  assert.match(source, "export const dependencies: MigrationDependency[] = [\n  ['books', '0001_initial'],\n];");
  assert.match(flat(source), "new AddField({ model: 'BkBook', name: 'isbn', field: { type: 'CharField', maxLength: 13, blank: true, default: '' } })");
  const migrate = await callCommand('migrate');
  assert.match(migrate.stdout, 'Applying books.0002_bkbook_isbn... OK');
  assert.is((await callCommand('makemigrations', ['--check', '--noinput'])).exitCode, 0);
});

test('NOT NULL field without default :: --noinput exits 3 writing nothing; interactive asks for a one-off value', async () => {
  await callCommand('migrate', ['books', 'zero']);
  edit('0001_initial.ts', (s) => s.replace("      ['title', { type: 'CharField', maxLength: 200 }],\n", ''));
  edit('0001_initial.ts', (s) => s.replace("uniqueTogether: [['title', 'author']]", 'uniqueTogether: []').replace("indexes: [{ name: 'books_book_title_idx', fields: ['title'] }]", 'indexes: []'));
  assert.is((await callCommand('migrate')).exitCode, 0);
  const before = files();
  const refused = await callCommand('makemigrations', ['--noinput']);
  assert.is(refused.exitCode, 3);
  assert.match(refused.stderr, "It is impossible to add a non-nullable field 'title' to bkbook without specifying a default.");
  assert.equal(files(), before);
  const asked = await callCommand('makemigrations', ['books', '--name', 'title'], { stdin: "3\n1\n'Untitled'\n" });
  assert.is(asked.exitCode, 0, asked.stderr);
  assert.match(asked.stdout, 'Select an option: Please select a valid option.\nSelect an option: ');
  assert.match(asked.stdout, '0003_title.ts\n    - Add field title to bkbook\n');
  const source = read('0003_title.ts');
  assert.match(flat(source), "new AddField({ model: 'BkBook', name: 'title', field: { type: 'CharField', maxLength: 200, default: 'Untitled' }, preserveDefault: false })");
  assert.match(source, 'new AlterUniqueTogether({');
  assert.match(source, 'new AddIndex({');
});

test('--empty --name :: an empty migration after the latest one', async () => {
  const result = await callCommand('makemigrations', ['books', '--empty', '--name', 'data_fix']);
  assert.is(result.exitCode, 0, result.stderr);
  const source = read('0004_data_fix.ts');
  assert.match(source, "['books', '0003_title'],");
  assert.match(source, 'export const operations = [];');
  const noLabel = await callCommand('makemigrations', ['--empty']);
  assert.is(noLabel.stderr, 'CommandError: You must supply at least one app label when using --empty.\n');
  const badName = await callCommand('makemigrations', ['books', '--empty', '--name', 'no way']);
  assert.match(badName.stderr, 'The migration name must be a valid identifier');
});

test('--merge :: two leaves are a conflict; --merge writes the merge migration', async () => {
  for (const name of ['0005_left', '0005_right']) {
    fs.writeFileSync(
      path.join(dir, `${name}.ts`),
      "import type { MigrationDependency } from '../../../../../lib/core/db';\nexport const dependencies: MigrationDependency[] = [['books', '0004_data_fix']];\nexport const operations = [];\n",
    );
  }
  const conflict = await callCommand('makemigrations', ['--noinput']);
  assert.is(conflict.exitCode, 1);
  assert.match(conflict.stderr, 'Conflicting migrations detected; multiple leaf nodes in the migration graph: (0005_left, 0005_right in books).');
  const merged = await callCommand('makemigrations', ['--merge', '--noinput']);
  assert.is(merged.exitCode, 0, merged.stderr);
  assert.match(merged.stdout, 'Merging books\n  Branch 0005_left\n  Branch 0005_right\n');
  const source = read('0006_merge_0005_left_0005_right.ts');
  assert.match(source, "  ['books', '0005_left'],\n  ['books', '0005_right'],\n");
  assert.is((await callCommand('makemigrations', ['--merge', '--noinput'])).stdout, 'No conflicts detected to merge.\n');
  const migrate = await callCommand('migrate');
  assert.is(migrate.exitCode, 0, migrate.stderr);
  assert.match(migrate.stdout, 'Applying books.0006_merge_0005_left_0005_right... OK');
  assert.is((await callCommand('makemigrations', ['--check', '--noinput'])).exitCode, 0);
});

test('rename :: a field renamed in the model is asked about; yes writes RenameField', async () => {
  // The history (0002) calls the field `code`, the model `isbn`.
  const zero = await callCommand('migrate', ['books', 'zero']);
  assert.is(zero.exitCode, 0, zero.stderr);
  edit('0002_bkbook_isbn.ts', (src) => src.replace("name: 'isbn'", "name: 'code'"));
  assert.is((await callCommand('migrate')).exitCode, 0);
  await getSequelize().query("INSERT INTO books_author (name) VALUES ('Ann')");
  await getSequelize().query("INSERT INTO books_book (title, code, price, format, created, author_id) VALUES ('Dune', '123', NULL, 'soft', '2024-01-01 00:00:00', 1)");
  const result = await callCommand('makemigrations', ['books'], { stdin: 'maybe\ny\n' });
  assert.is(result.exitCode, 0, result.stderr);
  assert.match(result.stdout, 'Was bkbook.code renamed to bkbook.isbn (a CharField)? [y/N] Please answer yes or no: Was bkbook.code renamed');
  assert.match(result.stdout, '0007_rename_code_bkbook_isbn.ts\n    - Rename field code on bkbook to isbn\n');
  assert.is((await callCommand('migrate')).exitCode, 0);
  const rows = await getSequelize().query('SELECT isbn FROM books_book', { type: 'SELECT' as never });
  assert.equal(rows, [{ isbn: '123' }]);
});

test('dependencies :: a relation to another app depends on the migration creating its target', async () => {
  const reviews = makeScratchDir();
  reviewsApp.migrationsDir = reviews;
  const restore = overrideSettings.enter({ INSTALLED_APPS: ['spec.core.db.books', 'spec.core.db.reviews'] });
  apps.reset();
  try {
    const result = await callCommand('makemigrations', ['reviews', '--noinput']);
    assert.is(result.exitCode, 0, result.stderr);
    const source = fs.readFileSync(path.join(reviews, '0001_initial.ts'), 'utf8');
    assert.match(source, "export const dependencies: MigrationDependency[] = [\n  ['books', '0007_rename_code_bkbook_isbn'],\n];");
    assert.match(source, "['book', { type: 'ForeignKey', to: 'books.BkBook', onDelete: 'CASCADE' }],");
    assert.match(source, "['stars', { type: 'SmallIntegerField', default: 3 }],");
    const migrate = await callCommand('migrate', ['reviews']);
    assert.is(migrate.exitCode, 0, migrate.stderr);
    assert.match(migrate.stdout, 'Applying reviews.0001_initial... OK');
    await callCommand('migrate', ['reviews', 'zero']);
  } finally {
    restore();
    apps.reset();
    removeScratchDir(reviews);
  }
});

test('errors :: unknown app; a field type migrations cannot express', async () => {
  const unknown = await callCommand('makemigrations', ['nope']);
  assert.is(unknown.exitCode, 1);
  assert.is(unknown.stderr, "CommandError: App 'nope' could not be found. Is it in INSTALLED_APPS?\n");

  @Table({ tableName: 'books_odd' })
  class BkOdd extends BaseModel {
    static override meta: ModelMeta = { appLabel: 'books' };
    @Column(field({ type: DataType.INTEGER, primaryKey: true, autoIncrement: true }))
    declare id: number;
    @Column(field({ type: DataType.GEOMETRY }))
    declare shape: object;
  }
  assert.throws(
    () => new ModelStateBuilder([]).modelState('books', BkOdd as never),
    (e: Error) => e instanceof UnsupportedFieldError && e.message.startsWith("books.BkOdd.shape: makemigrations cannot express a field of type 'Field' (Sequelize type GEOMETRY)."),
  );
});

test.run();
