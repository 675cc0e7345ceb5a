import { defineConfig } from 'vite';
import { QUIET_CHECKS, dropLeftovers, localizeRuntime, minifyTemplates } from './vite.config.ts';

// Builds the server renderer of <jobboard-campaigns> (widget/src/server-render.ts)
// for Node into dist/ssr/render.js, with Lit's server build and @lit-labs/ssr
// inside it: the proxy imports it at run time, and a partner's install needs
// neither the widget's sources nor @lit-labs/ssr.
export default defineConfig({
  // The templates' text must be the script-tag bundle's to the byte: hydration
  // recognises each server-rendered template by a hash of it.
  plugins: [minifyTemplates(), dropLeftovers()],
  // Offer texts: the catalogue's, already sanitised, written as they are (see html.server.ts).
  resolve: { alias: [localizeRuntime, { find: /^(.*\/internal\/html)\.ts$/, replacement: '$1.server.ts' }] },
  build: {
    outDir: 'dist/ssr',
    emptyOutDir: true,
    target: 'node22',
    minify: true,
    ssr: 'widget/src/server-render.ts',
    rolldownOptions: { checks: QUIET_CHECKS, output: { entryFileNames: 'render.js' } },
  },
  ssr: { noExternal: true, target: 'node' },
});
