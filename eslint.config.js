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
  message:
    'The widget imports nothing of the server but its contracts, server/contract/ and server/public-api/: move what both sides need there.',
};
const CONTRACT_SERVER_CODE = {
  regex:
    '(^|/)server/(contract/(?!(values|resume-signatures)\\.ts$)|public-api/(?!(application-form|campaign-tracking|feed-url|list-params|offer-head|pinned-widget|problems|resume-pages|spontaneous-companies)\\.ts$))',
  allowTypeImports: true,
  message:
    "At run time the widget takes only the contracts' plain modules (contract/values.ts, contract/resume-signatures.ts, public-api/application-form.ts, campaign-tracking.ts, feed-url.ts, list-params.ts, offer-head.ts, pinned-widget.ts, problems.ts, resume-pages.ts, spontaneous-companies.ts): the others carry zod into its bundle. Use `import type`.",
};
// Tests and their stand-in server also read the server's test files (portable files, fixtures).
const SERVER_BUT_CONTRACTS_AND_TEST_FILES = {
  regex: '(^|/)server/(?!contract/|public-api/|test/)',
  message: SERVER_BUT_CONTRACTS.message,
};
// Test helpers beside the sources are named *test-support.ts (test-support.ts for a folder's, <subject>.test-support.ts for one subject's).
const WIDGET_TEST_FILES = ['widget/**/*.test.ts', 'widget/**/*test-support.ts', 'widget/test-server/**'];
// The front-end package's build scripts run in Node and are never bundled: they may use the repository's build helpers (server/scripts/).
const WIDGET_BUILD_SCRIPTS = ['widget/scripts/**'];

// The server's parts import downwards only (tests may use any part): the
// recruitment API's contract nothing of ours but the OpenAPI helper; the
// proxy's public contract no implementation; the client nothing of the proxy
// or the sandbox; the sandbox nothing of the proxy, the client or the proxy's
// public contract. Inside the proxy, storage/ and http/ are its bottom floor.
// An import of `../part/` is of another part of server/.
const STORAGE_ABOVE =
  "Storage imports nothing of the proxy above it but the catalogue's model (catalogue/types.ts, search-text.ts, geo.ts, tombstones.ts, own-copy.ts): pass what it needs in, or move the shared piece down.";
const importOfPart = (parts, message) => ({ regex: `^(\\.\\./)+(${parts.join('|')})/`, message });
const SERVER_TEST_FILES = [
  'server/**/*.test.ts',
  'server/**/test/**',
  'server/**/*test-support.ts',
  'server/**/test-helpers.ts',
];
const SERVER_PART_BOUNDARIES = [
  {
    files: ['server/contract/**'],
    patterns: [
      importOfPart(
        ['proxy', 'sandbox', 'client', 'public-api'],
        "The recruitment API's contract imports nothing of ours: the client, the sandbox and the proxy import it.",
      ),
      {
        regex: '^\\.\\./[a-z-]+\\.ts$',
        message:
          "The recruitment API's contract imports nothing of ours: the client, the sandbox and the proxy import it.",
      },
    ],
  },
  {
    files: ['server/public-api/**'],
    patterns: [
      importOfPart(
        ['proxy', 'sandbox', 'client'],
        "The proxy's public contract holds no implementation: the proxy and the widget import it, not the other way.",
      ),
    ],
  },
  {
    files: ['server/client/**'],
    patterns: [
      importOfPart(
        ['proxy', 'sandbox', 'public-api'],
        'The client imports the contract only: the proxy uses the client, and the sandbox is what it is tested against.',
      ),
    ],
  },
  // The proxy's bottom floor: the stores know the catalogue's model (its types, the search words, distances,
  // tombstones), nothing of a feature's workings, a route or the HTTP layer. Its root (the seam) is one folder
  // up from its subjects' folders, so the rule is written for each depth.
  ...[
    ['server/proxy/storage/*.ts', '\\.\\./'],
    ['server/proxy/storage/*/**', '\\.\\./\\.\\./'],
  ].map(([file, up]) => ({
    files: [file],
    patterns: [
      {
        regex: `^${up}(?!\\.\\./|catalogue/(types|search-text|geo|tombstones|own-copy)\\.ts$)`,
        message: STORAGE_ABOVE,
      },
    ],
  })),
  {
    // What every route uses: it knows no feature, no store and no command.
    files: ['server/proxy/http/**'],
    patterns: [
      {
        regex: '^\\.\\./(?!\\.\\./)',
        message:
          "The proxy's HTTP layer (problem answers, caching, CORS, headers, the access log, health) imports no feature, store or command: the features import it.",
      },
    ],
  },
  {
    files: ['server/sandbox/**'],
    patterns: [
      importOfPart(
        ['proxy', 'client', 'public-api'],
        "The sandbox implements the recruitment API from its contract alone: it imports nothing of the proxy, the client or the proxy's public contract.",
      ),
    ],
  },
].map(({ files, patterns }) => ({
  files,
  ignores: SERVER_TEST_FILES,
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
}));

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'widget/dist/',
      'coverage/',
      '.stryker-tmp/',
      'reports/',
      'widget/src/generated/',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['server/**/*.ts', 'server/**/*.mjs', 'test/**/*.ts', 'test/**/*.mjs', '*.ts', '*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    // The Node version check: CommonJS, so that a Node too old for the rest still reads it.
    files: ['server/scripts/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The WordPress plugin's editor script: a classic script on WordPress's globals, no build step.
    files: ['wordpress/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser, wp: 'readonly' } },
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
    ignores: [...WIDGET_TEST_FILES, ...WIDGET_BUILD_SCRIPTS],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [SERVER_BUT_CONTRACTS, CONTRACT_SERVER_CODE] }],
    },
  },
  {
    files: WIDGET_BUILD_SCRIPTS,
    languageOptions: { globals: globals.node },
  },
  {
    files: WIDGET_TEST_FILES,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [SERVER_BUT_CONTRACTS_AND_TEST_FILES] }],
    },
  },
  ...SERVER_PART_BOUNDARIES,
  {
    // Size budgets for code, counted on Prettier's layout so a line is a line of code. Tests are
    // out: a file named *.test.ts or *.test.mjs, or anything under a test/ folder (fixtures,
    // helpers, a stand-in server); a *test-support.ts helper beside the sources counts as source.
    files: ['**/*.ts', '**/*.mjs', '**/*.js', '**/*.cjs'],
    ignores: ['**/*.test.ts', '**/*.test.mjs', '**/test/**'],
    rules: {
      'max-lines': ['error', { max: 450, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
);
