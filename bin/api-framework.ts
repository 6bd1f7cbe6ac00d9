#!/usr/bin/env node
/**
 * The `api-framework` command of the installed package (the host framework's `django-admin`):
 * `npx api-framework startproject mysite [DIR]` writes a new project; other commands run
 * against the project in the working directory (`--settings` or `SETTINGS_MODULE` names its
 * settings module), as its own `manage.ts` would.
 */
import 'reflect-metadata';
import { executeFromCommandLine } from '../lib/core/commandLine';

executeFromCommandLine(process.argv.slice(2), { projectDir: process.cwd() });
