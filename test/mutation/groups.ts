// The module groups of the mutation check: what each mutates, and the one
// command Stryker's command runner runs per mutant, scoped to the tests that
// cover that group so a mutant costs seconds, not the whole suite.

/** Files mutated together, and the command that judges their mutants. */
export interface MutationPart {
  /** Stryker `mutate` globs (source files only; a test is never mutated). */
  mutate: string[];
  /** Run once per mutant in Stryker's sandbox; a non-zero exit kills the mutant. */
  command: string;
}

export interface MutationGroup {
  name: string;
  /** What the group covers, for --help. */
  about: string;
  /** One Stryker run each; the group's score counts their mutants together. */
  parts: MutationPart[];
}

/** node:test for one mutant: in one process, ended by its first failing test (one failure kills the mutant). */
const NODE_TEST = 'node --test --test-isolation=none --test-reporter=./test/mutation/first-failure.ts';

export const MUTATION_GROUPS: readonly MutationGroup[] = [
  {
    name: 'delivery',
    about: 'one delivery attempt, the worker that runs and retries them, the block on refused keys',
    parts: [
      {
        mutate: ['server/proxy/applications/delivery.ts', 'server/proxy/applications/delivery-block.ts'],
        // The spontaneous applications' test: their delivery (an applicant with no application) through a real proxy.
        command: `${NODE_TEST} server/proxy/applications/delivery.test.ts server/proxy/applications/delivery-block.test.ts test/proxy-spontaneous.test.ts`,
      },
      {
        // Its tests run attempts on a real store with leases that run out: seconds, so kept for its own mutants.
        mutate: ['server/proxy/applications/delivery-worker.ts'],
        command: `${NODE_TEST} server/proxy/applications/delivery-worker.test.ts server/proxy/applications/delivery-worker-loop.test.ts server/proxy/applications/delivery.test.ts`,
      },
    ],
  },
  {
    name: 'uploads',
    about:
      "who may start an upload (places per address and network, the queue's ceiling, the disk floor), the slowest pace, and the form's reader",
    parts: [
      {
        mutate: [
          'server/proxy/applications/upload-admission.ts',
          'server/proxy/applications/queue-ceiling.ts',
          'server/proxy/applications/multipart.ts',
          'server/proxy/applications/disk-floor.ts',
          'server/proxy/applications/upload-pace.ts',
        ],
        command: `${NODE_TEST} server/proxy/applications/upload-admission.test.ts server/proxy/applications/queue-ceiling.test.ts server/proxy/applications/disk-floor.test.ts server/proxy/applications/upload-pace.test.ts server/proxy/applications/multipart.test.ts`,
      },
    ],
  },
  {
    name: 'webhooks',
    about:
      'the webhook sender, its one signed POST (2xx only, answers read 2,000 bytes at most), and the lease renewal it shares with the delivery worker',
    parts: [
      {
        mutate: [
          'server/proxy/webhooks/sender.ts',
          'server/proxy/webhooks/post-event.ts',
          'server/proxy/storage/lease-renewal.ts',
        ],
        command: `${NODE_TEST} server/proxy/storage/lease-renewal.test.ts server/proxy/webhooks/post-event.test.ts server/proxy/webhooks/sender.test.ts`,
      },
    ],
  },
  {
    name: 'receipt',
    about:
      "the candidate's receipt page, its tokens and the honeypot's decoys, and the board's labels of the company's status",
    parts: [
      {
        mutate: ['server/proxy/receipt/*.ts', '!server/proxy/receipt/*.test.ts', 'server/proxy/status-labels.ts'],
        command: `${NODE_TEST} server/proxy/receipt/receipt.test.ts server/proxy/status-labels.test.ts test/proxy-spontaneous.test.ts`,
      },
    ],
  },
  {
    name: 'cors',
    about: 'which origins may call /api, and the CORS headers',
    parts: [
      {
        mutate: ['server/proxy/http/cors.ts'],
        command: `${NODE_TEST} --test-name-pattern=CORS server/proxy/app.test.ts`,
      },
    ],
  },
  {
    name: 'retention',
    about: 'the sweeper erasing personal data after PERSONAL_DATA_RETENTION_DAYS',
    parts: [
      {
        mutate: ['server/proxy/applications/retention.ts'],
        command: `${NODE_TEST} server/proxy/applications/retention.test.ts`,
      },
    ],
  },
  {
    name: 'sanitisers',
    about:
      "the proxy's sanitiser of campaign HTML (Node tests) and the widget's second one (browser tests in Chromium)",
    parts: [
      {
        mutate: ['server/proxy/catalogue/sanitize.ts'],
        command: `${NODE_TEST} server/proxy/catalogue/sanitize.test.ts`,
      },
      {
        mutate: ['widget/src/internal/html.ts', 'widget/src/internal/html-allowlist.ts'],
        // The page cannot read the environment: this configuration tells it the active mutant.
        command: 'npx wtr --config test/mutation/widget-sanitiser.web-test-runner.config.mjs',
      },
    ],
  },
  {
    name: 'utm',
    about: "the rule of a campaign parameter's value (utm_*), which the widget and the proxy both apply",
    parts: [
      {
        mutate: ['server/public-api/campaign-tracking.ts'],
        command: `${NODE_TEST} server/public-api/campaign-tracking.test.ts server/proxy/applications/form.test.ts`,
      },
    ],
  },
  {
    name: 'widget-apply',
    about: "the widget's campaign tracking (browser tests in Chromium) and its apply form's controller (Node tests)",
    parts: [
      {
        mutate: ['widget/src/internal/campaign-tracking.ts'],
        command:
          'npx wtr --config test/mutation/widget-apply.web-test-runner.config.mjs --files widget/src/apply/campaign-tracking.test.ts',
      },
      {
        // The controller's Node tests (an element stand-in, a proxy stand-in over real HTTP): a second or two a
        // mutant, where the form's browser tests took a minute; those still run in npm run test:browser.
        mutate: [
          'widget/src/apply/application-controller.ts',
          'widget/src/apply/device-keeping.ts',
          'widget/src/apply/form-data.ts',
        ],
        command: `${NODE_TEST} widget/test-node/application-controller.test.ts widget/test-node/application-sending.test.ts`,
      },
    ],
  },
  {
    name: 'form',
    about: "the checks of the application form, and the service's refusals in its terms",
    parts: [
      {
        mutate: [
          'server/proxy/applications/form.ts',
          'server/proxy/applications/field-problems.ts',
          'server/public-api/application-form.ts',
        ],
        command: `${NODE_TEST} server/proxy/applications/form.test.ts server/proxy/applications/field-problems.test.ts server/public-api/application-form.test.ts server/proxy/applications/delivery.test.ts server/proxy/applications/form-spontaneous.test.ts`,
      },
    ],
  },
  {
    name: 'source-status',
    about: "the application's source and the company's note, and the status sync after delivery",
    parts: [
      {
        mutate: ['server/proxy/applications/application-source.ts'],
        command: `${NODE_TEST} server/proxy/applications/application-source.test.ts`,
      },
      // Its tests read a small upstream over HTTP into a real store: a few seconds, so kept for its own mutants.
      {
        mutate: ['server/proxy/applications/status-sync.ts'],
        command: `${NODE_TEST} server/proxy/applications/status-sync.test.ts`,
      },
    ],
  },
  {
    name: 'storage',
    about:
      'the stores: each module judged by its own contract tests, on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set',
    parts: [
      {
        // Every storage module but the catalogue's (below), the budget ledger and the lease renewal (the webhooks
        // group's), whatever it is called; a new module's test file joins the command. The funnel's counts
        // have their own part (below).
        mutate: [
          'server/proxy/storage/**/*.ts',
          '!server/proxy/storage/**/*.test.ts',
          '!server/proxy/storage/**/*test-support.ts',
          '!server/proxy/storage/catalogue/**',
          '!server/proxy/storage/funnel/**',
          '!server/proxy/storage/counts/budget-ledger.ts',
          '!server/proxy/storage/lease-renewal.ts',
        ],
        command: `${NODE_TEST} server/proxy/storage/funnel/application-counts.test.ts server/proxy/storage/sql.test.ts server/proxy/storage/outbox/application-store.test.ts server/proxy/storage/outbox/sqlite-store.test.ts server/proxy/storage/outbox/sqlite-store-full-disk.test.ts server/proxy/storage/sqlite-dialect.test.ts server/proxy/storage/outbox/resume-files.test.ts server/proxy/storage/backend.test.ts server/proxy/storage/outbox/source-refusals.test.ts server/proxy/storage/webhooks/webhook-store.test.ts server/proxy/storage/outbox/status-store.test.ts server/proxy/storage/counts/address-counts.test.ts server/proxy/storage/database-watch.test.ts server/proxy/storage/migrations.test.ts server/proxy/storage/storage-index.test.ts server/proxy/storage/sqlite-schema.test.ts server/proxy/storage/webhooks/sqlite-events.test.ts server/proxy/storage/sqlite-sql.test.ts server/proxy/storage/postgres-schema.test.ts server/proxy/storage/outbox/postgres-store.test.ts`,
      },
      {
        // The instance's own catalogue file, its facets' counts and its search: SQLite only, quick.
        mutate: [
          'server/proxy/storage/catalogue/catalogue-sqlite.ts',
          'server/proxy/storage/catalogue/catalogue-schema-sqlite.ts',
          'server/proxy/storage/catalogue/catalogue-writes-sqlite.ts',
          'server/proxy/storage/catalogue/catalogue-facets-sqlite.ts',
          'server/proxy/storage/catalogue/catalogue-facet-counts.ts',
          'server/proxy/storage/catalogue/catalogue-search-sqlite.ts',
          'server/proxy/storage/catalogue/catalogue-search-worker.ts',
          'server/proxy/storage/catalogue/catalogue-search-thread.ts',
          'server/proxy/storage/catalogue/search-budget.ts',
        ],
        command: `${NODE_TEST} server/proxy/storage/catalogue/catalogue-facet-counts.test.ts server/proxy/storage/catalogue/catalogue-sqlite.test.ts server/proxy/storage/catalogue/catalogue-search.test.ts server/proxy/storage/catalogue/catalogue-search-cost.test.ts server/proxy/storage/catalogue/catalogue-search-worker.test.ts`,
      },
      {
        // The copy every instance follows on PostgreSQL, and its change log. The quick files first: they kill most mutants; the sandbox's last.
        mutate: [
          'server/proxy/storage/catalogue/*.ts',
          '!server/proxy/storage/catalogue/*.test.ts',
          '!server/proxy/storage/catalogue/*sqlite.ts',
          '!server/proxy/storage/catalogue/search-budget.ts',
          '!server/proxy/storage/catalogue/catalogue-facet-counts.ts',
          '!server/proxy/storage/catalogue/catalogue-search-worker.ts',
          '!server/proxy/storage/catalogue/catalogue-search-thread.ts',
        ],
        command: `${NODE_TEST} server/proxy/storage/catalogue/catalogue-shared-connections.test.ts server/proxy/storage/catalogue/catalogue-changes.test.ts server/proxy/storage/catalogue/catalogue-shared-file.test.ts server/proxy/storage/catalogue/catalogue-shared.test.ts`,
      },
      {
        // Its tests share a real budget between instances over seconds: kept apart so the other parts' mutants stay quick.
        mutate: ['server/proxy/storage/counts/budget-ledger.ts'],
        command: `${NODE_TEST} server/proxy/storage/counts/budget-ledger.test.ts`,
      },
      {
        // The funnel's daily counts: the ranking and cache of its offers without a database first (quick), then its
        // contract tests on SQLite and PostgreSQL, and the PostgreSQL store's, which sees a change and its count sent
        // as one statement.
        mutate: ['server/proxy/storage/funnel/*.ts', '!server/proxy/storage/funnel/*.test.ts'],
        command: `${NODE_TEST} server/proxy/storage/funnel/offer-sums.test.ts server/proxy/storage/funnel/funnel-store.test.ts server/proxy/storage/funnel/application-counts.test.ts server/proxy/storage/outbox/postgres-store.test.ts`,
      },
    ],
  },
  {
    name: 'catalogue-search',
    about:
      "a search's words and their bounds, distances and the box around a place, the reader of the list and its cache, and the tombstones of closed offers (the store's search statements and time budget are in storage)",
    parts: [
      {
        mutate: [
          'server/proxy/catalogue/geo.ts',
          'server/proxy/catalogue/tombstones.ts',
          'server/proxy/catalogue/routes/reader.ts',
          'server/proxy/catalogue/search-text.ts',
          'server/proxy/catalogue/version-cache.ts',
        ],
        command: `${NODE_TEST} server/proxy/catalogue/geo.test.ts server/proxy/catalogue/tombstones.test.ts server/proxy/catalogue/version-cache.test.ts server/proxy/catalogue/routes/reader.test.ts server/proxy/storage/catalogue/catalogue-search.test.ts server/proxy/storage/catalogue/catalogue-search-cost.test.ts`,
      },
    ],
  },
];
