/**
 * The system check registry: functions registered with `register(check, { tags, deploy })`
 * that return the problems they find. `runChecks()` runs them (the `check` command, and
 * `runserver`, `serve` and `migrate` before they start), the host framework's
 * `django.core.checks.registry`.
 *
 *     register(() => (settings.FEATURE_X && !settings.FEATURE_Y
 *       ? [new Warning('FEATURE_X needs FEATURE_Y.', { id: 'myapp.W001' })] : []), { tags: ['myapp'] });
 */
import type { CheckMessage } from './messages';

/** A check: returns (or resolves to) the problems it found, none when all is well. */
export type CheckFunction = () => CheckMessage[] | Promise<CheckMessage[]>;

/** The tags of the built-in checks (`check --tag`, `check --list-tags`). */
export const Tags = {
  apps: 'apps',
  database: 'database',
  models: 'models',
  security: 'security',
  urls: 'urls',
  middleware: 'middleware',
  serializers: 'serializers',
} as const;

interface RegisteredCheck {
  check: CheckFunction;
  tags: readonly string[];
  deploy: boolean;
}

/** Options of `runChecks()`. */
export interface RunChecksOptions {
  /** Only the checks with one of these tags. */
  tags?: readonly string[];
  /** Also the checks registered with `deploy: true` (`check --deploy`). */
  includeDeploymentChecks?: boolean;
  /** Also the checks tagged `database` (they connect to the database). */
  includeDatabaseChecks?: boolean;
}

/** Holds the registered checks; the process-wide one is `registry`. */
export class CheckRegistry {
  private readonly checks: RegisteredCheck[] = [];

  /** Register `check` (once: registering the same function again does nothing). Returns it. */
  register(check: CheckFunction, options: { tags?: readonly string[]; deploy?: boolean } = {}): CheckFunction {
    if (!this.checks.some((c) => c.check === check)) {
      this.checks.push({ check, tags: options.tags ?? [], deploy: options.deploy ?? false });
    }
    return check;
  }

  /** Forget a registered check (tests). */
  unregister(check: CheckFunction): void {
    const index = this.checks.findIndex((c) => c.check === check);
    if (index >= 0) this.checks.splice(index, 1);
  }

  /** Every tag of the checks that would run (with or without the deployment checks). */
  tagsAvailable(includeDeploymentChecks = false): string[] {
    const tags = new Set<string>();
    for (const c of this.checks) if (includeDeploymentChecks || !c.deploy) for (const tag of c.tags) tags.add(tag);
    return [...tags].sort();
  }

  /**
   * Run the selected checks in registration order and return every message. A check that
   * registers further checks while running (loading the URL conf registers the API framework's)
   * has them run in the same pass.
   */
  async runChecks(options: RunChecksOptions = {}): Promise<CheckMessage[]> {
    const messages: CheckMessage[] = [];
    for (let i = 0; i < this.checks.length; i++) {
      const { check, tags, deploy } = this.checks[i];
      if (deploy && !options.includeDeploymentChecks) continue;
      if (tags.includes(Tags.database) && !options.includeDatabaseChecks) continue;
      if (options.tags?.length && !tags.some((tag) => options.tags?.includes(tag))) continue;
      const found = await check();
      if (!Array.isArray(found)) throw new TypeError(`The system check ${check.name || 'function'} did not return a list of messages.`);
      messages.push(...found);
    }
    return messages;
  }
}

/** The process-wide registry. */
export const registry = new CheckRegistry();

/** Register a check with the process-wide registry (`registry.register`). */
export function register(check: CheckFunction, options: { tags?: readonly string[]; deploy?: boolean } = {}): CheckFunction {
  return registry.register(check, options);
}
