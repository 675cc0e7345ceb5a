import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import type { Plugin } from 'vite';
import minifyHtmlLiterals from '@lit-labs/rollup-plugin-minify-html-literals';

/**
 * Minifies the HTML and CSS of the widget's Lit `html` and `css` templates
 * (the JavaScript minifier leaves template literals alone), with Lit's own
 * plugin: an HTML parser and lightningcss rather than regexes of ours.
 * `str` templates (localised texts, whose ids are hashes of their strings)
 * are not touched; a template it cannot read stops the build.
 */
export function minifyTemplates(): Plugin {
  return minifyHtmlLiterals({ include: ['**/widget/src/**'], failOnError: true }) as unknown as Plugin;
}

/**
 * What the minifier leaves that a script-tag bundle does not need: the
 * indentation after line breaks (only template literals keep line breaks,
 * and in Lit `html` templates a line break alone is the same whitespace to
 * the browser; no `msg` text spans lines, so the localisation ids, hashed
 * from the texts, stay the same) and the tree-shaking hints for bundlers.
 */
export function dropLeftovers(): Plugin {
  return {
    name: 'jobboard:drop-leftovers',
    // After minification, which writes the hints.
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk')
          chunk.code = chunk.code.replace(/\n[ \t]+/g, '\n').replace(/\/\* @__PURE__ \*\/ ?/g, '');
      }
    },
  };
}

/** V8's explicit compile hint (Chrome 136 and later), which must open the file. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Opens the apply form's module with V8's compile hint: Chromium then
 * compiles all of its functions at once, rather than each one again at its
 * first call, and nearly all of them run as a page with a form loads (its
 * fields, rules, draft and controller), so the form is interactive sooner
 * (BENCHMARKS.md, "Figures behind the code"). widget.js has no hint: on a
 * page with only a form, the offers' code in it would be compiled for
 * nothing, and the form came no sooner with it. Other browsers read a
 * comment.
 */
export function compileHints(): Plugin {
  return {
    name: 'jobboard:compile-hints',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk' && chunk.name === 'apply') chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
      }
    },
  };
}

// From this file, not the working folder: the front-end package builds from widget/ too.
const LOCALES_DIR = fileURLToPath(new URL('widget/src/generated/locales', import.meta.url));
const MESSAGE_ID = /'s([0-9a-f]{16})'/g;

/**
 * The shortest prefix of the translations' ids (hex hashes of the English
 * texts, 17 characters each) that still tells every message apart. The
 * translations are keyed by it in the bundle: random hex is the one thing in
 * the bundle gzip cannot shrink.
 */
function messageIdLength(): number {
  const ids = new Set<string>();
  for (const file of readdirSync(LOCALES_DIR)) {
    for (const match of readFileSync(`${LOCALES_DIR}/${file}`, 'utf8').matchAll(MESSAGE_ID)) ids.add(match[1]!);
  }
  for (let length = 4; length < 16; length += 1) {
    if (new Set([...ids].map((id) => id.slice(0, length))).size === ids.size) return length + 1;
  }
  return 17;
}

/**
 * Keys the bundled translations by their ids' shortest unique prefix; the
 * runtime looks a message up by the same prefix (widget/src/internal/localize-runtime.ts,
 * `__MESSAGE_ID_LENGTH__`).
 */
function shortenMessageIds(length: number): Plugin {
  return {
    name: 'jobboard:shorten-message-ids',
    // On the generated TypeScript as written, before the compiler reformats it.
    enforce: 'pre',
    transform(code, id) {
      if (!id.includes(LOCALES_DIR)) return null;
      return code.replace(MESSAGE_ID, (_all, hex: string) => `'s${hex.slice(0, length - 1)}'`);
    },
  };
}

/**
 * `@lit/localize` as the widget runs it: its own runtime of `msg` and `str`
 * (widget/src/internal/localize-runtime.ts). The sources keep importing them
 * from '@lit/localize', for `lit-localize extract`; every build of the widget
 * and the browser tests (web-test-runner.config.js) resolve it here.
 */
export const localizeRuntime = {
  find: /^@lit\/localize$/,
  replacement: fileURLToPath(new URL('widget/src/internal/localize-runtime.ts', import.meta.url)),
};

const idLength = messageIdLength();

/**
 * No `[PLUGIN_TIMINGS]` warning: Terser takes most of every minified build,
 * by choice (see `minify` below), so the bundler's note that plugins took
 * most of the time would be printed at every `npm start` and say nothing new.
 */
export const QUIET_CHECKS = { bundlerTimings: false };

// Builds the widget into an ES module for a script tag (dist/widget/widget.js):
// Lit, its hydration support, the offers and their English texts, minified,
// because every kilobyte is paid by every visitor of the board (budget: 20 KB
// gzipped, test/widget-size.test.ts). Beside it, the modules it imports: the
// apply form's (widget-apply-<hash>.js), fetched at once by every page, quick
// apply's (widget-quick-apply-<hash>.js), which the form's loads with it, the
// saved offers' (widget-saved-<hash>.js), which the catalogue loads after its
// first render, and a French or Spanish page's texts (widget-fr-<hash>.js,
// widget-es-<hash>.js).
export default defineConfig({
  plugins: [minifyTemplates(), shortenMessageIds(idLength), dropLeftovers(), compileHints()],
  define: { __MESSAGE_ID_LENGTH__: String(idLength) },
  resolve: { alias: [localizeRuntime] },
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    target: 'es2022',
    // Terser, then the bundler's own minifier: smaller gzipped than either alone.
    minify: 'terser',
    terserOptions: { module: true, compress: { passes: 2 } },
    // Lib mode keeps whitespace in ES output (for tree shaking by bundlers);
    // a script-tag bundle is not tree-shaken again, so minify it fully.
    // The apply form and the French and Spanish texts are modules of their own
    // (dynamic imports), beside widget.js: widget-apply-<hash>.js, widget-fr-<hash>.js.
    // The hash lets them be cached for good. The entry may export what those
    // modules share with it (Lit, the localisation runtime's str), rather than
    // a third file holding it.
    rolldownOptions: {
      preserveEntrySignatures: 'allow-extension',
      checks: QUIET_CHECKS,
      output: { minify: true, chunkFileNames: 'widget-[name]-[hash].js' },
    },
    lib: {
      entry: 'widget/src/widget.ts',
      formats: ['es'],
      fileName: () => 'widget.js',
    },
  },
});
