/**
 * Makes the package's public entry points (`api_framework`, `api_framework/db`, ...) resolve to
 * THIS copy of the framework in every process that loaded it: the demo in this repository
 * (under ts-node the names resolve to the TypeScript sources, compiled to `dist/`), and a
 * project that installed the package (where they resolve to the same files Node would find).
 * So code imports the framework only by its public names, and one process never holds two
 * copies of it (two settings objects, two model registries).
 *
 * Installed once, as a side effect of loading `lib/core/conf` (which every process of the
 * framework loads first). Only the exact entry point names are touched.
 */
import Module from 'node:module';
import path from 'node:path';
import { ENTRY_POINTS } from './entryPoints';

type ResolveFilename = (request: string, parent: unknown, isMain: boolean, options?: unknown) => string;

const frameworkRoot = path.resolve(__dirname, '..', '..');
const INSTALLED = Symbol.for('api_framework.selfReference');
const moduleWithResolver = Module as unknown as { _resolveFilename: ResolveFilename } & Record<symbol, unknown>;

if (!moduleWithResolver[INSTALLED]) {
  moduleWithResolver[INSTALLED] = frameworkRoot;
  const original = moduleWithResolver._resolveFilename;
  moduleWithResolver._resolveFilename = function resolveEntryPoints(this: unknown, request, parent, isMain, options) {
    const target = Object.prototype.hasOwnProperty.call(ENTRY_POINTS, request) ? ENTRY_POINTS[request] : undefined;
    const resolved = target === undefined ? request : path.join(frameworkRoot, target);
    return original.call(this, resolved, parent, isMain, options);
  };
}
