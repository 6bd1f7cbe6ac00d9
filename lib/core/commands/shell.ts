/**
 * `manage.ts shell`: a node REPL with the settings loaded and the installed apps' models in
 * scope (top-level `await` works). `-c CODE` runs code and exits.
 */
import repl from 'node:repl';
import { Writable } from 'node:stream';
import { settings } from '../conf';
import { apps } from '../apps';
import { getSequelize } from '../db';
import { reverse, resolve } from '../urls';
import { BaseCommand, CommandParser, type CommandOptions } from '../management';

type AsyncFunctionConstructor = new (...args: string[]) => (...values: unknown[]) => Promise<unknown>;

/** Runs an interactive shell with the project loaded. */
export default class ShellCommand extends BaseCommand {
  static override help = "Runs a node REPL with the project's settings and models loaded.";

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'command', short: 'c', type: 'string', help: 'Instead of opening an interactive shell, run a command and exit.' });
  }

  /** The names available in the shell: settings, apps, reverse, resolve, print and every model. */
  getContext(): Record<string, unknown> {
    // Bind the models to the connection now, so `User.build()` or `new Snippet()` work as the
    // first statement (the host framework's shell has its models ready).
    getSequelize();
    const context: Record<string, unknown> = {
      settings,
      apps,
      reverse,
      resolve,
      print: (...values: unknown[]) => this.stdout.write(`${values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(' ')}\n`),
    };
    for (const model of apps.getModels()) context[(model as { name: string }).name] = model;
    return context;
  }

  override async handle(options: CommandOptions): Promise<void> {
    const context = this.getContext();
    if (typeof options.command === 'string') {
      const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as AsyncFunctionConstructor;
      const fn = new AsyncFunction(...Object.keys(context), options.command);
      await fn(...Object.values(context));
      return;
    }
    const output =
      this.stdout === process.stdout
        ? process.stdout
        : new Writable({
            write: (chunk: Buffer, _encoding, callback) => {
              this.stdout.write(chunk.toString());
              callback();
            },
          });
    const server = repl.start({ prompt: '>>> ', input: this.stdin, output, useGlobal: false });
    Object.assign(server.context, context);
    await new Promise<void>((done) => server.on('exit', () => done()));
  }
}
