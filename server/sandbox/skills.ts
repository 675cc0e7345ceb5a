// Skills "read from the resume file" (API rules: Resources): the sandbox finds the text
// it can in the file (PDF streams inflated, the XML of a .docx, the raw text of
// a .doc) and matches it against a fixed list of keywords. Images give none.
// Good enough to make the embed real; not a resume parser.
import { inflateRawSync, inflateSync } from 'node:zlib';

export const SKILL_KEYWORDS = [
  'Accounting', 'Agile', 'Angular', 'AWS', 'C#', 'C++', 'Communication', 'CSS', 'Customer service',
  'Data analysis', 'Docker', 'Excel', 'Figma', 'Finance', 'French', 'English', 'Spanish', 'German',
  'Git', 'Go', 'HTML', 'Java', 'JavaScript', 'Kubernetes', 'Leadership', 'Linux', 'Machine learning',
  'Marketing', 'Negotiation', 'Node.js', 'Photoshop', 'PHP', 'Project management', 'Python', 'React',
  'Recruiting', 'Ruby', 'Rust', 'Sales', 'Scrum', 'SEO', 'SQL', 'Teamwork', 'TypeScript', 'UX',
];

const patterns = SKILL_KEYWORDS.map((name) => ({
  name,
  // Word boundaries that also work for names such as "C++", "C#" and "Node.js".
  re: new RegExp(`(^|[^A-Za-z0-9+#])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9+#])`, 'i'),
}));

export function extractSkills(bytes: Uint8Array, type: string): string[] {
  const text = extractText(Buffer.from(bytes), type);
  if (text === '') return [];
  return patterns.filter((p) => p.re.test(text)).map((p) => p.name);
}

export function extractText(bytes: Buffer, type: string): string {
  switch (type) {
    case 'pdf':
      return pdfText(bytes);
    case 'docx':
    case 'xlsx':
      return zipText(bytes).replace(/<[^>]+>/g, ' ');
    case 'doc':
      return `${bytes.toString('latin1')} ${bytes.toString('utf16le')}`;
    default:
      return '';
  }
}

/** The file as latin1 plus every FlateDecode stream inflated; text operators stay readable enough. */
function pdfText(bytes: Buffer): string {
  const raw = bytes.toString('latin1');
  const parts = [raw];
  const streamRe = /stream\r?\n/g;
  let match: RegExpExecArray | null;
  let budget = 200;
  while ((match = streamRe.exec(raw)) !== null && budget-- > 0) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    try {
      parts.push(inflateSync(bytes.subarray(start, end)).toString('latin1'));
    } catch {
      // Not a deflated stream (or a damaged one): its raw bytes are already in `raw`.
    }
    streamRe.lastIndex = end;
  }
  // Text shown with Tj/TJ is in parentheses; keep them, joined by spaces.
  return parts.join(' ').replace(/\)\s*-?\d*\s*\(/g, '');
}

/** Concatenated XML of the parts of an OOXML (zip) file, read from its local file headers. */
function zipText(bytes: Buffer): string {
  const out: string[] = [];
  let offset = 0;
  let entries = 0;
  while (offset + 30 <= bytes.length && bytes.readUInt32LE(offset) === 0x04034b50 && entries++ < 500) {
    const method = bytes.readUInt16LE(offset + 8);
    const compressedSize = bytes.readUInt32LE(offset + 18);
    const nameLength = bytes.readUInt16LE(offset + 26);
    const extraLength = bytes.readUInt16LE(offset + 28);
    const name = bytes.subarray(offset + 30, offset + 30 + nameLength).toString('utf8');
    const dataStart = offset + 30 + nameLength + extraLength;
    const data = bytes.subarray(dataStart, dataStart + compressedSize);
    if (/^(word\/document|xl\/sharedStrings|xl\/worksheets\/[^/]+)\.xml$/.test(name)) {
      try {
        out.push((method === 8 ? inflateRawSync(data) : data).toString('utf8'));
      } catch {
        // A damaged part gives no text.
      }
    }
    // Sizes of 0 with a data descriptor (bit 3) cannot be walked this way: stop there.
    if (compressedSize === 0 && (bytes.readUInt16LE(offset + 6) & 0x08) !== 0) break;
    offset = dataStart + compressedSize;
  }
  return out.join(' ');
}
