/**
 * Host names: splitting `Host` into domain and port, and matching it against ALLOWED_HOSTS.
 */
import { onSettingChanged, settings } from '../conf';

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
  allowedHostMemo.clear();
}

/** `ALLOWED_HOSTS` as requests are validated against: plus `testserver` while tests run. */
export function effectiveAllowedHosts(allowedHosts: readonly string[]): readonly string[] {
  return testClientHostAllowed ? [...allowedHosts, 'testserver'] : allowedHosts;
}

/** The most host values whose verdict `isAllowedHost()` keeps (the Host header is the client's). */
const MAX_REMEMBERED_HOSTS = 256;

/** host value -> allowed; forgotten when a setting changes or the test host is allowed. */
const allowedHostMemo = new Map<string, boolean>();

onSettingChanged(() => {
  allowedHostMemo.clear();
});

/**
 * True when the domain of `host` (a Host value, port included) is valid and matches
 * `ALLOWED_HOSTS` (with DEBUG and an empty list: `.localhost`, `127.0.0.1`, `[::1]`; plus
 * `testserver` while tests run), as `HttpRequest.getHost()` requires. The verdict depends on
 * the settings only, so it is remembered per host value.
 */
export function isAllowedHost(host: string): boolean {
  let allowed = allowedHostMemo.get(host);
  if (allowed === undefined) {
    let patterns: readonly string[] = settings.ALLOWED_HOSTS;
    if (settings.DEBUG && patterns.length === 0) patterns = ['.localhost', '127.0.0.1', '[::1]'];
    const [domain] = splitDomainPort(host);
    allowed = domain !== '' && validateHost(domain, effectiveAllowedHosts(patterns));
    if (allowedHostMemo.size >= MAX_REMEMBERED_HOSTS) allowedHostMemo.clear();
    allowedHostMemo.set(host, allowed);
  }
  return allowed;
}
