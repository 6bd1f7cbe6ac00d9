/**
 * Dotted-path imports: `importString('api_framework.renderers.JSONRenderer')` loads the module
 * and returns its export, the way settings name classes by string.
 */
import path from 'node:path';
import { ImproperlyConfigured, SOURCE_ROOT } from './conf';

/** Module path prefixes, longest first, mapped to folders of this project. */
const PREFIXES: Array<[string, string]> = [
  ['api_framework.authtoken.', 'contrib/authtoken/'],
  ['api_framework.browsable.', 'contrib/browsable/'],
  ['api_framework.', 'lib/'],
  ['contrib.', 'contrib/'],
  ['demo.', 'demo/'],
  ['lib.', 'lib/'],
  ['spec.', 'spec/'],
];

const aliases = new Map<string, string>();

/** Make `dottedPath` resolve to `target` (another dotted path), e.g. for re-homed classes. */
export function registerAlias(dottedPath: string, target: string): void {
  aliases.set(dottedPath, target);
}

/** Turn a dotted module path (`contrib.auth.models`) into a file path under the project root. */
export function modulePathToFile(modulePath: string): string {
  const dotted = `${modulePath}.`;
  for (const [prefix, folder] of PREFIXES) {
    if (dotted.startsWith(prefix)) {
      const rest = modulePath.slice(prefix.length);
      return path.join(SOURCE_ROOT, folder, ...rest.split('.').filter(Boolean));
    }
  }
  return path.join(SOURCE_ROOT, ...modulePath.split('.'));
}

/** Load a module by dotted path (`demo.urls`) or project-relative path (`demo/urls`). */
export function importModule(modulePath: string): Record<string, unknown> {
  const file = modulePath.includes('/') ? path.resolve(SOURCE_ROOT, modulePath) : modulePathToFile(modulePath);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(file) as Record<string, unknown>;
}

/**
 * Import the attribute named by the last segment of `dottedPath` from the module named by
 * the rest. `settingName` (if given) is named in the error when the path is bad.
 */
export function importString<T = unknown>(dottedPath: string, settingName?: string): T {
  const target = aliases.get(dottedPath) ?? dottedPath;
  const dot = target.lastIndexOf('.');
  const where = settingName ? ` for API setting '${settingName}'` : '';
  if (dot <= 0) {
    throw new ImproperlyConfigured(`Could not import '${dottedPath}'${where}: '${dottedPath}' doesn't look like a module path.`);
  }
  const moduleName = target.slice(0, dot);
  const attr = target.slice(dot + 1);
  let mod: Record<string, unknown>;
  try {
    mod = importModule(moduleName);
  } catch (error) {
    throw new ImproperlyConfigured(
      `Could not import '${dottedPath}'${where}. ${(error as Error).name}: ${(error as Error).message.split('\n')[0]}.`,
    );
  }
  if (!(attr in mod)) {
    throw new ImproperlyConfigured(
      `Could not import '${dottedPath}'${where}. ImportError: Module "${moduleName}" does not define a "${attr}" attribute/class.`,
    );
  }
  return mod[attr] as T;
}
