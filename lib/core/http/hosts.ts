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


let testClientHostAllowed = false;

/**
 * Allow (or stop allowing) the test clients' host name, `testserver`, in addition to
 * `ALLOWED_HOSTS`, as the host framework's test runner does. The test tools
 * (`api_framework/test`) and `manage.ts test` turn it on.
 */
export function allowTestClientHost(allow = true): void {
  testClientHostAllowed = allow;
}

/** `ALLOWED_HOSTS` as requests are validated against: plus `testserver` while tests run. */
export function effectiveAllowedHosts(allowedHosts: readonly string[]): readonly string[] {
  return testClientHostAllowed ? [...allowedHosts, 'testserver'] : allowedHosts;
}
