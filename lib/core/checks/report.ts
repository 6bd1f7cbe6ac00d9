/**
 * Running the system checks for a command and reporting them as the host framework does:
 * grouped by level (`ERRORS:`, `WARNINGS:` ...), `System check identified N issues (M
 * silenced).`, and a `SystemCheckError` when a message reaches the fail level.
 */
import { settings } from '../conf';
import { CommandError, type OutputStream } from '../management';
import { CRITICAL, DEBUG, ERROR, INFO, WARNING, type CheckMessage } from './messages';
import { registry, type RunChecksOptions } from './registry';
import './core';
import './security';
import './migrations';

/** Raised when a check message reaches the fail level: printed as is, exit status 1. */
export class SystemCheckError extends CommandError {
  override name = 'SystemCheckError';

  /** The report as is (it starts with `SystemCheckError: `). */
  override displayText(): string {
    return this.message;
  }
}

/** Options of `runSystemChecks()`. */
export interface SystemCheckOptions extends RunChecksOptions {
  /** Messages at or above this level fail (default ERROR). */
  failLevel?: number;
  /** Print the `System check identified ...` line also when there are no issues. */
  displayNumErrors?: boolean;
  stdout: OutputStream;
  stderr: OutputStream;
}

const GROUPS: Array<[string, (m: CheckMessage) => boolean]> = [
  ['CRITICALS', (m) => m.level >= CRITICAL],
  ['ERRORS', (m) => m.level >= ERROR && m.level < CRITICAL],
  ['WARNINGS', (m) => m.level >= WARNING && m.level < ERROR],
  ['INFOS', (m) => m.level >= INFO && m.level < WARNING],
  ['DEBUGS', (m) => m.level >= DEBUG && m.level < INFO],
];

function pluralIssues(count: number): string {
  return count === 0 ? 'no issues' : count === 1 ? '1 issue' : `${count} issues`;
}

/** The settings' `SILENCED_SYSTEM_CHECKS` (ids of messages not to report). */
function silencedIds(): string[] {
  const value = settings.SILENCED_SYSTEM_CHECKS;
  return Array.isArray(value) ? value.map(String) : [];
}

/**
 * Run the registered checks and report them: nothing when all is well (unless
 * `displayNumErrors`), the issues on stderr when there are some, and a `SystemCheckError`
 * (the whole report as its message) when one reaches `failLevel`. Returns the visible messages.
 */
export async function runSystemChecks(options: SystemCheckOptions): Promise<CheckMessage[]> {
  const all = await registry.runChecks(options);
  const silenced = silencedIds();
  const visible = all.filter((m) => !m.isSilenced(silenced));
  const failLevel = options.failLevel ?? ERROR;
  const header = visible.length ? 'System check identified some issues:\n' : '';
  let body = '';
  for (const [title, inGroup] of GROUPS) {
    const group = visible.filter(inGroup).map(String).sort();
    if (group.length) body += `\n${title}:\n${group.join('\n')}\n`;
  }
  let footer = '';
  if (options.displayNumErrors) {
    if (visible.length) footer += '\n';
    footer += `System check identified ${pluralIssues(visible.length)} (${all.length - visible.length} silenced).`;
  }
  if (visible.some((m) => m.isSerious(failLevel))) {
    throw new SystemCheckError(`SystemCheckError: ${header}${body}${footer}`);
  }
  const report = `${header}${body}${footer}`;
  if (report) (visible.length ? options.stderr : options.stdout).write(`${report}\n`);
  return visible;
}
