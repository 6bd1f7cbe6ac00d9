/**
 * The files `startproject NAME` writes (the host framework's project template): a package
 * depending on this framework, a strict tsconfig with the decorator options the models need,
 * manage.ts, NAME/settings.ts and NAME/urls.ts, a test setup, .gitignore and a README.
 */

/** What the project templates are filled with. */
export interface ProjectTemplateContext {
  /** The project's name: its package name and the folder of its settings and URL conf. */
  name: string;
  /** The version range of this framework the project depends on (`^0.1.0`). */
  frameworkVersion: string;
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** The project's files, by path relative to the project folder. */
export function projectFiles(context: ProjectTemplateContext): Record<string, string> {
  const { name } = context;
  return {
    'package.json': json({
      name: name.replace(/_/g, '-'),
      version: '0.1.0',
      private: true,
      description: `${name}: an api_framework project`,
      scripts: {
        start: 'ts-node manage.ts migrate && ts-node manage.ts runserver 127.0.0.1:8000',
        test: 'node -r ts-node/register/transpile-only -r ./testSetup.ts node_modules/uvu/bin.js . "\\.spec\\.ts$" -i node_modules -i dist -r ts-node/register/transpile-only',
        build: 'tsc -p tsconfig.build.json',
        migrate: 'ts-node manage.ts migrate',
        typecheck: 'tsc --noEmit -p .',
      },
      engines: { node: '>=20.19' },
      dependencies: { api_framework: context.frameworkVersion, 'reflect-metadata': '^0.2.2' },
      devDependencies: { '@types/node': '^20.19.0', 'ts-node': '^10.9.2', typescript: '~5.9.0', uvu: '^0.5.6' },
      // npm 11 runs a dependency's install script only when approved: sqlite3 builds (or fetches)
      // its native binding; swagger-ui-dist's @scarf/scarf only reports the install (analytics).
      allowScripts: { sqlite3: true, '@scarf/scarf': false },
    }),
    'tsconfig.json': json({
      compilerOptions: {
        target: 'ES2022',
        module: 'commonjs',
        moduleResolution: 'node',
        lib: ['ES2023'],
        types: ['node'],
        strict: true,
        noImplicitOverride: true,
        esModuleInterop: true,
        skipLibCheck: false,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        useDefineForClassFields: false,
        forceConsistentCasingInFileNames: true,
        outDir: 'dist',
        rootDir: '.',
      },
      exclude: ['node_modules', 'dist'],
      'ts-node': { transpileOnly: true },
    }),
    'tsconfig.build.json': json({
      extends: './tsconfig.json',
      compilerOptions: { sourceMap: true },
      exclude: ['node_modules', 'dist', '**/*.spec.ts', 'testSetup.ts'],
    }),
    'manage.ts': `#!/usr/bin/env node
/**
 * ${name}'s command-line entry point: \`npx ts-node manage.ts <command>\` (\`help\` lists them),
 * or compiled, \`node dist/manage.js <command>\`.
 */
import 'reflect-metadata';
import { executeFromCommandLine } from 'api_framework/management';

executeFromCommandLine(process.argv.slice(2), { projectDir: __dirname, settingsModule: '${name}/settings' });
`,
    'testSetup.ts': `/**
 * Loaded before the spec files (\`npm test\`): ${name}'s settings, quiet logs. Each spec suite
 * gives itself a database with \`useTestDatabase(suite)\` from \`api_framework/test\`.
 */
import 'reflect-metadata';
import { setupTestProject } from 'api_framework/test';

setupTestProject({ projectDir: __dirname, settingsModule: '${name}/settings' });
`,
    [`${name}/settings.ts`]: `/**
 * ${name}'s settings.
 *
 * Environment:
 * - \`DEBUG\`: on unless \`DEBUG=0\`; in production set \`DEBUG=0\` and \`SECRET_KEY\`.
 * - \`SECRET_KEY\`: the signing key (sessions, CSRF tokens); required when DEBUG is off.
 * - \`DATABASE_URL\`: \`sqlite:<file>\` or \`mysql://user:pass@host:port/db\`; wins over the value below.
 * - \`CACHE_URL\`: \`redis://host:port/db\` to share throttle counts and cached sessions; default: memory.
 */
import type { ProjectSettings } from 'api_framework';

const DEBUG = process.env.DEBUG !== '0';

// Typed: a misspelt key or a wrong value fails to compile. Declare keys of your own on
// ProjectSettingsExtension (\`declare module 'api_framework' { interface ProjectSettingsExtension { ... } }\`).
const settings: Partial<ProjectSettings> = {
  DEBUG,
  // Unset with DEBUG on: an insecure development key is used and a warning printed.
  SECRET_KEY: process.env.SECRET_KEY ?? '',
  ALLOWED_HOSTS: ['127.0.0.1', 'localhost', '[::1]'],

  INSTALLED_APPS: [
    'api_framework.contrib.auth',
    'api_framework.contrib.sessions',
    'api_framework.contrib.authtoken',
    'api_framework.contrib.browsable',
    'api_framework.contrib.admin',
  ],

  MIDDLEWARE: [
    'api_framework.core.security.SecurityMiddleware',
    'api_framework.contrib.sessions.middleware.SessionMiddleware',
    'api_framework.core.middleware.CommonMiddleware',
    'api_framework.core.middleware.csrf.CsrfViewMiddleware',
    'api_framework.contrib.auth.middleware.AuthenticationMiddleware',
    'api_framework.core.clickjacking.XFrameOptionsMiddleware',
  ],

  ROOT_URLCONF: '${name}.urls',
  // Relative to the project folder; DATABASE_URL in the environment wins.
  DATABASE_URL: 'sqlite:db.sqlite3',
  CACHE_URL: process.env.CACHE_URL ?? null,

  LANGUAGE_CODE: 'en-us',
  TIME_ZONE: 'UTC',
  USE_I18N: true,

  LOGIN_URL: '/api-auth/login/',
  LOGIN_REDIRECT_URL: '/',
  LOGOUT_REDIRECT_URL: '/',

  API_FRAMEWORK: {
    DEFAULT_AUTHENTICATION_CLASSES: [
      'api_framework.authentication.SessionAuthentication',
      'api_framework.authentication.BasicAuthentication',
    ],
  },
};

export default settings;
`,
    [`${name}/urls.ts`]: `/**
 * ${name}'s root URL conf: the admin, the browsable API's login/logout and static files.
 * Include your apps' URL confs here, e.g. \`path('', include(booksRouter.urls))\`.
 */
import { exceptions, include, path } from 'api_framework';
import { adminSite } from 'api_framework/contrib/admin';
import { staticfilesUrlpatterns, urls as apiAuthUrls } from 'api_framework/contrib/browsable';

export const urlpatterns = [
  ...staticfilesUrlpatterns(),
  path('admin/', adminSite.urls),
  path('api-auth/', include(apiAuthUrls, { namespace: 'api_framework' })),
];

// JSON error bodies for API clients (the defaults are the host framework's HTML pages).
export const handler400 = exceptions.badRequest;
export const handler500 = exceptions.serverError;
`,
    '.gitignore': ['node_modules/', 'dist/', 'db.sqlite3', '*.sqlite3-journal', '*.sqlite3-wal', '*.sqlite3-shm', '*.log', ''].join('\n'),
    'README.md': `# ${name}

An [api_framework](https://www.npmjs.com/package/api_framework) project.

\`\`\`sh
npm install
npm start              # migrate, then serve on http://127.0.0.1:8000/ (admin at /admin/)
npm test               # the apps' *.spec.ts files
\`\`\`

- \`npx ts-node manage.ts startapp NAME\` adds an app; list it in \`INSTALLED_APPS\`
  (\`${name}/settings.ts\`) and include its URL conf in \`${name}/urls.ts\`.
- \`npx ts-node manage.ts makemigrations\` then \`npm run migrate\` after changing models.
- \`npx ts-node manage.ts createsuperuser\` for the admin; \`npx ts-node manage.ts help\` lists the commands.
- Production: \`npm run build\`, then \`DEBUG=0 SECRET_KEY=... node dist/manage.js serve --workers 4\`.
`,
  };
}
