/**
 * Loaded before every spec file (uvu `-r`): installs the test settings once for the whole
 * process. Suites that need other values use `overrideSettings` and restore them.
 */
import 'reflect-metadata';
import { setupSettings } from '../lib/core/conf';

process.env.API_FRAMEWORK_QUIET = '1';
setupSettings(process.env.SETTINGS_MODULE || 'spec/settings');
