#!/usr/bin/env node
/**
 * The project's command-line entry point: `npx ts-node manage.ts <command> [options]`, or
 * compiled, `node dist/manage.js <command>`. Loads the settings (`SETTINGS_MODULE` or
 * `--settings`), then dispatches to the management command. `runserver` with its reloader
 * starts the watching parent first, which loads nothing of the project.
 */
import { reloaderRequested, runWithReloader } from './lib/core/autoreload';

const argv = process.argv.slice(2);

if (reloaderRequested(argv)) {
  void runWithReloader({ projectDir: __dirname, argv }).then((code) => process.exit(code));
} else {
  // Loaded only here, so that the reloader's parent stays a bare watcher.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./lib/core/commandLine') as { executeFromCommandLine(argv: string[]): void }).executeFromCommandLine(argv);
}
