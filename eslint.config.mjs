// Lint configuration: typescript-eslint's recommended rules; `any` is banned in the
// framework itself (lib/, contrib/) and tolerated only in specs and benchmarks.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import layers from './eslint/importGraph.mjs';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-empty-object-type': 'off',
      '@typescript-eslint/no-unsafe-declaration-merging': 'off',
      'no-restricted-imports': ['error', { paths: [] }],
    },
  },
  {
    files: ['lib/**/*.ts', 'contrib/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
  {
    // CONTRIBUTING's one-way import graph (eslint/importGraph.mjs says which layer may import which).
    files: ['lib/**/*.ts', 'contrib/**/*.ts', 'demo/**/*.ts'],
    plugins: { layers },
    rules: { 'layers/import-graph': 'error' },
  },
  {
    files: ['spec/**/*.ts', 'bench/**/*.ts', 'demo/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
