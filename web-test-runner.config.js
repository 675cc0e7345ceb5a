import { chromeLauncher } from '@web/test-runner-chrome';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { standIn } from './widget/test-server/stand-in.ts';

// Real Chromium from Debian (no browser downloads here); CHROME_PATH overrides.
// The browser tests talk HTTP to a scripted stand-in of the proxy's public API
// (widget/test-server/stand-in.ts) served by this same dev server.
export default {
  files: 'widget/src/**/*.test.ts',
  nodeResolve: true,
  // One page at a time: the tests type with the real keyboard and check
  // focus, which pages running side by side would steal from each other.
  concurrency: 1,
  middleware: [standIn],
  plugins: [esbuildPlugin({ ts: true, tsconfig: 'widget/tsconfig.json' })],
  testFramework: { config: { timeout: 10000 } },
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
        args: [
          '--no-sandbox',
          '--headless=new',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
        ],
      },
    }),
  ],
};
