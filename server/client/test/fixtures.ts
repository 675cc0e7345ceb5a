// Tiny files of each type, built in memory so tests need no binary fixtures.
import { ole2, zip } from '../../contract/test/office-files.ts';

export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
export const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
export const JPG = Buffer.from('ffd8ffe000104a46494600010100000100010000ffdb', 'hex');
export const DOC = ole2({ '/WordDocument': 'content' });
export const XLS = ole2({ '/Workbook': 'content' });
export const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]);


const contentTypes = (main: string) =>
  `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/main.xml" ContentType="${main}"/></Types>`;

export const DOCX = zip({
  '[Content_Types].xml': contentTypes('application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml'),
  'word/document.xml': '<w:document/>',
});
export const XLSX = zip({
  '[Content_Types].xml': contentTypes('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml'),
  'xl/workbook.xml': '<workbook/>',
});
