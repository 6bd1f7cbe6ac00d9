/**
 * The test environment of a project's spec run (the host framework's
 * `setup_test_environment`): loaded once, before the spec files, by the project's test setup
 * module (`testSetup.ts`, written by `startproject`).
 */
import { overrideSettings, setProjectRoot, settings, setupSettings } from './conf';

/** Options of `setupTestEnvironment()`. */
export interface TestEnvironmentOptions {
  /** The project's folder (pass `__dirname` from a module in the project root). */
  projectDir?: string;
  /** The settings module used when `SETTINGS_MODULE` does not name one. */
  settingsModule?: string;
}

/**
 * Make the project the process serves, load its settings, keep expected server errors out of
 * the test output (`API_FRAMEWORK_QUIET`), and allow the test client's host `testserver` as
 * the host framework's test runner does.
 */
export function setupTestEnvironment(options: TestEnvironmentOptions = {}): void {
  if (options.projectDir !== undefined) setProjectRoot(options.projectDir);
  if (!process.env.SETTINGS_MODULE && options.settingsModule) process.env.SETTINGS_MODULE = options.settingsModule;
  process.env.API_FRAMEWORK_QUIET ??= '1';
  setupSettings();
  if (!settings.ALLOWED_HOSTS.includes('testserver')) overrideSettings.enter({ ALLOWED_HOSTS: [...settings.ALLOWED_HOSTS, 'testserver'] });
}
