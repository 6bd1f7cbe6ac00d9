/**
 * A project's spec run (the host framework's `django.setup()` plus
 * `setup_test_environment()`): loaded once, before the spec files, by the project's test setup
 * module (`testSetup.ts`, written by `startproject`).
 */
import { setProjectRoot, setupSettings } from './conf';
import { allowTestClientHost } from './http';

/** Options of `setupTestProject()`. */
export interface TestProjectOptions {
  /** The project's folder (pass `__dirname` from a module in the project root). */
  projectDir?: string;
  /** The settings module used when `SETTINGS_MODULE` does not name one. */
  settingsModule?: string;
}

/**
 * Make the project the process serves, load its settings, keep expected server errors out of
 * the test output (`API_FRAMEWORK_QUIET`), and allow the test clients' host `testserver`.
 */
export function setupTestProject(options: TestProjectOptions = {}): void {
  if (options.projectDir !== undefined) setProjectRoot(options.projectDir);
  if (!process.env.SETTINGS_MODULE && options.settingsModule) process.env.SETTINGS_MODULE = options.settingsModule;
  process.env.API_FRAMEWORK_QUIET ??= '1';
  setupSettings();
  allowTestClientHost();
}
