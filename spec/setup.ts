/**
 * Loaded before every spec file (uvu `-r`): installs the test settings once for the whole
 * process. Suites that need other values use `overrideSettings` and restore them.
 */
import 'reflect-metadata';
import { setupSettings } from '../lib/core/conf';
import { allowTestClientHost } from '../lib/core/http/hosts';
import { reportHookFailures } from '../lib/core/testHookFailures';

process.env.API_FRAMEWORK_QUIET = '1';
setupSettings(process.env.SETTINGS_MODULE || 'spec/settings');
// The test clients' host, as the host framework's test runner allows it (also when a single
// spec file that does not load the test tools runs alone).
allowTestClientHost();
// A suite whose before() hook throws fails the run (uvu 0.5 would drop the error).
// eslint-disable-next-line @typescript-eslint/no-require-imports
reportHookFailures(require('uvu') as object);
