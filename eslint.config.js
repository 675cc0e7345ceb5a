import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import lit from 'eslint-plugin-lit';
import litA11y from 'eslint-plugin-lit-a11y';

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
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
);
