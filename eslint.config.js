import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import lit from 'eslint-plugin-lit';
import litA11y from 'eslint-plugin-lit-a11y';

// The widget imports nothing of the server but the two contracts: the
// recruitment API's (server/contract/) and the proxy's public HTTP API
// (server/public-api/). At run time only their plain modules, which import
// nothing, so no server code (zod included) reaches the browser bundle; the
// others by `import type`.
const SERVER_BUT_CONTRACTS = {
  regex: '(^|/)server/(?!contract/|public-api/)',
  message: 'The widget imports nothing of the server but its contracts, server/contract/ and server/public-api/: move what both sides need there.',
};
const CONTRACT_SERVER_CODE = {
  regex: '(^|/)server/(contract/(?!values\\.ts$)|public-api/(?!(application-form|campaign-tracking|list-params|offer-head|pinned-widget|problems)\\.ts$))',
  allowTypeImports: true,
  message: 'At run time the widget takes only the contracts\' plain modules (contract/values.ts, public-api/application-form.ts, campaign-tracking.ts, list-params.ts, offer-head.ts, pinned-widget.ts, problems.ts): the others carry zod into its bundle. Use `import type`.',
};
// Tests and their stand-in server also read the server's test files (portable files, fixtures).
const SERVER_BUT_CONTRACTS_AND_TEST_FILES = {
  regex: '(^|/)server/(?!contract/|public-api/|test/)',
  message: SERVER_BUT_CONTRACTS.message,
};
// Test helpers beside the sources are named *test-support.ts (test-support.ts for a folder's, <subject>.test-support.ts for one subject's).
const WIDGET_TEST_FILES = ['widget/**/*.test.ts', 'widget/**/*test-support.ts', 'widget/test-server/**'];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', '.stryker-tmp/', 'reports/', 'widget/src/generated/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['server/**/*.ts', 'server/**/*.mjs', 'test/**/*.ts', 'test/**/*.mjs', '*.ts', '*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['widget/**/*.ts', 'widget/**/*.js'],
    languageOptions: { globals: globals.browser },
    ...lit.configs['flat/recommended'],
  },
  {
    files: ['widget/**/*.ts'],
    ...litA11y.configs.recommended,
  },
  {
    files: ['widget/**/*.ts', 'widget/**/*.js', 'widget/**/*.mjs'],
    ignores: WIDGET_TEST_FILES,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [SERVER_BUT_CONTRACTS, CONTRACT_SERVER_CODE] }] },
  },
  {
    files: WIDGET_TEST_FILES,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [SERVER_BUT_CONTRACTS_AND_TEST_FILES] }] },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
);
