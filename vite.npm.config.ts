import { defineConfig } from 'vite';

/** Lit and its localisation, and React, stay imports: the application bundles them once. */
function isExternal(id: string): boolean {
  return /^(lit|lit-html|lit-element|react|react-dom)(\/|$)|^@lit(-labs)?\//.test(id);
}

// Builds the npm entry (`jobboard-connector/widget`, dist/npm/index.js): the
// classes and event types of widget/src/index.ts, no element defined, Lit
// external; and the React entry (`jobboard-connector/react`,
// dist/npm/react.js). Not minified: the application's bundler minifies and
// tree-shakes.
// Type declarations come next to it from `tsc -p widget/tsconfig.npm.json`.
// The script-tag bundle is vite.config.ts (dist/widget/widget.js).
export default defineConfig({
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
      // The languages keep their names (fr-<hash>.js); the code both entries share is the elements'.
      output: { chunkFileNames: (chunk) => (chunk.isDynamicEntry ? '[name]-[hash].js' : 'elements-[hash].js') },
    },
  },
});
