/**
 * `manage.ts help [command]`: lists the commands grouped by app, or shows one command's
 * arguments.
 */
import { BaseCommand, CommandError, CommandParser, PROG, getAppsError, getCommands, loadCommandClass, type CommandOptions } from '../management';

/** Lists the available commands, or shows the arguments of one. */
export default class HelpCommand extends BaseCommand {
  static override help = "Lists the available subcommands, or shows the usage of one ('help <subcommand>').";

  override addArguments(parser: CommandParser): void {
    parser.addArgument({ name: 'subcommand', positional: true, required: false, help: 'The command to describe.' });
  }

  override handle(options: CommandOptions): void {
    const name = options.subcommand as string | undefined;
    if (name) {
      const cls = loadCommandClass(name);
      if (!cls) throw new CommandError(`Unknown command: '${name}'. Type '${PROG} help' for usage.`);
      const command = new cls({ stdout: this.stdout, stderr: this.stderr, stdin: this.stdin });
      this.stdout.write(command.createParser(`${PROG} ${name}`).formatHelp());
      return;
    }
    const byApp = new Map<string, string[]>();
    for (const [commandName, entry] of getCommands()) {
      const list = byApp.get(entry.app) ?? [];
      list.push(commandName);
      byApp.set(entry.app, list);
    }
    const lines = ['', `Type '${PROG} help <subcommand>' for help on a specific subcommand.`, '', 'Available subcommands:'];
    for (const app of [...byApp.keys()].sort()) {
      lines.push('', `[${app}]`);
      for (const commandName of byApp.get(app)!.sort()) lines.push(`    ${commandName}`);
    }
    const error = getAppsError();
    if (error) {
      lines.push('', `Note that only core commands are listed as the installed apps could not be loaded (error: ${error.message}).`);
    }
    this.stdout.write(`${lines.join('\n')}\n`);
  }
}
