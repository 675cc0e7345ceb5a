#!/usr/bin/env node
// jobboard-connector sandbox | proxy | outbox | webhooks | status-sync | migrate | offers | demo | widget-tag
// Each command lives beside the part it starts; this file only dispatches.
import { packageVersion } from './package-root.ts';
import { restartWithProxyFlags } from './proxy/node-flags.ts';

const commands: Record<string, { summary: string; load: () => Promise<{ main: (args: string[]) => Promise<void> }> }> =
  {
    sandbox: { summary: 'serve the sandbox recruitment API', load: () => import('./sandbox/command.ts') },
    proxy: { summary: 'serve the proxy a job board hosts', load: () => import('./proxy/commands/proxy.ts') },
    outbox: {
      summary: "inspect and replay the proxy's outbox, erase a candidate's data",
      load: () => import('./proxy/commands/outbox.ts'),
    },
    webhooks: {
      summary: "list the proxy's webhook events, retry a failed one, send a signed test event",
      load: () => import('./proxy/commands/webhooks.ts'),
    },
    'status-sync': {
      summary: "read now the company's status of every delivered application (--now)",
      load: () => import('./proxy/commands/status-sync.ts'),
    },
    migrate: {
      summary: "bring the proxy's store schema up to date (SQLite or DATABASE_URL)",
      load: () => import('./proxy/commands/migrate.ts'),
    },
    offers: {
      summary: "check the listed offers against the law of job ads and Google's fields (offers check)",
      load: () => import('./proxy/commands/offers.ts'),
    },
    demo: { summary: 'the seeded sandbox, the proxy and a demo job-board page', load: () => import('./demo.ts') },
    'widget-tag': {
      summary: 'print the script tag that loads the widget pinned (Subresource Integrity)',
      load: () => import('./proxy/commands/widget-tag.ts'),
    },
  };

function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(11)} ${c.summary}`);
  return `Usage: jobboard-connector <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun "jobboard-connector <command> --help" for a command's options, "jobboard-connector --version" for the version.`;
}

const [name, ...args] = process.argv.slice(2);
if (name === undefined || name === '--help' || name === '-h') {
  console.log(usage());
  process.exit(name === undefined ? 2 : 0);
}
if (name === '--version' || name === '-V') {
  console.log(packageVersion());
  process.exit(0);
}
const command = commands[name];
if (command === undefined) {
  console.error(`Unknown command "${name}".\n\n${usage()}`);
  process.exit(2);
}
// Before anything else: the process is replaced by one with the proxy's Node flags.
if (name === 'proxy') restartWithProxyFlags();
try {
  await (await command.load()).main(args);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
