// Writes the element reference of widget/README.md from widget/custom-elements.json
// (run by `npm run analyze` after the analyzer), between the markers
// <!-- reference:start --> and <!-- reference:end -->.
import { readFile, writeFile } from 'node:fs/promises';

interface Item {
  name?: string;
  description?: string;
  type?: { text?: string };
  default?: string;
  fieldName?: string;
}

interface Declaration {
  name: string;
  tagName?: string;
  customElement?: boolean;
  summary?: string;
  description?: string;
  attributes?: Item[];
  events?: Item[];
  cssParts?: Item[];
  cssProperties?: Item[];
  slots?: Item[];
}

const root = new URL('../../', import.meta.url);
const manifest = JSON.parse(await readFile(new URL('widget/custom-elements.json', root), 'utf8')) as {
  modules: { path: string; declarations?: Declaration[] }[];
};

const cell = (text: string | undefined) => (text ?? '').replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

function table(title: string, head: string[], rows: string[][]): string[] {
  if (rows.length === 0) return [];
  return [
    `**${title}**`,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
  ];
}

/** A table of named items and their descriptions, the name's column headed `noun`. */
function namedTable(title: string, noun: string, items: Item[] = []): string[] {
  return table(
    title,
    [noun, 'description'],
    items.map((item) => [`\`${item.name}\``, cell(item.description)]),
  );
}

const lines: string[] = [];
for (const mod of manifest.modules) {
  for (const d of mod.declarations ?? []) {
    if (!d.customElement || !d.tagName) continue;
    lines.push(`### \`<${d.tagName}>\``, '', `${cell(d.summary)} Class \`${d.name}\` (\`${mod.path}\`).`, '');
    if (d.description) lines.push(d.description.trim(), '');
    lines.push(
      ...table(
        'Attributes',
        ['attribute', 'property', 'type', 'default', 'description'],
        (d.attributes ?? []).map((a) => [
          `\`${a.name}\``,
          a.fieldName ? `\`${a.fieldName}\`` : '',
          cell(a.type?.text),
          cell(a.default),
          cell(a.description),
        ]),
      ),
      ...namedTable('Events', 'event', d.events),
      ...namedTable('CSS parts', 'part', d.cssParts),
      ...namedTable('CSS custom properties', 'property', d.cssProperties),
      ...namedTable('Slots', 'slot', d.slots),
    );
  }
}

const readme = new URL('widget/README.md', root);
const text = await readFile(readme, 'utf8');
const start = '<!-- reference:start -->';
const end = '<!-- reference:end -->';
const from = text.indexOf(start);
const to = text.indexOf(end);
if (from < 0 || to < from) throw new Error(`widget/README.md needs the markers ${start} and ${end}`);
const generated = `${start}\n<!-- Generated from custom-elements.json by \`npm run analyze\`; edit the JSDoc, not this. -->\n\n${lines.join('\n')}\n${end}`;
await writeFile(readme, text.slice(0, from) + generated + text.slice(to + end.length));
console.log('widget/README.md: element reference updated');
