/**
 * Management commands: `manage.ts <command> [options]`. Core commands live one per file in
 * `lib/core/commands/` (default-exporting a `BaseCommand` subclass); installed apps add theirs
 * through `AppConfig.commands` (`'./commands'`: a folder laid out the same way).
 *
 *     export default class Command extends BaseCommand {
 *       static override help = 'Say hello.';
 *       override addArguments(parser: CommandParser): void {
 *         parser.addArgument({ name: 'name', positional: true });
 *       }
 *       override handle(options: CommandOptions): void {
 *         this.stdout.write(`Hello ${options.name}\n`);
 *       }
 *     }
 *
 * Contract (what the rest of the framework relies on; moved here from CONTRIBUTING.md):
 * - `abstract class BaseCommand { static help: string; stdout/stderr: { write(text: string): void };
 *   stdin: NodeJS.ReadableStream; addArguments(parser: CommandParser): void;
 *   abstract handle(options: CommandOptions): Promise<void> | void }` where
 *   `parser.addArgument({ name, positional?, type?: 'string'|'boolean'|'number', short?, help?,
 *   default?, required?, multiple? })` and `options` holds each argument under its camelCased
 *   name (`--fake-initial` -> `options.fakeInitial`, positional `username` -> `options.username`).
 * - `class CommandError extends Error` -> `manage.ts` prints `CommandError: <message>` to stderr
 *   and exits 1; so do unknown commands and bad arguments (with the usage line).
 * - Commands live one per file: core ones in `lib/core/commands/<name>.ts`, app ones in
 *   `<app>/commands/<name>.ts`, listed by the app's `AppConfig.commands` (`'./commands'`, or a
 *   function returning the classes by name).
 * - A command file default-exports its class: `export default class Command extends BaseCommand`.
 *   Every `lib/core/commands/*.ts` file is a core command (found by listing the folder).
 *   Every command also accepts `--verbosity/-v N`, `--settings`, `--traceback`, `--no-color`.
 * - `runserver` reloads when a source file (`.ts`, or `.js` when compiled) under `lib/`, `contrib/`,
 *   `demo/` changes; env `API_FRAMEWORK_WATCH_DIRS` (path-delimiter separated) replaces those folders.
 * - `callCommand(name, argv, io?) -> Promise<{ exitCode, stdout, stderr }>` runs a command in
 *   process (for specs) with captured output; `manage.ts` is a thin wrapper around
 *   `runFromArgv(process.argv.slice(2))`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PassThrough } from 'node:stream';
import cluster from 'node:cluster';
import { apps, type AppConfig } from './apps';
import { FRAMEWORK_PACKAGE_ROOT } from './conf';
import { serveSupervises } from './servePrimary';

/** A writable text sink (process.stdout, or a buffer in tests). */
export interface OutputStream {
  write(text: string): unknown;
}

/** Parsed options: each argument under its camelCased name. */
export type CommandOptions = Record<string, unknown>;

/** The declaration of one command-line argument. */
export interface ArgumentSpec {
  /** `fake-initial` (option `--fake-initial`, read as `options.fakeInitial`) or a positional's name. */
  name: string;
  positional?: boolean;
  type?: 'string' | 'boolean' | 'number';
  /** One-letter alias (`-r`). */
  short?: string;
  help?: string;
  default?: unknown;
  required?: boolean;
  /** Repeatable option / trailing positional collecting the rest. */
  multiple?: boolean;
  /** Name of the value in the usage line (`ADDRPORT`). */
  metavar?: string;
}

/** Raised for bad command-line arguments: `manage.ts` prints the usage and the message. */
export class CommandParseError extends Error {
  override name = 'CommandParseError';
}

/** Raise from `handle()` to print `CommandError: <message>` and exit with status 1. */
export class CommandError extends Error {
  override name = 'CommandError';
  readonly returnCode: number;

  constructor(message: string, options: { returnCode?: number } = {}) {
    super(message);
    this.returnCode = options.returnCode ?? 1;
  }

  /** The text printed to stderr: `CommandError: <message>` (subclasses may print otherwise). */
  displayText(): string {
    return `CommandError: ${this.message}`;
  }
}

