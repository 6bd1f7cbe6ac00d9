/**
 * Security checks. With DEBUG off, a missing or weak `SECRET_KEY` and an empty `ALLOWED_HOSTS`
 * are errors (`runserver`, `serve` and `migrate` refuse to start); `check --deploy` adds the
 * host framework's deployment warnings (`security.W004` ... `security.W020`).
 */
import { settings, DEVELOPMENT_SECRET_KEY } from '../conf';
import { Error, Warning, type CheckMessage } from './messages';
import { register, Tags } from './registry';

/** The host framework's minimum length of a `SECRET_KEY`. */
export const SECRET_KEY_MIN_LENGTH = 50;
/** The host framework's minimum number of distinct characters in a `SECRET_KEY`. */
export const SECRET_KEY_MIN_UNIQUE_CHARACTERS = 5;
/** The prefix of keys generated for development by the host framework's `startproject`. */
export const SECRET_KEY_INSECURE_PREFIX = 'django-insecure-';

const WEAK_SECRET_KEY =
  `Your SECRET_KEY has less than ${SECRET_KEY_MIN_LENGTH} characters, less than ` +
  `${SECRET_KEY_MIN_UNIQUE_CHARACTERS} unique characters, or it's prefixed with ` +
  `'${SECRET_KEY_INSECURE_PREFIX}' indicating that it was generated automatically by ` +
  "Django. Please generate a long and random SECRET_KEY, otherwise many of Django's " +
  'security-critical features will be vulnerable to attack.';

const SECRET_KEY_HINT =
  "Set SECRET_KEY (or the SECRET_KEY environment variable) to a long random value, e.g. the output of node -e \"console.log(require('crypto').randomBytes(48).toString('base64url'))\".";

/** True when `key` passes the host framework's rule (`security.W009`), and is not the development key. */
export function isStrongSecretKey(key: unknown): boolean {
  if (typeof key !== 'string' || !key) return false;
  if (key === DEVELOPMENT_SECRET_KEY || key.startsWith(SECRET_KEY_INSECURE_PREFIX)) return false;
  return [...key].length >= SECRET_KEY_MIN_LENGTH && new Set(key).size >= SECRET_KEY_MIN_UNIQUE_CHARACTERS;
}

/**
 * DEBUG off: a weak `SECRET_KEY` is an error (`security.E009`), and so is an empty
 * `ALLOWED_HOSTS` (`security.E020`). With DEBUG on these are left to `check --deploy`.
 */
export function checkProductionSettings(): CheckMessage[] {
  if (settings.DEBUG) return [];
  const messages: CheckMessage[] = [];
  if (!isStrongSecretKey(settings.SECRET_KEY)) {
    messages.push(new Error(`${WEAK_SECRET_KEY} DEBUG is off, so this key is refused.`, { id: 'security.E009', hint: SECRET_KEY_HINT }));
  }
  if (!settings.ALLOWED_HOSTS.length) {
    messages.push(
      new Error('ALLOWED_HOSTS must not be empty when DEBUG is off.', {
        id: 'security.E020',
        hint: "List the host names this site answers to, e.g. ALLOWED_HOSTS: ['api.example.com'].",
      }),
    );
  }
  return messages;
}

function usesSecurityMiddleware(): boolean {
  return settings.MIDDLEWARE.some((entry) =>
    typeof entry === 'string' ? /(^|\.)security\.SecurityMiddleware$/.test(entry) : entry.name === 'SecurityMiddleware',
  );
}

/** `check --deploy`: the host framework's deployment warnings. */
export function checkDeployment(): CheckMessage[] {
  const messages: CheckMessage[] = [];
  if (usesSecurityMiddleware() && !settings.SECURE_HSTS_SECONDS) {
    messages.push(
      new Warning(
        'You have not set a value for the SECURE_HSTS_SECONDS setting. If your entire site is served only over SSL, ' +
          'you may want to consider setting a value and enabling HTTP Strict Transport Security. Be sure to read the ' +
          'documentation first; enabling HSTS carelessly can cause serious, irreversible problems.',
        { id: 'security.W004' },
      ),
    );
  }
  if (usesSecurityMiddleware() && settings.SECURE_SSL_REDIRECT !== true) {
    messages.push(
      new Warning(
        'Your SECURE_SSL_REDIRECT setting is not set to True. Unless your site should be available over both SSL and ' +
          'non-SSL connections, you may want to either set this setting True or configure a load balancer or ' +
          'reverse-proxy server to redirect all connections to HTTPS.',
        { id: 'security.W008' },
      ),
    );
  }
  // With DEBUG off the same rule is already an error (security.E009).
  if (settings.DEBUG && !isStrongSecretKey(settings.SECRET_KEY)) messages.push(new Warning(WEAK_SECRET_KEY, { id: 'security.W009' }));
  if (settings.DEBUG) messages.push(new Warning('You should not have DEBUG set to True in deployment.', { id: 'security.W018' }));
  if (settings.DEBUG && !settings.ALLOWED_HOSTS.length) {
    messages.push(new Warning('ALLOWED_HOSTS must not be empty in deployment.', { id: 'security.W020' }));
  }
  return messages;
}

register(checkProductionSettings, { tags: [Tags.security] });
register(checkDeployment, { tags: [Tags.security], deploy: true });
