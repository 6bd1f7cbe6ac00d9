// ESLint rule `layers/import-graph`: the one-way import graph of CONTRIBUTING.md, enforced.
//
//   lib/core  <-  contrib/auth, contrib/sessions  <-  lib (the API framework)
//             <-  contrib/authtoken, contrib/browsable, contrib/admin  <-  demo
//
// A file of one layer may import (at run time) files of its own layer and of the layers to
// its left, never to its right. `import type` (or an import whose every specifier is
// `type`) is erased by the compiler and may point back up the graph between framework
// layers, as CONTRIBUTING allows for back-references; nothing in the framework may import the
// demo, the specs, the benchmarks or the scripts, not even a type. Relative paths, `require()`,
// `import()`, `export ... from` and the public `api_framework/...` entry points are all checked.
// Files outside the layers (spec/, bench/, scripts/, bin/, manage.ts) import what they like.
import path from 'node:path';

/** The layers, lowest first; `match` is tested against the repository-relative path. */
export const LAYERS = [
  { name: 'lib/core', rank: 0, match: (rel) => /^lib\/core(\/|$)/.test(rel) },
  { name: 'contrib/auth, contrib/sessions', rank: 1, match: (rel) => /^contrib\/(auth|sessions)(\/|$)/.test(rel) },
  { name: 'lib (the API framework)', rank: 2, match: (rel) => /^lib(\/|$)/.test(rel) },
  { name: 'contrib/authtoken, contrib/browsable, contrib/admin', rank: 3, match: (rel) => /^contrib(\/|$)/.test(rel) },
  { name: 'demo', rank: 4, match: (rel) => /^demo(\/|$)/.test(rel) },
];

/** The public entry points (package.json `exports`), as the files they stand for. */
const ENTRY_POINTS = {
  api_framework: 'lib/index.ts',
  'api_framework/db': 'lib/core/db/index.ts',
  'api_framework/test': 'lib/test.ts',
  'api_framework/management': 'lib/core/commandLine.ts',
};

function layerOf(rel) {
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return LAYERS.find((layer) => layer.match(rel));
}

/** The repository-relative path an import specifier names, or undefined for a package. */
function targetOf(source, fromFile, root) {
  if (source.startsWith('.')) {
    return path.relative(root, path.resolve(path.dirname(fromFile), source)).split(path.sep).join('/');
  }
  if (source in ENTRY_POINTS) return ENTRY_POINTS[source];
  const contrib = /^api_framework\/contrib\/([^/]+)/.exec(source);
  if (contrib) return `contrib/${contrib[1]}/index.ts`;
  return undefined;
}

function isTypeOnly(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  const specifiers = node.specifiers ?? [];
  return (
    specifiers.length > 0 &&
    specifiers.every((spec) => spec.importKind === 'type' || spec.exportKind === 'type')
  );
}

export const importGraphRule = {
  meta: {
    type: 'problem',
    docs: { description: "Enforce CONTRIBUTING's one-way import graph between the framework's layers." },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, additionalProperties: false }],
    messages: {
      upward:
        "'{{source}}' is in {{target}}, which {{layer}} must not import (CONTRIBUTING: lib/core <- contrib/auth, contrib/sessions <- lib <- contrib/authtoken, browsable, admin <- demo). Move the code down, resolve it lazily with importString(), or use `import type`.",
      outside: "'{{source}}' is outside the framework ({{target}}); {{layer}} must not import it, not even a type.",
    },
  },
  create(context) {
    const root = context.options[0]?.root ?? context.cwd;
    const file = context.filename;
    const fromRel = path.relative(root, file).split(path.sep).join('/');
    const from = layerOf(fromRel);
    if (!from) return {};

    function check(node, sourceNode, typeOnly) {
      if (!sourceNode || typeof sourceNode.value !== 'string') return;
      const source = sourceNode.value;
      const targetRel = targetOf(source, file, root);
      // Packages, and data files such as package.json, are not part of the graph.
      if (targetRel === undefined || /\.(json|html|css|txt)$/.test(targetRel)) return;
      const target = layerOf(targetRel);
      if (!target) {
        context.report({ node, messageId: 'outside', data: { source, target: targetRel, layer: from.name } });
        return;
      }
      if (target.rank <= from.rank) return;
      if (typeOnly && target.name !== 'demo') return;
      context.report({ node, messageId: target.name === 'demo' ? 'outside' : 'upward', data: { source, target: target.name, layer: from.name } });
    }

    return {
      ImportDeclaration: (node) => check(node, node.source, isTypeOnly(node)),
      ExportNamedDeclaration: (node) => check(node, node.source, isTypeOnly(node)),
      ExportAllDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
      ImportExpression: (node) => check(node, node.source, false),
      TSImportType: (node) => check(node, node.argument?.literal ?? node.argument, true),
      TSExternalModuleReference: (node) => check(node, node.expression, false),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments.length === 1) {
          check(node, node.arguments[0], false);
        }
      },
    };
  },
};

/** The plugin object for `plugins: { layers }` in eslint.config.mjs. */
export default { rules: { 'import-graph': importGraphRule } };
