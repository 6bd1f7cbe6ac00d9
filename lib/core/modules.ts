/**
 * Dotted-path imports: `importString('api_framework.renderers.JSONRenderer')` loads the module
 * and returns its export, the way settings name classes by string.
 */
import path from 'node:path';
import { FRAMEWORK_ROOT, ImproperlyConfigured, SOURCE_ROOT } from './conf';

/**
 * Dotted-path prefixes of the framework's own modules, longest first, mapped to their folders
 * under the framework root. The canonical spelling is `api_framework.<module>`
 * (`api_framework.renderers.JSONRenderer`, `api_framework.core.security.SecurityMiddleware`,
 * `api_framework.contrib.auth`); `api_framework.authtoken` / `.browsable` are the original's
 * names for two contrib apps; `contrib.*` and `lib.*` are older spellings kept as aliases.
 * Every other dotted path is a module of the project.
 */
const FRAMEWORK_PREFIXES: Array<[string, string]> = [
  ['api_framework.contrib.', 'contrib/'],
  ['api_framework.authtoken.', 'contrib/authtoken/'],
  ['api_framework.browsable.', 'contrib/browsable/'],
  ['api_framework.', 'lib/'],
  ['contrib.', 'contrib/'],
  ['lib.', 'lib/'],
];

/** Spellings rewritten by `canonicalModulePath()`, longest first. */
const CANONICAL_PREFIXES: Array<[string, string]> = [
  ['api_framework.authtoken.', 'api_framework.contrib.authtoken.'],
  ['api_framework.browsable.', 'api_framework.contrib.browsable.'],
  ['contrib.', 'api_framework.contrib.'],
  ['lib.', 'api_framework.'],
];

/**
 * Framework modules that moved, by canonical dotted path: settings that name the old place
 * keep working. The CSRF middleware moved from the sessions app down to the host layer's
 * middleware (`api_framework.core.middleware.csrf.CsrfViewMiddleware`, Django's
 * `django.middleware.csrf`); projects started earlier list it as
 * `api_framework.contrib.sessions.csrf.CsrfViewMiddleware`.
 */
const MOVED_MODULES = new Map<string, string>([
  ['api_framework.contrib.sessions.csrf', 'api_framework.core.middleware.csrf'],
  ['api_framework.contrib.sessions.csrfFailure', 'api_framework.core.middleware.csrfFailure'],
]);

const aliases = new Map<string, string>();

/** Make `dottedPath` resolve to `target` (another dotted path), e.g. for re-homed classes. */
export function registerAlias(dottedPath: string, target: string): void {
  aliases.set(dottedPath, target);
}

/**
 * The canonical spelling of a dotted module path: `contrib.auth` and `api_framework.authtoken`
 * become `api_framework.contrib.auth` and `api_framework.contrib.authtoken`, `lib.core.security`
 * becomes `api_framework.core.security`; project paths are returned unchanged.
 */
export function canonicalModulePath(modulePath: string): string {
  const dotted = `${modulePath}.`;
  for (const [prefix, canonical] of CANONICAL_PREFIXES) {
    if (dotted.startsWith(prefix)) return `${canonical}${dotted.slice(prefix.length)}`.slice(0, -1);
  }
  return modulePath;
}

/**
 * Turn a dotted module path into a file path (without extension): the framework's modules
 * under the framework root (`api_framework.contrib.auth.models`), the project's under the
 * project's source root (`mysite.urls`).
 */
export function modulePathToFile(modulePath: string): string {
  const moved = MOVED_MODULES.get(canonicalModulePath(modulePath));
  if (moved !== undefined) return modulePathToFile(moved);
  const dotted = `${modulePath}.`;
  for (const [prefix, folder] of FRAMEWORK_PREFIXES) {
    if (dotted.startsWith(prefix)) {
      const rest = modulePath.slice(prefix.length);
      return path.join(FRAMEWORK_ROOT, ...folder.split('/').filter(Boolean), ...rest.split('.').filter(Boolean));
    }
  }
  return path.join(SOURCE_ROOT, ...modulePath.split('.'));
}

/** The file (without extension) a dotted (`demo.urls`) or project-relative (`demo/urls`) path names. */
export function moduleFile(modulePath: string): string {
  return modulePath.includes('/') ? path.resolve(SOURCE_ROOT, modulePath) : modulePathToFile(modulePath);
}

/** Raised by `importModule()` when no file exists for the module path; names the file looked for. */
export class ModuleNotFound extends Error {
  override name = 'ModuleNotFound';
}

/**
 * Load a module by dotted path (`demo.urls`) or project-relative path (`demo/urls`). When no
 * such file exists, throws `ModuleNotFound` naming the file it looked for; errors raised while
 * loading an existing module propagate unchanged.
 */
export function importModule(modulePath: string): Record<string, unknown> {
  const file = moduleFile(modulePath);
  let resolved: string;
  try {
    resolved = require.resolve(file);
  } catch {
    throw new ModuleNotFound(`No module named '${modulePath}': there is no ${file}.ts or ${file}.js`);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(resolved) as Record<string, unknown>;
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
