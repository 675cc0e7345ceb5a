import { defineConfig } from 'vite';

/** Lit and its localisation stay imports: the application bundles them once. */
function isLit(id: string): boolean {
  return /^(lit|lit-html|lit-element)(\/|$)|^@lit(-labs)?\//.test(id);
}

// Builds the npm entry (`jobboard-connector/widget`, dist/npm/index.js): the
// classes and event types of widget/src/index.ts, no element defined, Lit
// external. Not minified: the application's bundler minifies and tree-shakes.
// Type declarations come next to it from `tsc -p widget/tsconfig.npm.json`.
// The script-tag bundle is vite.config.ts (dist/widget/widget.js).
export default defineConfig({
  build: {
    outDir: 'dist/npm',
    emptyOutDir: true,
    target: 'es2022',
    minify: false,
    lib: {
      entry: 'widget/src/index.ts',
      formats: ['es'],
      fileName: () => 'index.js',
    },
    rolldownOptions: { external: isLit },
  },
});
