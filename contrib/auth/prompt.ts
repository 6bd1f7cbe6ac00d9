/**
 * Line input for interactive commands: reads answers from the command's stdin, whether a
 * terminal (passwords are not echoed) or a pipe (one answer per line).
 */
import { CommandError } from '../../lib/core/management';
import type { OutputStream } from '../../lib/core/management';

interface TtyInput extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

/** Reads prompted answers line by line from a stream. */
export class Prompter {
  private buffer = '';
  private ended = false;
  private waiters: Array<() => void> = [];
  private listening = false;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: OutputStream,
  ) {}

  /** True when the input is an interactive terminal. */
  get isTTY(): boolean {
    return Boolean((this.input as TtyInput).isTTY);
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.input.on('data', (chunk: Buffer | string) => {
      this.buffer += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      this.wake();
    });
    this.input.on('end', () => {
      this.ended = true;
      this.wake();
    });
    this.input.on('error', () => {
      this.ended = true;
      this.wake();
    });
    this.input.resume();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private async nextLine(): Promise<string> {
    this.listen();
    for (;;) {
      const newline = this.buffer.search(/\r?\n|\r/);
      if (newline >= 0) {
        const line = this.buffer.slice(0, newline);
        const match = /^(\r\n|\n|\r)/.exec(this.buffer.slice(newline)) as RegExpExecArray;
        this.buffer = this.buffer.slice(newline + match[0].length);
        return line;
      }
      if (this.ended) {
        if (this.buffer) {
          const line = this.buffer;
          this.buffer = '';
          return line;
        }
        throw new CommandError('Operation cancelled.');
      }
      if (this.buffer.includes('\u0003')) throw new CommandError('Operation cancelled.');
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Write `message` and return the next line of input. */
  async ask(message: string): Promise<string> {
    this.output.write(message);
    return this.nextLine();
  }

  /** Like `ask()`, without echoing the answer on a terminal. */
  async askSecret(message: string): Promise<string> {
    const tty = this.input as TtyInput;
    this.output.write(message);
    if (!tty.isTTY || typeof tty.setRawMode !== 'function') return this.nextLine();
    tty.setRawMode(true);
    try {
      this.listen();
      let answer = '';
      for (;;) {
        while (this.buffer.length) {
          const ch = this.buffer[0];
          this.buffer = this.buffer.slice(1);
          if (ch === '\r' || ch === '\n') {
            this.output.write('\n');
            return answer;
          }
          if (ch === '\u0003' || ch === '\u0004') throw new CommandError('Operation cancelled.');
          if (ch === '\u007f' || ch === '\b') answer = answer.slice(0, -1);
          else answer += ch;
        }
        // The input ended: what was typed is the answer; nothing typed cancels (asking again
        // would get an empty answer forever).
        if (this.ended) {
          if (answer === '') throw new CommandError('Operation cancelled.');
          return answer;
        }
        await new Promise<void>((resolve) => this.waiters.push(resolve));
      }
    } finally {
      tty.setRawMode(false);
    }
  }

  /** Stop reading the input (so the process can exit). */
  close(): void {
    this.input.pause();
  }
}
