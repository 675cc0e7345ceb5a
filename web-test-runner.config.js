import { chromeLauncher } from '@web/test-runner-chrome';
import { esbuildPlugin } from '@web/dev-server-esbuild';

// Real Chromium from Debian (no browser downloads here); CHROME_PATH overrides.
export default {
  files: 'widget/src/**/*.test.ts',
  nodeResolve: true,
  plugins: [esbuildPlugin({ ts: true, tsconfig: 'widget/tsconfig.json' })],
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
