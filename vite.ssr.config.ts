import { defineConfig } from 'vite';
import { QUIET_CHECKS, dropLeftovers, localizeRuntime, minifyTemplates } from './vite.config.ts';

// Builds the server renderer of <jobboard-campaigns> (widget/src/server-render.ts)
// for Node into dist/ssr/render.js: the proxy imports it at run time, and a
// partner's install needs none of the widget's sources. Lit and @lit-labs/ssr
// stay dependencies of the server package, imported, not copied in: inlined,
// they were four fifths of the renderer and a sixth of the packed package.
const SERVER_PACKAGES = [
  'lit',
  'lit-html',
  'lit-element',
  '@lit/reactive-element',
  '@lit-labs/ssr',
  '@lit-labs/ssr-client',
  '@lit-labs/ssr-dom-shim',
];

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
  ssr: { noExternal: true, external: SERVER_PACKAGES, target: 'node' },
});
