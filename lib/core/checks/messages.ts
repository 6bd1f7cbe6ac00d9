/**
 * System check messages, as the host framework's `django.core.checks`: a level, a text, an id
 * such as `security.W009`, an optional hint and the object concerned.
 */

/** Severity levels (the host framework's numbers). */
export const DEBUG = 10;
export const INFO = 20;
export const WARNING = 30;
export const ERROR = 40;
export const CRITICAL = 50;

/** Level names accepted by `check --fail-level`, mapped to their numbers. */
export const LEVELS: Readonly<Record<string, number>> = { DEBUG, INFO, WARNING, ERROR, CRITICAL };

/** What a check found; use the subclasses `Warning`, `Error`, ... rather than this class. */
export class CheckMessage {
  constructor(
    readonly level: number,
    readonly msg: string,
    readonly options: { hint?: string; obj?: unknown; id?: string } = {},
  ) {}

  /** The message's id (`security.W009`), or '' when it has none. */
  get id(): string {
    return this.options.id ?? '';
  }

  /** True when the level is at least `level` (an ERROR stops `runserver`, `serve`, `migrate`). */
  isSerious(level = ERROR): boolean {
    return this.level >= level;
  }

  /** True when `SILENCED_SYSTEM_CHECKS` lists the id. */
  isSilenced(silenced: readonly string[]): boolean {
    return this.id !== '' && silenced.includes(this.id);
  }

  /** `obj: (id) message` and a tab-indented `HINT:` line, as the host framework prints it. */
  toString(): string {
    const obj = this.options.obj === undefined || this.options.obj === null ? '?' : describeObject(this.options.obj);
    const id = this.id ? `(${this.id}) ` : '';
    const hint = this.options.hint ? `\n\tHINT: ${this.options.hint}` : '';
    return `${obj}: ${id}${this.msg}${hint}`;
  }
}

function describeObject(obj: unknown): string {
  if (typeof obj === 'function') return obj.name || '<anonymous>';
  return String(obj);
}

/** A debugging message. */
export class Debug extends CheckMessage {
  constructor(msg: string, options: { hint?: string; obj?: unknown; id?: string } = {}) {
    super(DEBUG, msg, options);
  }
}

/** An informative message. */
export class Info extends CheckMessage {
  constructor(msg: string, options: { hint?: string; obj?: unknown; id?: string } = {}) {
    super(INFO, msg, options);
  }
}

/** A problem that does not stop the project (printed, commands go on). */
export class Warning extends CheckMessage {
  constructor(msg: string, options: { hint?: string; obj?: unknown; id?: string } = {}) {
    super(WARNING, msg, options);
  }
}

/** A problem that stops `runserver`, `serve` and `migrate` (and makes `check` exit 1). */
export class Error extends CheckMessage {
  constructor(msg: string, options: { hint?: string; obj?: unknown; id?: string } = {}) {
    super(ERROR, msg, options);
  }
}

/** A serious problem (as an ERROR, one level higher). */
export class Critical extends CheckMessage {
  constructor(msg: string, options: { hint?: string; obj?: unknown; id?: string } = {}) {
    super(CRITICAL, msg, options);
  }
}
