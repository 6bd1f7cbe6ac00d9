/**
 * Model signals, Django-style: receivers connect for one sender (a model class) or for all
 * senders (`null`), and are awaited in connection order when the signal is sent.
 *
 *     postSave.connect(User, async ({ instance, created }) => { if (created) await Token.objects.create({ user_id: instance.pk }); });
 */

/** A receiver gets the signal's arguments, including `sender`. */
export type Receiver<A> = (args: A & { sender: unknown }) => unknown;

interface Connection<A> {
  sender: unknown;
  receiver: Receiver<A>;
  dispatchUid?: string;
}

/** A named hook point that model code sends and apps connect to. */
export class Signal<A extends object> {
  private connections: Connection<A>[] = [];

  constructor(readonly name: string) {}

  /**
   * Connect `receiver` for `sender` (a model class; `null` for every sender). A second
   * connect with the same `dispatchUid` (or the same receiver and sender) is ignored.
   */
  connect(sender: unknown, receiver: Receiver<A>, options: { dispatchUid?: string } = {}): void {
    const exists = this.connections.some((c) =>
      options.dispatchUid !== undefined
        ? c.dispatchUid === options.dispatchUid
        : c.receiver === receiver && c.sender === sender,
    );
    if (!exists) this.connections.push({ sender, receiver, dispatchUid: options.dispatchUid });
  }

  /** Disconnect a receiver (by function or `dispatchUid`); returns whether one was removed. */
  disconnect(sender: unknown, receiverOrUid: Receiver<A> | string): boolean {
    const before = this.connections.length;
    this.connections = this.connections.filter((c) =>
      typeof receiverOrUid === 'string'
        ? c.dispatchUid !== receiverOrUid
        : !(c.receiver === receiverOrUid && c.sender === sender),
    );
    return this.connections.length !== before;
  }

  /** True when some receiver would get a signal sent by `sender`. */
  hasListeners(sender: unknown): boolean {
    return this.connections.some((c) => c.sender === null || c.sender === sender);
  }

  /** Call every matching receiver in order, awaiting each; returns their results. */
  async send(sender: unknown, args: A): Promise<unknown[]> {
    const results: unknown[] = [];
    for (const c of this.connections) {
      if (c.sender === null || c.sender === sender) results.push(await c.receiver({ ...args, sender }));
    }
    return results;
  }
}

/** Arguments of `preSave`. */
export interface PreSaveArgs {
  instance: object;
  /** True when the instance is about to be inserted. */
  created: boolean;
}

/** Arguments of `postSave`. */
export interface PostSaveArgs {
  instance: object;
  /** True when the save inserted a new row. */
  created: boolean;
}

/** Arguments of `preDelete` / `postDelete`. */
export interface DeleteArgs {
  instance: object;
}

/** Sent before a model instance is saved. */
export const preSave = new Signal<PreSaveArgs>('pre_save');
/** Sent after a model instance is saved (`created` tells insert from update). */
export const postSave = new Signal<PostSaveArgs>('post_save');
/** Sent before a model instance is deleted. */
export const preDelete = new Signal<DeleteArgs>('pre_delete');
/** Sent after a model instance is deleted. */
export const postDelete = new Signal<DeleteArgs>('post_delete');
