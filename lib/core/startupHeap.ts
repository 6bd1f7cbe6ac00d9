/**
 * V8's young generation while a server process starts. Loading the project (modules, models,
 * URL conf) keeps almost everything it allocates, so each scavenge finds most of the young
 * generation alive and V8 doubles it, up to its maximum (16 MB on 64-bit), which then stays
 * resident while the server idles: about 7 MB of the idle RSS of `serve --workers 1` (84 -> 77
 * MB for the demo). `holdYoungGeneration()` keeps it at its initial size during start-up (V8's
 * `--semi-space-growth-factor=1`: what survives goes to the old generation, where it belongs);
 * `releaseYoungGeneration()`, called once the server listens, restores V8's factor, so the
 * young generation grows again as requests allocate (peak RSS and throughput under load are
 * those of a process that never held it).
 *
 * A process started with its own `--semi-space-growth-factor` (a node flag) is left alone.
 * Node built-ins only.
 */
import v8 from 'node:v8';

/** V8's flag (both spellings V8 accepts) and its default value. */
const GROWTH_FLAG = /--semi[-_]space[-_]growth[-_]factor/;
const DEFAULT_GROWTH_FACTOR = 2;

let held = false;

/** True when node's flags set the growth factor: the user's choice stays. */
function growthFactorSetByUser(): boolean {
  return process.execArgv.some((arg) => GROWTH_FLAG.test(arg));
}

/**
 * Keep V8's young generation at its current size until `releaseYoungGeneration()`. Call it
 * first thing in a process that loads the project and then serves (`serve` does); does
 * nothing when the user set the growth factor, or when already held.
 */
export function holdYoungGeneration(): void {
  if (held || growthFactorSetByUser()) return;
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  held = true;
}

/**
 * Let the young generation grow again (V8's default factor). Call it once the process serves
 * (`runServer()` does, after listening); does nothing unless `holdYoungGeneration()` held it.
 */
export function releaseYoungGeneration(): void {
  if (!held) return;
  held = false;
  v8.setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH_FACTOR}`);
}

/** True between `holdYoungGeneration()` and `releaseYoungGeneration()`. */
export function youngGenerationHeld(): boolean {
  return held;
}
