// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { layersRule } from './eslint/server-layers.js';

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'bench/results/**', 'coverage/**', '**/*.d.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: { allowDefaultProject: ['*.js', 'packages/*/bin/*.js'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      'no-console': 'error',
    },
  },
  {
    files: ['**/*.test.ts', 'packages/testkit/**/*.ts', 'bench/**/*.ts', 'reliability/**/*.ts'],
    rules: {
      'no-console': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['packages/pinpoints/src/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['packages/server/assets/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Every query is built in packages/server/src/store/ (docs/architecture.md): the rest of
    // the server calls functions of store/queries/ and never the query builder.
    files: ['packages/server/src/**/*.ts', 'packages/server/src/**/*.tsx'],
    ignores: ['packages/server/src/store/**', '**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'kysely', message: 'Build queries in packages/server/src/store/queries/ (docs/architecture.md).', allowTypeImports: true }] },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression > MemberExpression.callee > Identifier.property[name=/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|with)$/]',
          message: 'Build queries in packages/server/src/store/queries/ (docs/architecture.md).',
        },
      ],
    },
  },
  {
    // Only `svc serve`, `svc backup` and `svc restore` load the server (docs/architecture.md):
    // every other command starts with the CLI, @svc/protocol and @svc/config alone. The serve
    // command's own folder is reached only when the command line names it
    // (commands/serve/outline.ts); backup's handlers import @svc/server/backup when they run.
    files: ['packages/cli/src/**/*.ts'],
    ignores: ['packages/cli/src/commands/serve/commands.ts', 'packages/cli/src/commands/serve/run.ts', 'packages/cli/src/commands/backup/run.ts', '**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@svc/server', '@svc/server/*'], message: 'Only the serve command loads the server (docs/architecture.md).' }] },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportExpression[source.value=/^@svc\\/server/]', message: 'Only the serve command loads the server (docs/architecture.md).' },
      ],
    },
  },
  {
    // The server's folders in layers (docs/architecture.md, "Inside the server"): dependencies point down.
    files: ['packages/server/src/**/*.ts', 'packages/server/src/**/*.tsx', 'packages/server/src/**/*.js'],
    ignores: ['**/*.test.ts'],
    plugins: { svc: { rules: { layers: layersRule } } },
    rules: { 'svc/layers': 'error' },
  },
);
