// Skills "read from the resume file" (API rules: Resources): the sandbox finds the text
// it can in the file (PDF streams inflated, the XML of a .docx, the raw text of
// a .doc) and matches it against a fixed list of keywords. Images give none.
// Good enough to make the embed real; not a resume parser.
import { inflateRawSync, inflateSync } from 'node:zlib';

export const SKILL_KEYWORDS = [
  'Accounting',
  'Agile',
  'Angular',
  'AWS',
  'C#',
  'C++',
  'Communication',
  'CSS',
  'Customer service',
  'Data analysis',
  'Docker',
  'Excel',
  'Figma',
  'Finance',
  'French',
  'English',
  'Spanish',
  'German',
  'Git',
  'Go',
  'HTML',
  'Java',
  'JavaScript',
  'Kubernetes',
  'Leadership',
  'Linux',
  'Machine learning',
  'Marketing',
  'Negotiation',
  'Node.js',
  'Photoshop',
  'PHP',
  'Project management',
  'Python',
  'React',
  'Recruiting',
  'Ruby',
  'Rust',
  'Sales',
  'Scrum',
  'SEO',
  'SQL',
  'Teamwork',
  'TypeScript',
  'UX',
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
      return stripTags(zipText(bytes));
    case 'doc':
      return `${bytes.toString('latin1')} ${bytes.toString('utf16le')}`;
    default:
      return '';
  }
}

/**
 * At most this many bytes are inflated from one file, all its PDF streams or zip parts together. A few
 * kilobytes of deflated data can inflate to gigabytes (a "zip bomb"); the text of a real resume is far below.
 */
export const MAX_INFLATED_BYTES = 10 * 1024 * 1024;
/** At most this many zip entries are walked, however small: a zip of millions of empty entries is a bomb too. */
export const MAX_ZIP_ENTRIES = 500;
/** At most this many PDF streams are inflated. */
const MAX_PDF_STREAMS = 200;

/** Inflates one stream or zip part within what is left of the file's budget. */
function inflateBounded(data: Buffer, raw: boolean, limit: number): Buffer | 'over_limit' | 'damaged' {
  try {
    // maxOutputLength makes zlib stop (and throw) as soon as the output would pass the limit.
    return (raw ? inflateRawSync : inflateSync)(data, { maxOutputLength: limit });
  } catch (error) {
    return (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE' ? 'over_limit' : 'damaged';
  }
}

/** The file as latin1 plus every FlateDecode stream inflated; text operators stay readable enough. */
function pdfText(bytes: Buffer): string {
  const raw = bytes.toString('latin1');
  const parts = [raw];
  const streamRe = /stream\r?\n/g;
  let match: RegExpExecArray | null;
  let streams = 0;
  let budget = MAX_INFLATED_BYTES;
  while (budget > 0 && streams++ < MAX_PDF_STREAMS && (match = streamRe.exec(raw)) !== null) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    const inflated = inflateBounded(bytes.subarray(start, end), false, budget);
    // Past the budget, the file is a bomb (or far larger than a resume): keep the text found so far.
    if (inflated === 'over_limit') break;
    // A stream that is not deflated (or is damaged) is already in `raw`.
    if (inflated !== 'damaged') {
      parts.push(inflated.toString('latin1'));
      budget -= inflated.length;
    }
    streamRe.lastIndex = end;
  }
  return joinTextRuns(parts.join(' '));
}

/** The characters /\s/ matches among latin1 ones (PDF text here is read as latin1). */
function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 160;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

type Match = [start: number, end: number];

/**
 * The text with each match replaced by `by`: `next(text, from)` finds the next match at or after `from`. One pass
 * when `next` scans each character once.
 */
function replaceMatches(text: string, next: (text: string, from: number) => Match | undefined, by: string): string {
  const out: string[] = [];
  let copied = 0;
  for (let match = next(text, 0); match !== undefined; match = next(text, copied)) {
    out.push(text.slice(copied, match[0]), by);
    copied = match[1];
  }
  out.push(text.slice(copied));
  return out.join('');
}

/**
 * Text shown with TJ is split into strings with kerning numbers between them, "(Pyt) -20 (hon)": removes each
 * ") number (" so that the words read whole. A scan in one pass: the regex /\)\s*-?\d*\s*\(/g did the same but
 * backtracked over every split of a run of spaces, quadratic on a ")" followed by a million spaces.
 */
function joinTextRuns(text: string): string {
  return replaceMatches(text, nextKerning, '');
}

/** The next ") number (" between two strings of a TJ. */
function nextKerning(text: string, from: number): Match | undefined {
  let close = text.indexOf(')', from);
  while (close >= 0) {
    let i = close + 1;
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    if (text[i] === '-') i++;
    while (i < text.length && isDigit(text.charCodeAt(i))) i++;
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    if (text[i] === '(') return [close, i + 1];
    // The characters skipped hold no ")": the next one is at i or after, so no character is scanned twice.
    close = text.indexOf(')', i);
  }
  return undefined;
}

/**
 * Replaces every tag "<...>" by a space. A scan in one pass: the regex /<[^>]+>/g rescanned the rest of the text
 * from each "<" that has no ">" after it, quadratic on a long run of "<".
 */
function stripTags(xml: string): string {
  return replaceMatches(xml, nextTag, ' ');
}

function nextTag(xml: string, from: number): Match | undefined {
  let open = xml.indexOf('<', from);
  while (open >= 0) {
    const close = xml.indexOf('>', open + 1);
    // No ">" anywhere after: no more tags.
    if (close < 0) return undefined;
    if (close > open + 1) return [open, close + 1];
    // "<>" is not a tag (a tag has something inside); go on from the ">".
    open = xml.indexOf('<', close);
  }
  return undefined;
}

/** Concatenated XML of the parts of an OOXML (zip) file, read from its local file headers. */
function zipText(bytes: Buffer): string {
  const out: string[] = [];
  let offset = 0;
  let entries = 0;
  let budget = MAX_INFLATED_BYTES;
  while (offset + 30 <= bytes.length && bytes.readUInt32LE(offset) === 0x04034b50 && entries++ < MAX_ZIP_ENTRIES) {
    const method = bytes.readUInt16LE(offset + 8);
    const compressedSize = bytes.readUInt32LE(offset + 18);
    const nameLength = bytes.readUInt16LE(offset + 26);
    const extraLength = bytes.readUInt16LE(offset + 28);
    const name = bytes.subarray(offset + 30, offset + 30 + nameLength).toString('utf8');
    const dataStart = offset + 30 + nameLength + extraLength;
    const data = bytes.subarray(dataStart, dataStart + compressedSize);
    if (/^(word\/document|xl\/sharedStrings|xl\/worksheets\/[^/]+)\.xml$/.test(name)) {
      const part = method === 8 ? inflateBounded(data, true, budget) : data.length <= budget ? data : 'over_limit';
      // Past the budget, the file is a bomb (or far larger than a resume): keep the text found so far.
      if (part === 'over_limit') break;
      // A damaged part gives no text.
      if (part !== 'damaged') {
        out.push(part.toString('utf8'));
        budget -= part.length;
        if (budget <= 0) break;
      }
    }
    // Sizes of 0 with a data descriptor (bit 3) cannot be walked this way: stop there.
    if (compressedSize === 0 && (bytes.readUInt16LE(offset + 6) & 0x08) !== 0) break;
    offset = dataStart + compressedSize;
  }
  return out.join(' ');
}
