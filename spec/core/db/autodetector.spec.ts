/**
 * The autodetector on model changes (no database): history state vs model state, the
 * operations it lists, the questions it asks and the answers' effect.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { detectChanges } from '../../../lib/core/db/migrations/autodetector';
import { ProjectState, CreateModel, type FieldSpec, type NamedField, type Operation } from '../../../lib/core/db/migrations';
import { NonInteractiveQuestioner, QuestionerAbort, parseDefault, type Questioner } from '../../../lib/core/db/migrations/questioner';
import { NOW, type DefaultValue } from '../../../lib/core/db/migrations/fieldSpec';

const test = suite('core/db/migrations autodetector');

const ID: NamedField = ['id', { type: 'AutoField', primaryKey: true }];

function state(...models: Array<{ name: string; fields: NamedField[]; table?: string; options?: object; app?: string }>): ProjectState {
  const s = new ProjectState();
  for (const m of models) new CreateModel({ name: m.name, table: m.table ?? `books_${m.name.toLowerCase()}`, fields: m.fields, options: m.options }).stateForwards(m.app ?? 'books', s);
  return s;
}

/** A questioner with scripted answers that records what it was asked. */
class Scripted implements Questioner {
  asked: string[] = [];
  constructor(private readonly answers: { rename?: boolean; value?: DefaultValue; alteration?: DefaultValue } = {}) {}
  async askRenameModel(_a: string, o: string, n: string): Promise<boolean> {
    this.asked.push(`rename model ${o}->${n}`);
    return Boolean(this.answers.rename);
  }
  async askRenameField(_a: string, m: string, o: string, n: string, t: string): Promise<boolean> {
    this.asked.push(`rename field ${m}.${o}->${n} (${t})`);
    return Boolean(this.answers.rename);
  }
  async askNotNullAddition(_a: string, m: string, f: string): Promise<DefaultValue> {
    this.asked.push(`not null ${m}.${f}`);
    return this.answers.value ?? 0;
  }
  async askNotNullAlteration(_a: string, m: string, f: string): Promise<DefaultValue | undefined> {
    this.asked.push(`alter not null ${m}.${f}`);
    return this.answers.alteration;
  }
  async askMerge(): Promise<boolean> {
    return true;
  }
}

async function detect(from: ProjectState, to: ProjectState, questioner: Questioner = new Scripted()): Promise<Array<{ name: string; args: object }>> {
  const changes = await detectChanges(from, to, questioner);
  return (changes.get('books') ?? []).map((o: Operation) => o.deconstruct());
}

const author = (extra: NamedField[] = [], name: FieldSpec = { type: 'CharField', maxLength: 100 }) => ({ name: 'Author', fields: [ID, ['name', name] as NamedField, ...extra] });

test('create :: a new model, related models first, cross-app untouched', async () => {
  const to = state(
    { name: 'Book', fields: [ID, ['author', { type: 'ForeignKey', to: 'books.Author', onDelete: 'CASCADE' }]] },
    author(),
    { name: 'User', fields: [ID], app: 'auth', table: 'auth_user' },
  );
  const ops = await detect(state({ name: 'User', fields: [ID], app: 'auth', table: 'auth_user' }), to);
  assert.equal(ops.map((o) => `${o.name} ${(o.args as { name: string }).name}`), ['CreateModel Author', 'CreateModel Book']);
  assert.equal((ops[1].args as { fields: NamedField[] }).fields[1], ['author', { type: 'ForeignKey', to: 'books.Author', onDelete: 'CASCADE' }]);
});

test('create :: a relation cycle is split into CreateModel + AddField', async () => {
  const to = state(
    { name: 'A', fields: [ID, ['b', { type: 'ForeignKey', to: 'books.B', null: true }]] },
    { name: 'B', fields: [ID, ['a', { type: 'ForeignKey', to: 'books.A', null: true }]] },
  );
  const ops = await detect(new ProjectState(), to);
  assert.equal(ops.map((o) => o.name), ['CreateModel', 'CreateModel', 'AddField']);
  assert.equal((ops[0].args as { fields: NamedField[] }).fields.map(([n]) => n), ['id']);
  assert.equal(ops[2].args, { model: 'A', name: 'b', field: { type: 'ForeignKey', to: 'books.B', null: true } });
});

