import { defineConfig } from 'vite';

// Builds the widget into one ES module for a script tag (dist/widget/widget.js):
// Lit, the widget and all three locales in one file, minified, because every
// kilobyte is paid by every visitor of the board (budget: 25 KB gzipped,
// test/widget-size.test.ts).
export default defineConfig({
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    target: 'es2022',
    // Lib mode keeps whitespace in ES output (for tree shaking by bundlers);
    // a script-tag bundle is not tree-shaken again, so minify it fully.
    rolldownOptions: { output: { minify: true } },
    lib: {
      entry: 'widget/src/widget.ts',
      formats: ['es'],
      fileName: () => 'widget.js',
    },
  },
});
