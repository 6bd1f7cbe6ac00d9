/**
 * Settings used by the test suite. The database comes from DATABASE_URL (SQLite in memory by
 * default); each suite still gets its own database through `useTestDatabase()`.
 */
import type { ProjectSettings } from '../lib/core/conf';

const testSettings: Partial<ProjectSettings> = {
  DEBUG: false,
  SECRET_KEY: 'test-secret-key-not-for-production-0123456789-abcdefghijklmn',
  ALLOWED_HOSTS: ['127.0.0.1', 'localhost', '[::1]', '.example.com'],
  INSTALLED_APPS: ['contrib.auth', 'contrib.sessions', 'contrib.authtoken'],
  MIDDLEWARE: [
    'contrib.sessions.middleware.SessionMiddleware',
    'lib.core.middleware.CommonMiddleware',
    'contrib.sessions.csrf.CsrfViewMiddleware',
    'contrib.auth.middleware.AuthenticationMiddleware',
  ],
  ROOT_URLCONF: 'spec.urls',
  DATABASE_URL: process.env.DATABASE_URL || 'sqlite::memory:',
  CACHE_URL: process.env.CACHE_URL || null,
  ACCESS_LOG: false,
  API_FRAMEWORK: {},
};

export default testSettings;
