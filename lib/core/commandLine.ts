/**
 * The body of a project's `manage.ts` (the host framework's `execute_from_command_line`):
 * loads the settings (`SETTINGS_MODULE` or `--settings`) and runs the management command.
 */
import 'reflect-metadata';
import { setupSettings } from './conf';
import { runFromArgv } from './management';
import { runShutdownHooks } from './server';

function settingsFromArgv(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--settings') return argv[i + 1];
    if (argv[i].startsWith('--settings=')) return argv[i].slice('--settings='.length);
  }
  return undefined;
}

async function main(argv: string[]): Promise<number> {
  const settingsModule = settingsFromArgv(argv);
  if (settingsModule) process.env.SETTINGS_MODULE = settingsModule;
  try {
    setupSettings();
  } catch (error) {
    process.stderr.write(`${(error as Error).name}: ${(error as Error).message}\n`);
    // Like the host framework, `help` still lists the core commands without settings.
    const command = argv.find((arg) => !arg.startsWith('-'));
    if (command !== undefined && command !== 'help') return 1;
  }
  return runFromArgv(argv);
}

/** Run the command in `argv`, then the shutdown hooks, then exit with the command's status. */
export function executeFromCommandLine(argv: string[]): void {
  main(argv)
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      return 1;
    })
    .then(async (code) => {
      await runShutdownHooks();
      process.exit(code);
    });
}
