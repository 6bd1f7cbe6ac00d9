import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { useTestDatabase, withRollback, captureQueries } from '../../../lib/core/db/testing';
import { atomic, onCommit, currentTransaction, inAtomicBlock, setRollback, getRollback, TransactionManagementError } from '../../../lib/core/db';
import { LibAuthor, LibBook, LibTag } from './library/models';
import { useTestApps, rejects } from './helpers';

const test = suite('core/db/transaction');
useTestApps(test);
useTestDatabase(test);

const names = async (): Promise<string[]> => (await LibTag.objects.orderBy('name').fetch()).map((t) => t.name);

test.after.each(async () => {
  await LibTag.objects.all().delete();
});

test('atomic :: commits on success and returns the value', async () => {
  const result = await atomic(async () => {
    assert.ok(inAtomicBlock());
    await LibTag.objects.create({ name: 'a' });
    return 42;
  });
  assert.is(result, 42);
  assert.not.ok(inAtomicBlock());
  assert.equal(await names(), ['a']);
});

test('atomic :: rolls back every write (QuerySet, save, association mixins) on error', async () => {
  const author = await LibAuthor.objects.create({ name: 'Tx' });
  await rejects(
    () =>
      atomic(async () => {
        const tag = await LibTag.objects.create({ name: 'b' });
        const book = await LibBook.objects.create({ title: 'tx book', author_id: author.id });
        await book.$add('tags', tag);
        author.name = 'changed';
        await author.save();
        await LibTag.objects.filter({ name: 'b' }).update({ name: 'c' });
        throw new Error('boom');
      }),
    (e) => e.message === 'boom',
  );
  assert.equal(await names(), []);
  assert.is(await LibBook.objects.count(), 0);
  assert.is((await LibAuthor.objects.get({ pk: author.pk })).name, 'Tx');
  await author.destroy();
});

test('atomic :: nested blocks use savepoints', async () => {
  const sql = await captureQueries(() =>
    atomic(async () => {
      await LibTag.objects.create({ name: 'outer' });
      await rejects(
        () =>
          atomic(async () => {
            await LibTag.objects.create({ name: 'inner' });
            throw new Error('inner failure');
          }),
        Error,
      );
      await atomic(async () => {
        await LibTag.objects.create({ name: 'inner ok' });
      });
    }),
  );
  assert.ok(sql.some((s) => /SAVEPOINT/i.test(s)), sql.join('\n'));
  assert.equal(await names(), ['inner ok', 'outer']);
});

test('atomic :: concurrent blocks do not share a transaction', async () => {
  let first: unknown;
  let second: unknown;
  await Promise.all([
    atomic(async () => {
      first = currentTransaction();
      await LibTag.objects.create({ name: 'p1' });
    }),
    atomic(async () => {
      second = currentTransaction();
      await LibTag.objects.create({ name: 'p2' });
    }),
  ]);
  assert.ok(first && second && first !== second);
  assert.equal(await names(), ['p1', 'p2']);
});

test('onCommit :: runs after the outermost commit, dropped on rollback', async () => {
  const calls: string[] = [];
  await onCommit(() => void calls.push('immediate'));
  await atomic(async () => {
    await onCommit(() => void calls.push('outer'));
    await atomic(async () => {
      await onCommit(() => void calls.push('inner'));
    });
    await atomic(async () => {
      await onCommit(() => void calls.push('rolled back'));
      throw new Error('x');
    }).catch(() => undefined);
    assert.equal(calls, ['immediate']);
  });
  assert.equal(calls, ['immediate', 'outer', 'inner']);
  await atomic(async () => {
    await onCommit(() => void calls.push('never'));
    throw new Error('y');
  }).catch(() => undefined);
  assert.equal(calls, ['immediate', 'outer', 'inner']);
});

test('setRollback :: a marked block rolls back without an error; inner marks undo only the savepoint', async () => {
  const committed: string[] = [];
  const value = await atomic(async () => {
    await LibTag.objects.create({ name: 'marked' });
    await onCommit(() => committed.push('outer'));
    assert.not.ok(getRollback());
    setRollback(true);
    assert.ok(getRollback());
    return 'kept value';
  });
  assert.is(value, 'kept value');
  assert.equal(await names(), []);
  assert.equal(committed, [], 'on-commit callbacks of a rolled-back block are dropped');

  await atomic(async () => {
    await LibTag.objects.create({ name: 'outer' });
    await atomic(async () => {
      await LibTag.objects.create({ name: 'inner' });
      setRollback(true);
    });
    assert.not.ok(getRollback(), 'the mark belonged to the inner block');
    await LibTag.objects.create({ name: 'after' });
  });
  assert.equal(await names(), ['after', 'outer']);

  await atomic(async () => {
    await LibTag.objects.create({ name: 'unmarked' });
    setRollback(true);
    setRollback(false);
  });
  assert.equal(await names(), ['after', 'outer', 'unmarked']);
  assert.throws(() => setRollback(true), (error: Error) => error instanceof TransactionManagementError && /outside of an 'atomic' block/.test(error.message));
});

test('withRollback :: returns the value and undoes the writes', async () => {
  const value = await withRollback(async () => {
    await LibTag.objects.create({ name: 'temp' });
    return (await names()).length;
  });
  assert.is(value, 1);
  assert.equal(await names(), []);
});

test.run();