test('add field :: with a default (no question), nullable (no question), blank text (no question)', async () => {
  const q = new Scripted();
  const ops = await detect(
    state(author()),
    state(author([['born', { type: 'IntegerField', default: 1900 }], ['bio', { type: 'TextField', null: true }], ['note', { type: 'CharField', maxLength: 9, blank: true }]])),
    q,
  );
  assert.equal(ops, [
    { name: 'AddField', args: { model: 'Author', name: 'born', field: { type: 'IntegerField', default: 1900 } } },
    { name: 'AddField', args: { model: 'Author', name: 'bio', field: { type: 'TextField', null: true } } },
    { name: 'AddField', args: { model: 'Author', name: 'note', field: { type: 'CharField', maxLength: 9, blank: true } } },
  ]);
  assert.equal(q.asked, []);
});

test('add field :: NOT NULL without default asks for a one-off value (preserveDefault: false)', async () => {
  const q = new Scripted({ value: 'unknown' });
  const ops = await detect(state(author()), state(author([['city', { type: 'CharField', maxLength: 50 }]])), q);
  assert.equal(q.asked, ['not null Author.city']);
  assert.equal(ops, [{ name: 'AddField', args: { model: 'Author', name: 'city', field: { type: 'CharField', maxLength: 50, default: 'unknown' }, preserveDefault: false } }]);
});

test('add field :: --noinput stops with exit status 3 and a message naming the field', async () => {
  try {
    await detect(state(author()), state(author([['city', { type: 'CharField', maxLength: 50 }]])), new NonInteractiveQuestioner());
    assert.unreachable('should stop');
  } catch (error) {
    assert.instance(error, QuestionerAbort);
    assert.is((error as QuestionerAbort).exitCode, 3);
    assert.match((error as Error).message, "It is impossible to add a non-nullable field 'city' to author without specifying a default.");
  }
});

test('alter :: max length, null, unique each give an AlterField with the whole new definition', async () => {
  for (const [before, after] of [
    [{ type: 'CharField', maxLength: 100 }, { type: 'CharField', maxLength: 150 }],
    [{ type: 'CharField', maxLength: 100 }, { type: 'CharField', maxLength: 100, null: true }],
    [{ type: 'CharField', maxLength: 100 }, { type: 'CharField', maxLength: 100, unique: true }],
    [{ type: 'CharField', maxLength: 100 }, { type: 'CharField', maxLength: 100, dbIndex: true }],
    [{ type: 'CharField', maxLength: 100 }, { type: 'CharField', maxLength: 100, choices: [['a', 'A']] }],
    [{ type: 'CharField', maxLength: 100 }, { type: 'TextField' }],
  ] as Array<[FieldSpec, FieldSpec]>) {
    const ops = await detect(state(author([], before)), state(author([], after)));
    assert.equal(ops, [{ name: 'AlterField', args: { model: 'Author', name: 'name', field: after } }], JSON.stringify(after));
  }
});

test('alter :: nullable to NOT NULL asks for a value for the NULLs (none: plain AlterField)', async () => {
  const from = state(author([], { type: 'CharField', maxLength: 100, null: true }));
  const to = state(author());
  const q = new Scripted({ alteration: 'x' });
  assert.equal(await detect(from, to, q), [{ name: 'AlterField', args: { model: 'Author', name: 'name', field: { type: 'CharField', maxLength: 100, default: 'x' }, preserveDefault: false } }]);
  assert.equal(q.asked, ['alter not null Author.name']);
  assert.equal(await detect(from, to, new Scripted()), [{ name: 'AlterField', args: { model: 'Author', name: 'name', field: { type: 'CharField', maxLength: 100 } } }]);
});

test('FK added, M2M added :: AddField with the relation', async () => {
  const tag = { name: 'Tag', fields: [ID] };
  const from = state(author(), tag);
  const to = state(author([['mentor', { type: 'ForeignKey', to: 'books.Author', null: true, onDelete: 'SET NULL', relatedName: 'mentees' }], ['tags', { type: 'ManyToManyField', to: 'books.Tag', dbTable: 'books_author_tags', columns: ['author_id', 'tag_id'] }]]), tag);
  const ops = await detect(from, to);
  assert.equal(ops.map((o) => [o.name, (o.args as { name: string }).name, (o.args as { field: FieldSpec }).field.type]), [
    ['AddField', 'mentor', 'ForeignKey'],
    ['AddField', 'tags', 'ManyToManyField'],
  ]);
});