function camelCase(name: string): string {
  return name.replace(/[-_]+([a-zA-Z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** Collects a command's arguments and parses argv with `util.parseArgs`. */
export class CommandParser {
  readonly arguments: ArgumentSpec[] = [];

  constructor(readonly prog: string, readonly description = '') {}

  /** Declare an argument. */
  addArgument(spec: ArgumentSpec): void {
    if (this.arguments.some((a) => a.name === spec.name)) {
      throw new Error(`Argument '${spec.name}' is declared twice for ${this.prog}.`);
    }
    this.arguments.push(spec);
  }

  private describeArg(spec: ArgumentSpec): string {
    const metavar = spec.metavar ?? spec.name.toUpperCase().replace(/-/g, '_');
    if (spec.positional) {
      const base = spec.multiple ? `${spec.name} [${spec.name} ...]` : spec.name;
      return spec.required === false || spec.default !== undefined ? `[${base}]` : base;
    }
    const flag = `--${spec.name}${spec.type === 'boolean' || spec.type === undefined && spec.default === false ? '' : ` ${metavar}`}`;
    return spec.required ? flag : `[${flag}]`;
  }

  /** The one-line usage. */
  usage(): string {
    const options = this.arguments.filter((a) => !a.positional).map((a) => this.describeArg(a));
    const positionals = this.arguments.filter((a) => a.positional).map((a) => this.describeArg(a));
    return `usage: ${[this.prog, ...options, ...positionals].join(' ')}`;
  }

  /** The full help: usage, description, arguments. */
  formatHelp(): string {
    const lines = [this.usage(), ''];
    if (this.description) lines.push(this.description, '');
    const positionals = this.arguments.filter((a) => a.positional);
    if (positionals.length) {
      lines.push('positional arguments:');
      for (const a of positionals) lines.push(`  ${a.name.padEnd(24)}${a.help ?? ''}`);
      lines.push('');
    }
    lines.push('optional arguments:');
    lines.push(`  ${'-h, --help'.padEnd(24)}show this help message and exit`);
    for (const a of this.arguments.filter((x) => !x.positional)) {
      const flags = `${a.short ? `-${a.short}, ` : ''}--${a.name}`;
      lines.push(`  ${flags.padEnd(24)}${a.help ?? ''}`);
    }
    return `${lines.join('\n')}\n`;
  }

  private typeOf(spec: ArgumentSpec): 'string' | 'boolean' | 'number' {
    if (spec.type) return spec.type;
    return typeof spec.default === 'boolean' ? 'boolean' : typeof spec.default === 'number' ? 'number' : 'string';
  }

  private convert(spec: ArgumentSpec, value: unknown): unknown {
    if (this.typeOf(spec) !== 'number' || value === undefined) return value;
    const convertOne = (v: unknown): number => {
      const n = Number(v);
      if (typeof v !== 'string' || v.trim() === '' || !Number.isFinite(n)) {
        throw new CommandParseError(`argument ${spec.positional ? spec.name : `--${spec.name}`}: invalid int value: '${String(v)}'`);
      }
      return n;
    };
    return Array.isArray(value) ? value.map(convertOne) : convertOne(value);
  }

  /** Parse argv into options (camelCased names); throws `CommandParseError`. */
  parse(argv: string[]): CommandOptions {
    const optionSpecs: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
    for (const spec of this.arguments) {
      if (spec.positional) continue;
      const type = this.typeOf(spec) === 'boolean' ? 'boolean' : 'string';
      optionSpecs[spec.name] = { type, ...(spec.short ? { short: spec.short } : {}), ...(spec.multiple ? { multiple: true } : {}) };
    }
    let parsed: { values: Record<string, unknown>; positionals: string[] };
    try {
      parsed = parseArgs({ args: argv, options: optionSpecs, allowPositionals: true, strict: true }) as typeof parsed;
    } catch (error) {
      const message = (error as Error).message.split('\n')[0];
      const unknown = /Unknown option '([^']+)'/.exec(message);
      throw new CommandParseError(unknown ? `unrecognized arguments: ${unknown[1]}` : message);
    }
    const options: CommandOptions = {};
    for (const spec of this.arguments) {
      if (spec.positional) continue;
      let value = parsed.values[spec.name];
      if (value === undefined) {
        if (spec.required) throw new CommandParseError(`the following arguments are required: --${spec.name}`);
        value = spec.default ?? (this.typeOf(spec) === 'boolean' ? false : spec.multiple ? [] : undefined);
      } else {
        value = this.convert(spec, value);
      }
      options[camelCase(spec.name)] = value;
    }
    const positionals = [...parsed.positionals];
    const missing: string[] = [];
    for (const spec of this.arguments.filter((a) => a.positional)) {
      let value: unknown;
      if (spec.multiple) value = positionals.splice(0);
      else value = positionals.shift();
      const absent = value === undefined || (Array.isArray(value) && value.length === 0);
      if (absent) {
        if (spec.required !== false && spec.default === undefined) missing.push(spec.name);
        value = spec.default ?? (spec.multiple ? [] : undefined);
      } else {
        value = this.convert(spec, value);
      }
      options[camelCase(spec.name)] = value;
    }
    if (missing.length) throw new CommandParseError(`the following arguments are required: ${missing.join(', ')}`);
    if (positionals.length) throw new CommandParseError(`unrecognized arguments: ${positionals.join(' ')}`);
    return options;
  }
}

/** Where a command's output goes and its input comes from. */
export interface CommandIO {
  stdout?: OutputStream;
  stderr?: OutputStream;
  stdin?: NodeJS.ReadableStream;
}

/**
 * The base class of management commands. Override `addArguments()` to declare arguments
 * and `handle()` to do the work; raise `CommandError` for failures the user should read.
 */
export abstract class BaseCommand {
  /** A one-line description shown by `help`. */
  static help = '';
  stdout: OutputStream;
  stderr: OutputStream;
  stdin: NodeJS.ReadableStream;
  /** The command's name, as typed. */
  name = '';

  constructor(io: CommandIO = {}) {
    this.stdout = io.stdout ?? process.stdout;
    this.stderr = io.stderr ?? process.stderr;
    this.stdin = io.stdin ?? process.stdin;
  }

  /** Declare the command's arguments (none by default). */
  addArguments(_parser: CommandParser): void {}

  /**
   * Do the work; `options` holds each argument under its camelCased name. Return a number to
   * exit with that status without an error message (`makemigrations --check` returns 1).
   */
  abstract handle(options: CommandOptions): Promise<void | number> | void | number;

  /** The parser for this command, with the common options every command accepts. */
  createParser(prog: string): CommandParser {
    const parser = new CommandParser(prog, (this.constructor as typeof BaseCommand).help);
    parser.addArgument({ name: 'verbosity', short: 'v', type: 'number', default: 1, help: 'Verbosity level; 0=minimal output, 1=normal output, 2=verbose output, 3=very verbose output' });
    parser.addArgument({ name: 'settings', type: 'string', help: 'The settings module path (SETTINGS_MODULE), e.g. "demo/settings".' });
    parser.addArgument({ name: 'traceback', type: 'boolean', help: 'Raise on CommandError exceptions' });
    parser.addArgument({ name: 'no-color', type: 'boolean', help: "Don't colorize the command output." });
    this.addArguments(parser);
    return parser;
  }
}

/** A concrete command class. */
export type CommandConstructor = (new (io?: CommandIO) => BaseCommand) & { help: string };

let appsError: Error | null = null;

/** The error that kept the installed apps' commands from loading, if any. */
export function getAppsError(): Error | null {
  return appsError;
}

interface CommandEntry {
  app: string;
  load: () => CommandConstructor;
}

const CORE_COMMANDS_DIR = path.join(__dirname, 'commands');

function loadCommandModule(file: string): CommandConstructor {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(file) as { default?: CommandConstructor; Command?: CommandConstructor };
  const cls = mod.default ?? mod.Command;
  if (typeof cls !== 'function') throw new Error(`${file} does not export a command class (default export).`);
  return cls;
}

/**
 * True for a command class: a class whose instances have `handle()` (a `BaseCommand`
 * subclass, compared by shape so that a second copy of the framework's module still counts).
 */
function isCommandConstructor(value: unknown): value is CommandConstructor {
  return typeof value === 'function' && typeof Reflect.get(value.prototype ?? {}, 'handle') === 'function';
}

/** An app's command class, checked. */
function commandClass(cls: unknown, name: string): CommandConstructor {
  if (!isCommandConstructor(cls)) throw new Error(`The command '${name}' is not a command class (a BaseCommand subclass with handle()).`);
  return cls;
}

/** The commands of a folder: every `<name>.ts` (or `.js` when compiled) is the command `<name>`. */
function commandsInFolder(folder: string, app: string, out = new Map<string, CommandEntry>()): Map<string, CommandEntry> {
  let files: string[] = [];
  try {
    files = fs.readdirSync(folder);
  } catch {
    return out;
  }
  const seen = new Set<string>();
  for (const file of files.sort()) {
    const match = /^([a-z_][a-z0-9_]*)\.(ts|js)$/.exec(file);
    if (!match || file.endsWith('.d.ts') || seen.has(match[1])) continue;
    seen.add(match[1]);
    out.set(match[1], { app, load: () => loadCommandModule(path.join(folder, file)) });
  }
  return out;
}

function coreCommands(): Map<string, CommandEntry> {
  return commandsInFolder(CORE_COMMANDS_DIR, 'core');
}

/**
 * Every available command by name: the core ones, then each installed app's (an app's
 * command replaces a core command of the same name, as in the host framework).
 */
export function getCommands(): Map<string, CommandEntry> {
  const commands = coreCommands();
  appsError = null;
  let configs: readonly AppConfig[];
  try {
    configs = apps.getAppConfigs();
  } catch (error) {
    // Core commands stay available (help, shell) while the apps are broken.
    appsError = error instanceof Error ? error : new Error(String(error));
    return commands;
  }
  for (const config of configs) {
    if (!config.commands) continue;
    if (typeof config.commands === 'string') {
      commandsInFolder(path.resolve(config.path ?? '.', config.commands), config.label, commands);
      continue;
    }
    for (const [name, cls] of Object.entries(config.commands())) {
      commands.set(name, { app: config.label, load: () => commandClass(cls, name) });
    }
  }
  return commands;
}

/** The class of the command `name`, or null when there is none. */
export function loadCommandClass(name: string): CommandConstructor | null {
  const entry = getCommands().get(name);
  return entry ? entry.load() : null;
}

/**
 * Core commands whose primary process must not load the installed apps when it supervises
 * (the command line asks for it, e.g. `serve --workers 2`): it only supervises there (its
 * workers, forked first, load the project and may run an app's override of it).
 * `serve --workers 1` serves in its own process, which runs an app's override as any command.
 */
const SUPERVISING_COMMANDS: ReadonlyMap<string, (argv: readonly string[]) => boolean> = new Map([['serve', serveSupervises]]);

function commandClassFor(name: string, argv: readonly string[]): CommandConstructor | null {
  if (cluster.isPrimary && SUPERVISING_COMMANDS.get(name)?.(argv)) {
    const core = coreCommands().get(name);
    if (core) return core.load();
  }
  return loadCommandClass(name);
}

/** The program name shown in messages. */
export const PROG = 'manage.ts';

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Run a command from argv (`['migrate', '--fake-initial']`) and answer the exit status.
 * Prints usage errors and `CommandError`s to stderr instead of throwing.
 */
export async function runCommand(name: string, argv: string[], io: CommandIO = {}): Promise<number> {
  const stderr = io.stderr ?? process.stderr;
  let cls: CommandConstructor | null;
  try {
    cls = commandClassFor(name, argv);
  } catch (error) {
    stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    return 1;
  }
  if (!cls) {
    if (appsError) stderr.write(`${appsError.name}: ${appsError.message}\n`);
    stderr.write(`Unknown command: '${name}'. Type '${PROG} help' for usage.\n`);
    return 1;
  }
  const command = new cls(io);
  command.name = name;
  const parser = command.createParser(`${PROG} ${name}`);
  if (argv.includes('-h') || argv.includes('--help')) {
    (io.stdout ?? process.stdout).write(parser.formatHelp());
    return 0;
  }
  let options: CommandOptions;
  try {
    options = parser.parse(argv);
  } catch (error) {
    if (!(error instanceof CommandParseError)) throw error;
    stderr.write(`${parser.usage()}\n${PROG} ${name}: error: ${error.message}\n`);
    return 1;
  }
  try {
    const status = await command.handle(options);
    return typeof status === 'number' ? status : 0;
  } catch (error) {
    if (error instanceof CommandError && !options.traceback) {
      stderr.write(`${error.displayText()}\n`);
      return error.returnCode;
    }
    stderr.write(`${error instanceof Error ? error.stack ?? errorMessage(error) : String(error)}\n`);
    return 1;
  }
}

/** The entry point of `manage.ts`: `argv` without node and the script. */
export async function runFromArgv(argv: string[], io: CommandIO = {}): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h') return runCommand('help', [], io);
  if (name === '--version') {
    const pkg = JSON.parse(fs.readFileSync(path.join(FRAMEWORK_PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
    (io.stdout ?? process.stdout).write(`${pkg.version}\n`);
    return 0;
  }
  return runCommand(name, rest, io);
}

/** The captured result of `callCommand()`. */
export interface CommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Run a command in process with captured output (for specs):
 * `await callCommand('drf_create_token', ['alice'])`.
 */
export async function callCommand(name: string, argv: string[] = [], io: { stdin?: NodeJS.ReadableStream | string } = {}): Promise<CommandResult> {
  let out = '';
  let err = '';
  let stdin: NodeJS.ReadableStream;
  if (typeof io.stdin === 'string') {
    const stream = new PassThrough();
    stream.end(io.stdin);
    stdin = stream;
  } else {
    stdin = io.stdin ?? new PassThrough();
  }
  const exitCode = await runCommand(name, argv, {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    stdin,
  });
  return { exitCode, stdout: out, stderr: err };
}
