/**
 * V8's young-generation garbage collection for a serving process that can run on one CPU only
 * (pinned with `taskset`, or a container's cpuset of one). V8 scavenges with parallel tasks on
 * node's worker threads (four by default); on one CPU those threads only take turns with the
 * main thread, so a scavenge costs more than the main thread doing it alone. Measured with the
 * demo pinned to one CPU (wrk -c32, CPU per request): `GET /snippets/1/` 158-181 -> 148-162 µs,
 * `GET /` 51-53 -> 45-46 µs. A process that can use several CPUs keeps V8's default.
 *
 * A process started with its own `--parallel-scavenge` / `--no-parallel-scavenge` (a node flag)
 * is left alone. Node built-ins only.
 */
import os from 'node:os';
import v8 from 'node:v8';

/** V8's flag, in any spelling V8 accepts, with or without `no-`. */
const PARALLEL_SCAVENGE_FLAG = /^--(no[-_])?parallel[-_]scavenge(=|$)/;

/**
 * Whether a process that can run on `cpus` CPUs, started with node flags `execArgv`, should turn
 * V8's parallel scavenging off: only on one CPU, and only when the flags do not choose.
 */
export function parallelScavengeOffWanted(cpus: number, execArgv: readonly string[]): boolean {
  return cpus <= 1 && !execArgv.some((arg) => PARALLEL_SCAVENGE_FLAG.test(arg));
}

/**
 * Turn V8's parallel scavenging off when this process can run on one CPU only (see the module
 * comment). Call it once in a process that serves (`serve` does); answers whether it did.
 */
export function tuneGcForAvailableCpus(): boolean {
  if (!parallelScavengeOffWanted(os.availableParallelism(), process.execArgv)) return false;
  v8.setFlagsFromString('--no-parallel-scavenge');
  return true;
}
