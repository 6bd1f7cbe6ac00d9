/**
 * `atomic(fn)`: run `fn` inside a database transaction carried by AsyncLocalStorage.
 * Nested calls create savepoints. Every QuerySet call, model `save()`/`destroy()` and
 * Sequelize association getter inside joins the transaction automatically.
 */
import { Transaction } from 'sequelize';
import { clsNamespace } from './clsNamespace';
import { getConnectionState } from './connection';

type Callback = () => unknown;
const pendingOnCommit = new WeakMap<Transaction, Callback[]>();

/** The transaction the current async call chain runs in, or `undefined` (autocommit). */
export function currentTransaction(): Transaction | undefined {
  const transaction = clsNamespace.get('transaction');
  return transaction instanceof Transaction ? transaction : undefined;
}

/** True while inside `atomic()`. */
export function inAtomicBlock(): boolean {
  return currentTransaction() !== undefined;
}

/**
 * Run `fn` in a transaction and return its result. Commits when `fn` resolves, rolls back
 * (and rethrows) when it throws. Inside another `atomic()`, a savepoint is used instead, so
 * an inner failure caught by the caller undoes only the inner work.
 */
export async function atomic<T>(fn: () => Promise<T> | T): Promise<T> {
  const state = getConnectionState();
  const parent = currentTransaction();
  const options = parent
    ? { transaction: parent }
    : state.config.vendor === 'sqlite'
      ? { type: Transaction.TYPES.IMMEDIATE }
      : {};
  let transaction: Transaction | undefined;
  const result = await state.sequelize.transaction(options, async (t) => {
    transaction = t;
    pendingOnCommit.set(t, []);
    return fn();
  }).catch((error: unknown) => {
    if (transaction) pendingOnCommit.delete(transaction);
    throw error;
  });
  const callbacks = (transaction && pendingOnCommit.get(transaction)) ?? [];
  if (transaction) pendingOnCommit.delete(transaction);
  if (parent) {
    pendingOnCommit.get(parent)?.push(...callbacks);
  } else {
    for (const callback of callbacks) await callback();
  }
  return result;
}

/**
 * Register `fn` to run after the outermost transaction commits (dropped on rollback).
 * Outside `atomic()`, `fn` runs immediately, as Django's `transaction.on_commit` does.
 */
export async function onCommit(fn: Callback): Promise<void> {
  const transaction = currentTransaction();
  const pending = transaction && pendingOnCommit.get(transaction);
  if (pending) pending.push(fn);
  else await fn();
}

/** Namespace-style access, mirroring `django.db.transaction`. */
export const transaction = { atomic, onCommit, current: currentTransaction };
