#!/usr/bin/env node
/**
 * The demo project's command-line entry point: `npx ts-node manage.ts <command> [options]`, or
 * compiled, `node dist/manage.js <command>`. Loads the settings (`SETTINGS_MODULE` or
 * `--settings`, default the demo's), then dispatches to the management command; `runserver`
 * with its reloader starts the watching parent first, which loads nothing of the project. A
 * project made by `startproject` has the same file, importing `api_framework/management`;
 * this one imports the framework's sources next to it, because loading the framework is what
 * makes those public names resolve inside this repository.
 */
import { executeFromCommandLine } from './lib/core/commandLine';

executeFromCommandLine(process.argv.slice(2), { projectDir: __dirname, settingsModule: 'demo/settings' });
