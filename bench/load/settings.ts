/**
 * The demo's settings for bench/load/concurrency.ts: no access log, and the caps on work in
 * flight from the environment (`BENCH_MAX_CONCURRENT`, `BENCH_MAX_PIPELINED`; 0 turns a cap off).
 */
import demo from '../../demo/settings';
import type { ProjectSettings } from '../../lib';

const number = (name: string): number | undefined => (process.env[name] === undefined ? undefined : Number(process.env[name]));

const settings: Partial<ProjectSettings> = {
  ...demo,
  ACCESS_LOG: false,
  ...(number('BENCH_MAX_CONCURRENT') === undefined ? {} : { SERVER_MAX_CONCURRENT_REQUESTS: number('BENCH_MAX_CONCURRENT') }),
  ...(number('BENCH_MAX_PIPELINED') === undefined ? {} : { SERVER_MAX_PIPELINED_REQUESTS: number('BENCH_MAX_PIPELINED') }),
};

export default settings;
