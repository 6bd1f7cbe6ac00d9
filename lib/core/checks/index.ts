/**
 * The system check framework (the host framework's `django.core.checks`): register checks,
 * run them (`check`, and before `runserver`/`serve`/`migrate`), report them.
 */
export { CheckMessage, Debug, Info, Warning, Error, Critical, DEBUG, INFO, WARNING, ERROR, CRITICAL, LEVELS } from './messages';
export { register, registry, CheckRegistry, Tags, type CheckFunction, type RunChecksOptions } from './registry';
export { runSystemChecks, SystemCheckError, type SystemCheckOptions } from './report';
export { isStrongSecretKey, SECRET_KEY_MIN_LENGTH, SECRET_KEY_MIN_UNIQUE_CHARACTERS } from './security';
export { unappliedMigrations } from './migrations';
