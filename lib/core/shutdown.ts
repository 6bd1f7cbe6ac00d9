/**
 * Shutdown hooks: work to do when the process stops serving (close database pools, Redis
 * clients). Kept apart from the server so that processes that never serve (the `serve`
 * primary, which only supervises workers) can run them without loading the server.
 */

type ShutdownHook = () => unknown;

const shutdownHooks: ShutdownHook[] = [];

/**
 * Register work to do when the process stops serving (close database pools, Redis clients):
 * run after the server drained, and after each management command. Returns an unregister
 * function.
 */
export function onShutdown(hook: ShutdownHook): () => void {
  shutdownHooks.push(hook);
  return () => {
    const index = shutdownHooks.indexOf(hook);
    if (index >= 0) shutdownHooks.splice(index, 1);
  };
}

/**
 * Run the registered shutdown hooks, latest registered first, and forget them (a second
 * call does nothing); failures are logged to stderr.
 */
export async function runShutdownHooks(): Promise<void> {
  const hooks = shutdownHooks.splice(0).reverse();
  for (const hook of hooks) {
    try {
      await hook();
    } catch (error) {
      process.stderr.write(`Error during shutdown: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    }
  }
}
