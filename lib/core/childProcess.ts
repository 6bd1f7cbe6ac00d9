/**
 * How to start another process of this project (the reloader's server child, cluster
 * workers). Node built-ins only: the reloader's parent process loads this and nothing else.
 */

/**
 * The node flags a child process needs to run this project's entry point: the parent's own,
 * plus ts-node's transpile-only hook when running from TypeScript sources (e.g. under
 * `npx ts-node`, which registers itself without putting a flag in `execArgv`).
 */
export function childExecArgv(): string[] {
  const execArgv = [...process.execArgv];
  const fromSources = __filename.endsWith('.ts');
  // ts-node registers itself when the entry script is its own bin (`npx ts-node manage.ts`).
  const registered = execArgv.some((arg) => arg.includes('ts-node')) || /ts-node/.test(process.argv[1] ?? '');
  if (fromSources && !registered) execArgv.push('-r', require.resolve('ts-node/register/transpile-only'));
  return execArgv;
}
