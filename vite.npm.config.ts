import { defineConfig } from 'vite';
import { QUIET_CHECKS, localizeRuntime } from './vite.config.ts';

/** Lit and React stay imports: the application bundles them once. The localisation runtime is the widget's own. */
function isExternal(id: string): boolean {
  return /^(lit|lit-html|lit-element|react|react-dom)(\/|$)|^@lit(-labs)?\/(?!localize$)/.test(id);
}

// Builds the npm entry (`jobboard-connector/widget`, dist/npm/index.js): the
// classes and event types of widget/src/index.ts, no element defined, Lit
// external; and the React entry (`jobboard-connector/react`,
// dist/npm/react.js). Not minified: the application's bundler minifies and
// tree-shakes.
// Type declarations come next to it from `tsc -p widget/tsconfig.npm.json`.
// The script-tag bundle is vite.config.ts (dist/widget/widget.js).
export default defineConfig({
  resolve: { alias: [localizeRuntime] },
  build: {
    outDir: 'dist/npm',
    emptyOutDir: true,
    target: 'es2022',
    minify: false,
    lib: {
      // The React entry (`jobboard-connector/react`) shares the elements' code with index.js, in one module beside them.
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
