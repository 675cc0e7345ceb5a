// The reference pages' style sheet (reference-page.ts), inline in the page:
// the pages' policy allows their own inline styles and nothing fetched.
// System fonts only, so the page names no font it would have to fetch; a
// table of contents beside the text on a wide screen, above it on a phone;
// light or dark as the reader's system is.
export const REFERENCE_STYLES = `
:root { color-scheme: light dark; --muted: color-mix(in srgb, CanvasText 60%, Canvas); --line: color-mix(in srgb, CanvasText 15%, Canvas); --tint: color-mix(in srgb, CanvasText 5%, Canvas); }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: Canvas; color: CanvasText; display: grid; grid-template-columns: minmax(14rem, 18rem) minmax(0, 1fr); }
@media (max-width: 60rem) { body { display: block; } nav { position: static !important; max-height: none !important; border-right: 0 !important; border-bottom: 1px solid var(--line); } }
nav { position: sticky; top: 0; max-height: 100vh; overflow: auto; padding: 1rem; border-right: 1px solid var(--line); font-size: 0.9em; }
nav ul { list-style: none; margin: 0; padding: 0; }
nav ul ul { margin: 0.2rem 0 0.8rem 0.4rem; }
nav a { display: block; padding: 0.1rem 0; text-decoration: none; color: inherit; overflow-wrap: anywhere; }
nav a:hover { text-decoration: underline; }
main { padding: 1rem 2rem 4rem; max-width: 70rem; }
h1 small { font-size: 0.55em; color: var(--muted); font-weight: normal; }
h2 { margin-top: 3rem; padding-bottom: 0.3rem; border-bottom: 2px solid var(--line); }
h3 { margin: 0 0 0.4rem; font-size: 1.1em; overflow-wrap: anywhere; }
h4 { margin: 1rem 0 0.4rem; font-size: 0.8em; text-transform: uppercase; letter-spacing: 0.05em; color: var(--muted); }
code, pre { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.92em; }
pre { background: var(--tint); padding: 0.7rem; border-radius: 4px; overflow: auto; max-height: 30rem; }
figure { margin: 0.5rem 0; }
figcaption { font-size: 0.85em; color: var(--muted); }
.operation, .schema-entry { margin: 1.5rem 0; padding: 1rem 1.2rem; border: 1px solid var(--line); border-radius: 6px; }
.summary { font-weight: 600; margin: 0.2rem 0; }
.note { color: var(--muted); }
.method { display: inline-block; min-width: 3.6em; padding: 0 0.3em; border-radius: 3px; font: 600 0.75em/1.6 ui-monospace, Menlo, Consolas, monospace; text-align: center; color: #fff; background: #546e7a; }
.method.get { background: #2e7d32; } .method.post { background: #1565c0; } .method.put, .method.patch { background: #8d6e00; } .method.delete { background: #c62828; }
.type { color: var(--muted); font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.88em; }
.type a { color: inherit; }
.required { color: #c62828; font-size: 0.8em; font-weight: 600; }
.about { color: var(--muted); font-size: 0.92em; }
table { border-collapse: collapse; width: 100%; font-size: 0.92em; }
th, td { text-align: left; vertical-align: top; padding: 0.35rem 0.5rem; border-bottom: 1px solid var(--line); }
td:first-child { white-space: nowrap; }
ul.properties, ul.answers, ul.headers { list-style: none; padding-left: 0; margin: 0.3rem 0; }
ul.properties ul.properties { padding-left: 1rem; border-left: 2px solid var(--line); }
ul.properties > li, ul.answers > li { padding: 0.3rem 0; border-bottom: 1px solid var(--line); }
ul.properties > li:last-child, ul.answers > li:last-child { border-bottom: 0; }
.name { font-weight: 600; }
details > summary { cursor: pointer; color: var(--muted); font-size: 0.88em; }
.media { margin: 0.4rem 0 0.4rem 1rem; }
.media-type { font-size: 0.85em; color: var(--muted); }
.status { display: inline-block; min-width: 2.8em; font: 600 0.9em ui-monospace, Menlo, Consolas, monospace; }
.status.s2 { color: #2e7d32; } .status.s3 { color: #546e7a; } .status.s4 { color: #8d6e00; } .status.s5 { color: #c62828; }
`;
