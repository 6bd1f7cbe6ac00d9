/**
 * Host names: splitting `Host` into domain and port, and matching it against ALLOWED_HOSTS.
 */

/** The host's parts as `[domain, port]`; `['', '']` when the host is malformed. */
export function splitDomainPort(host: string): [string, string] {
  const lowered = host.toLowerCase();
  if (!/^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(:\d+)?$/.test(lowered)) return ['', ''];
  if (lowered.endsWith(']')) return [lowered, ''];
  const colon = lowered.lastIndexOf(':');
  let domain = colon >= 0 ? lowered.slice(0, colon) : lowered;
  const port = colon >= 0 ? lowered.slice(colon + 1) : '';
  if (domain.endsWith('.')) domain = domain.slice(0, -1);
  return [domain, port];
}

/** True when `host` matches a pattern of ALLOWED_HOSTS (`*`, `.example.com`, `example.com`). */
export function validateHost(host: string, allowedHosts: readonly string[]): boolean {
  return allowedHosts.some((raw) => {
    if (raw === '*') return true;
    const pattern = raw.toLowerCase();
    if (pattern.startsWith('.')) return host.endsWith(pattern) || host === pattern.slice(1);
    return host === pattern;
  });
}

/** A host as the original's error messages quote it (Python's repr of a string). */
export function pyRepr(value: string): string {
  return value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value.replace(/'/g, "\\'")}'`;
}

let testServerAllowed = false;

/**
 * The host framework's `setup_test_environment()` for hosts: the test clients' host name,
 * `testserver`, is allowed in addition to `ALLOWED_HOSTS`. The test tools (`api_framework/test`)
 * and the `test` command call it; `teardownTestEnvironment()` undoes it.
 */
export function setupTestEnvironment(): void {
  testServerAllowed = true;
}

/** Undo `setupTestEnvironment()`: `testserver` must be in `ALLOWED_HOSTS` again. */
export function teardownTestEnvironment(): void {
  testServerAllowed = false;
}

/** `ALLOWED_HOSTS` as requests are validated against: plus `testserver` in a test environment. */
export function effectiveAllowedHosts(allowedHosts: readonly string[]): readonly string[] {
  return testServerAllowed ? [...allowedHosts, 'testserver'] : allowedHosts;
}
