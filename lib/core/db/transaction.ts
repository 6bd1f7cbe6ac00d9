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
const markedForRollback = new WeakSet<Transaction>();

/** Thrown inside Sequelize's managed transaction to roll back a block marked for rollback. */
class MarkedRollback {
  constructor(readonly transaction: Transaction, readonly value: unknown) {}
}

/** Raised by transaction misuse, such as `setRollback()` outside `atomic()` (Django's name). */
export class TransactionManagementError extends Error {
  override name = 'TransactionManagementError';
}

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
 * an inner failure caught by the caller undoes only the inner work. A block marked with
 * `setRollback(true)` is rolled back without an error when `fn` resolves.
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
  let result: T;
  try {
    result = await state.sequelize.transaction(options, async (t) => {
      transaction = t;
      pendingOnCommit.set(t, []);
      const value = await fn();
      if (markedForRollback.has(t)) throw new MarkedRollback(t, value);
      return value;
    });
  } catch (error) {
    if (transaction) pendingOnCommit.delete(transaction);
    // A block marked for rollback was rolled back on purpose: its on-commit callbacks are dropped.
    if (error instanceof MarkedRollback && error.transaction === transaction) return error.value as T;
    throw error;
  }
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
 * Mark the innermost `atomic()` block for rollback when it exits (`true`), or clear the mark
 * (`false`): Django's `transaction.set_rollback()`. The API framework's exception handler
 * uses it under `ATOMIC_REQUESTS` so a handled error leaves no writes behind.
 */
export function setRollback(rollback: boolean): void {
  const transaction = currentTransaction();
  if (!transaction) throw new TransactionManagementError("The rollback flag doesn't work outside of an 'atomic' block.");
  if (rollback) markedForRollback.add(transaction);
  else markedForRollback.delete(transaction);
}

/** True when the innermost `atomic()` block is marked for rollback (Django's `get_rollback()`). */
export function getRollback(): boolean {
  const transaction = currentTransaction();
  if (!transaction) throw new TransactionManagementError("The rollback flag doesn't work outside of an 'atomic' block.");
  return markedForRollback.has(transaction);
}

const NON_ATOMIC = Symbol.for('api_framework.nonAtomicRequests');

/**
 * Exclude `view` from `ATOMIC_REQUESTS` (Django's `transaction.non_atomic_requests`): the
 * handler runs it without the per-request transaction. Returns the view.
 */
export function nonAtomicRequests<V extends object>(view: V): V {
  Object.defineProperty(view, NON_ATOMIC, { value: true });
  return view;
}

/** True for views marked with `nonAtomicRequests()`. */
export function isNonAtomicRequests(view: object): boolean {
  return (view as Record<symbol, unknown>)[NON_ATOMIC] === true;
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
export const transaction = { atomic, onCommit, current: currentTransaction, setRollback, getRollback, nonAtomicRequests };
