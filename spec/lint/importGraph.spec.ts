import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ESLint } from 'eslint';

// The lint rule `layers/import-graph` (eslint/importGraph.mjs, wired in eslint.config.mjs)
// enforces CONTRIBUTING's one-way graph. Each row lints one import line as if it stood in a
// file of the repository (the file need not exist) and says whether the rule must fire.
const test = suite('lint/importGraph');
const ROOT = path.resolve(__dirname, '../..');
const RULE = 'layers/import-graph';

let eslint: ESLint;

test.before(() => {
  eslint = new ESLint({ cwd: ROOT });
});

async function ruleMessages(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\n`, { filePath: path.join(ROOT, file) });
  return result.messages.filter((message) => message.ruleId === RULE).map((message) => message.message);
}

// [file, code, fires]
const CASES: Array<[string, string, boolean]> = [
  // lib/core imports only lib/core.
  ['lib/core/probe.ts', "import { settings } from './conf';", false],
  ['lib/core/db/probe.ts', "import { settings } from '../conf';", false],
  ['lib/core/probe.ts', "import { APIView } from '../views';", true],
  ['lib/core/db/probe.ts', "import { APIView } from '../../views';", true],
  ['lib/core/probe.ts', "import { User } from '../../contrib/auth/models';", true],
  ['lib/core/probe.ts', "import { Token } from '../../contrib/authtoken/models';", true],
  ['lib/core/probe.ts', "export { APIView } from '../views';", true],
  ['lib/core/probe.ts', "export * from '../views';", true],
  ['lib/core/probe.ts', "const views = require('../views');", true],
  ['lib/core/probe.ts', "void import('../views');", true],
  ['lib/core/probe.ts', "import { APIView } from 'api_framework';", true],
  ['lib/core/probe.ts', "import { Model } from 'api_framework/db';", false],
  // Back-references that the compiler erases are allowed between framework layers.
  ['lib/core/probe.ts', "import type { APIView } from '../views';", false],
  ['lib/core/probe.ts', "import { type APIView, type Request } from '../views';", false],
  ['lib/core/probe.ts', "import { type APIView, Request } from '../views';", true],
  ['lib/core/probe.ts', "export type { APIView } from '../views';", false],
  // contrib/auth and contrib/sessions: lib/core and each other.
  ['contrib/auth/probe.ts', "import { settings } from '../../lib/core/conf';", false],
  ['contrib/auth/probe.ts', "import { SessionStore } from '../sessions/backends/db';", false],
  ['contrib/sessions/probe.ts', "import { User } from '../auth/models';", false],
  ['contrib/auth/probe.ts', "import { APIView } from '../../lib/views';", true],
  ['contrib/sessions/probe.ts', "import { Token } from '../authtoken/models';", true],
  // The API framework: lib/core, contrib/auth, contrib/sessions, not the apps above it.
  ['lib/probe.ts', "import { User } from '../contrib/auth';", false],
  ['lib/probe.ts', "import { getToken } from '../contrib/sessions';", false],
  ['lib/utils/probe.ts', "import { settings } from '../core/conf';", false],
  ['lib/probe.ts', "import { Token } from '../contrib/authtoken/models';", true],
  ['lib/probe.ts', "import { BrowsableAPIRenderer } from '../contrib/browsable/renderers';", true],
  ['lib/probe.ts', "import { adminSite } from 'api_framework/contrib/admin';", true],
  ['lib/probe.ts', "import type { Token } from '../contrib/authtoken/models';", false],
  // The apps on top: everything of the framework, each other; the demo imports anything.
  ['contrib/admin/probe.ts', "import { APIView } from '../../lib/views';", false],
  ['contrib/admin/probe.ts', "import { renderTemplate } from '../browsable/templates';", false],
  ['contrib/authtoken/probe.ts', "import { Snippet } from '../../demo/snippets/models';", true],
  ['demo/probe.ts', "import { adminSite } from 'api_framework/contrib/admin';", false],
  // Nothing of the framework reaches into the demo, the specs or the scripts, even for a type.
  ['lib/probe.ts', "import type { Snippet } from '../demo/snippets/models';", true],
  ['lib/core/probe.ts', "import { callView } from '../../spec/helpers';", true],
  ['contrib/admin/probe.ts', "import '../../scripts/lib/cases';", true],
  // Packages and data files are outside the graph; the specs import what they like.
  ['lib/core/probe.ts', "import { Sequelize } from 'sequelize';", false],
  ['lib/core/probe.ts', "const pkg = require('../../package.json');", false],
  ['spec/probe.ts', "import { Token } from '../contrib/authtoken/models';", false],
];

test('import-graph :: fires exactly on the imports CONTRIBUTING forbids', async () => {
  for (const [file, code, fires] of CASES) {
    const messages = await ruleMessages(file, code);
    assert.is(messages.length, fires ? 1 : 0, `${file}: ${code} -> ${JSON.stringify(messages)}`);
  }
});

test('import-graph :: the message names the layer and the way out', async () => {
  const [message] = await ruleMessages('lib/core/probe.ts', "import { APIView } from '../views';");
  assert.match(message, "'../views' is in lib (the API framework), which lib/core must not import");
  assert.match(message, 'import type');
});

test('import-graph :: the repository itself lints clean under the rule', async () => {
  const results = await eslint.lintFiles(['lib/core/modules.ts', 'lib/authentication.ts', 'contrib/admin/sites.ts']);
  for (const result of results) {
    assert.equal(result.messages.filter((message) => message.ruleId === RULE), [], result.filePath);
  }
});

test.run();