test('model deleted :: DeleteModel, the pointing model first', async () => {
  const from = state(author(), { name: 'Book', fields: [ID, ['author', { type: 'ForeignKey', to: 'books.Author' }]] }, { name: 'Shelf', fields: [ID] });
  const ops = await detect(from, state({ name: 'Shelf', fields: [ID] }));
  assert.equal(ops, [{ name: 'DeleteModel', args: { name: 'Book' } }, { name: 'DeleteModel', args: { name: 'Author' } }]);
});

test('rename field :: asked; yes gives RenameField, no gives RemoveField + AddField', async () => {
  const from = state(author([['city', { type: 'CharField', maxLength: 50, default: '' }]]));
  const to = state(author([['town', { type: 'CharField', maxLength: 50, default: '' }]]));
  const yes = new Scripted({ rename: true });
  assert.equal(await detect(from, to, yes), [{ name: 'RenameField', args: { model: 'Author', oldName: 'city', newName: 'town' } }]);
  assert.equal(yes.asked, ['rename field Author.city->town (CharField)']);
  assert.equal((await detect(from, to, new NonInteractiveQuestioner())).map((o) => o.name), ['RemoveField', 'AddField']);
});

test('rename model :: asked; yes gives RenameModel with the new table', async () => {
  const from = state({ name: 'Writer', fields: [ID], table: 'books_writer' });
  const to = state({ name: 'Author', fields: [ID], table: 'books_author' });
  const yes = new Scripted({ rename: true });
  assert.equal(await detect(from, to, yes), [{ name: 'RenameModel', args: { oldName: 'Writer', newName: 'Author', table: 'books_author' } }]);
  assert.equal(yes.asked, ['rename model Writer->Author']);
  assert.equal((await detect(from, to, new NonInteractiveQuestioner())).map((o) => o.name), ['CreateModel', 'DeleteModel']);
});

test('meta :: ordering / verbose names, unique together, indexes', async () => {
  const base = author([['city', { type: 'CharField', maxLength: 50, default: '' }]]);
  const from = state({ ...base, options: { ordering: ['name'], indexes: [{ name: 'old_idx', fields: ['city'] }] } });
  const to = state({ ...base, options: { ordering: ['-name'], verboseName: 'writer', uniqueTogether: [['name', 'city']], indexes: [{ name: 'name_idx', fields: ['name'] }] } });
  assert.equal(await detect(from, to), [
    { name: 'RemoveIndex', args: { model: 'Author', name: 'old_idx' } },
    { name: 'AlterUniqueTogether', args: { name: 'Author', uniqueTogether: [['name', 'city']] } },
    { name: 'AddIndex', args: { model: 'Author', index: { name: 'name_idx', fields: ['name'] } } },
    { name: 'AlterModelOptions', args: { name: 'Author', options: { ordering: ['-name'], verboseName: 'writer' } } },
  ]);
});

test('unique together naming a removed field :: dropped before the field goes', async () => {
  const from = state({ ...author([['city', { type: 'CharField', maxLength: 50, default: '' }]]), options: { uniqueTogether: [['name', 'city']] } });
  const ops = await detect(from, state(author()));
  assert.equal(ops, [
    { name: 'AlterUniqueTogether', args: { name: 'Author', uniqueTogether: [] } },
    { name: 'RemoveField', args: { model: 'Author', name: 'city' } },
  ]);
});

test('no change :: nothing, whatever the key order or false options', async () => {
  const from = state(author([['ok', { type: 'BooleanField', default: true, null: false }]]));
  const to = state(author([['ok', { default: true, type: 'BooleanField' }]]));
  assert.equal((await detectChanges(from, to, new Scripted())).size, 0);
});

test('parseDefault :: now, numbers, quoted strings, JSON; garbage throws', () => {
  assert.equal(parseDefault('now'), NOW);
  assert.is(parseDefault(' 42 '), 42);
  assert.is(parseDefault("'it\\'s'"), "it's");
  assert.is(parseDefault('"x"'), 'x');
  assert.equal(parseDefault('[1, 2]'), [1, 2]);
  assert.is(parseDefault('true'), true);
  assert.throws(() => parseDefault('bare words'));
});

test.run();
