import { defineConfig } from 'vite';

// Builds the widget into one ES module for a script tag (dist/widget/widget.js).
export default defineConfig({
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    lib: {
      entry: 'widget/src/widget.ts',
      formats: ['es'],
      fileName: () => 'widget.js',
    },
  },
});
