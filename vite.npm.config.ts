import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { QUIET_CHECKS, localizeRuntime } from './vite.config.ts';

/** Lit and React stay imports: the application bundles them once. The localisation runtime is the widget's own. */
function isExternal(id: string): boolean {
  return /^(lit|lit-html|lit-element|react|react-dom)(\/|$)|^@lit(-labs)?\/(?!localize$)/.test(id);
}

// Builds the front-end package's entries into widget/dist/: `@jobboard-connector/widget`
// (index.js), the classes and event types of widget/src/index.ts, no element
// defined, Lit external; and `@jobboard-connector/widget/react` (react.js).
// Not minified: the application's bundler minifies and tree-shakes. Run from
// the repository's root (`npm run build`) or from widget/ (`npm run build
// --workspace widget`, `npm pack --workspace widget`): paths are the root's.
// Type declarations come next to it from widget/scripts/declarations.ts.
// The script-tag bundle is vite.config.ts (dist/widget/widget.js, the server package's).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { alias: [localizeRuntime] },
  build: {
    outDir: 'widget/dist',
    emptyOutDir: true,
    target: 'es2022',
    minify: false,
    lib: {
      // The React entry shares the elements' code with index.js, in one module beside them.
      entry: { index: 'widget/src/index.ts', react: 'widget/src/react.ts' },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    rolldownOptions: {
      external: isExternal,
      checks: QUIET_CHECKS,
      // The languages keep their names (fr-<hash>.js); the code both entries share is the elements'.
      output: { chunkFileNames: (chunk) => (chunk.isDynamicEntry ? '[name]-[hash].js' : 'elements-[hash].js') },
    },
  },
});
