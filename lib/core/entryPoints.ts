/**
 * The package's public entry points: the names a project imports (`api_framework`,
 * `api_framework/db`, ...) and the module each one is, relative to the framework's code root.
 * package.json's `exports` and `typesVersions` and tsconfig.json's `paths` list the same names
 * (spec/package.spec.ts checks that they agree).
 */
export const ENTRY_POINTS: Readonly<Record<string, string>> = {
  api_framework: 'lib/index',
  'api_framework/db': 'lib/core/db/index',
  'api_framework/test': 'lib/test',
  'api_framework/management': 'lib/core/commandLine',
  'api_framework/contrib/auth': 'contrib/auth/index',
  'api_framework/contrib/sessions': 'contrib/sessions/index',
  'api_framework/contrib/authtoken': 'contrib/authtoken/index',
  'api_framework/contrib/browsable': 'contrib/browsable/index',
  'api_framework/contrib/admin': 'contrib/admin/index',
};
