import { chromeLauncher } from '@web/test-runner-chrome';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { standIn } from './widget/test-server/stand-in.ts';
import { CHROMIUM_LAUNCH_OPTIONS } from './test/chromium.ts';

// Real Chromium from Debian, launched as every test launches it (test/chromium.ts).
// The browser tests talk HTTP to a scripted stand-in of the proxy's public API
// (widget/test-server/stand-in.ts) served by this same dev server.
export default {
  files: 'widget/src/**/*.test.ts',
  nodeResolve: true,
  // One page at a time: the tests type with the real keyboard and check
  // focus, which pages running side by side would steal from each other.
  concurrency: 1,
  middleware: [standIn],
  plugins: [
    // The widget's own runtime of @lit/localize, as every build resolves it (vite.config.ts, localizeRuntime).
    {
      name: 'localize-runtime',
      resolveImport: ({ source }) =>
        source === '@lit/localize' ? '/widget/src/internal/localize-runtime.ts' : undefined,
    },
    esbuildPlugin({ ts: true, tsconfig: 'widget/tsconfig.json' }),
  ],
  testFramework: { config: { timeout: 10000 } },
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: CHROMIUM_LAUNCH_OPTIONS.executablePath,
        args: [...CHROMIUM_LAUNCH_OPTIONS.args],
      },
    }),
  ],
};
