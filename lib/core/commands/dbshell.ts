/**
 * `manage.ts dbshell [-- ARGS]`: the database's command-line client with the connection's
 * parameters: `sqlite3 <file>` or `mariadb`/`mysql` (the password through `MYSQL_PWD`, as the
 * host framework passes it); arguments after `--` go to the client.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { settings } from '../conf';
import { BaseCommand, CommandError, CommandParser, type CommandOptions } from '../management';
import { parseDatabaseUrl, type DatabaseConfig } from '../db/connection';

/** The program on PATH named `name`, or null. */
export function findExecutable(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return null;
}

/** The client program, its arguments and extra environment for a database. */
export interface ShellCommand {
  program: string;
  args: string[];
  env: Record<string, string>;
}

/** The client command line for `config` (`clients` are tried in order; the first on PATH wins). */
export function shellCommand(config: DatabaseConfig, parameters: readonly string[] = [], env: NodeJS.ProcessEnv = process.env): ShellCommand {
  if (config.vendor === 'sqlite') {
    if (!config.storage || config.storage === ':memory:') throw new CommandError('The database is in memory (sqlite::memory:): there is no file for dbshell to open.');
    const program = findExecutable('sqlite3', env);
    if (!program) throw new CommandError("You appear not to have the 'sqlite3' program installed or on your path.");
    return { program, args: [config.storage, ...parameters], env: {} };
  }
  const program = findExecutable('mariadb', env) ?? findExecutable('mysql', env);
  if (!program) throw new CommandError("You appear not to have the 'mysql' program installed or on your path.");
  const args: string[] = [];
  if (config.user) args.push(`--user=${config.user}`);
  if (config.host) args.push(`--host=${config.host}`);
  if (config.port) args.push(`--port=${config.port}`);
  if (config.database) args.push(config.database);
  args.push(...parameters);
  return { program, args, env: config.password ? { MYSQL_PWD: config.password } : {} };
}

/** Runs the command-line client for the database. */
export default class DbshellCommand extends BaseCommand {
  static override help = 'Runs the command-line client for specified database, or the default database if none is provided.';

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'parameters', positional: true, multiple: true, required: false, help: 'Additional arguments to pass to the client (after --).' });
  }

  override async handle(options: CommandOptions): Promise<void> {
    const parameters = Array.isArray(options.parameters) ? options.parameters.map(String) : [];
    const command = shellCommand(parseDatabaseUrl(settings.DATABASE_URL), parameters);
    const code = await new Promise<number>((resolve, reject) => {
      const child = spawn(command.program, command.args, { stdio: 'inherit', env: { ...process.env, ...command.env } });
      child.once('error', reject);
      child.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
    });
    if (code !== 0) throw new CommandError(`"${[path.basename(command.program), ...command.args].join(' ')}" returned non-zero exit status ${code}.`, { returnCode: code });
  }
}
