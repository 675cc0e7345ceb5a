// Photos of a paper resume's pages (resume_pages): checked with the other
// fields, then assembled in their order into one PDF in the upload spool,
// which is the application's resume from there on (stored, sent upstream as a
// pdf). pdf-lib writes the PDF: each photo is one page of its own shape,
// its longest side that of an A4 sheet, so that it prints at a readable size.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MAX_RESUME_PAGES, RESUME_PAGES_FIELD } from '../../public-api/resume-pages.ts';
import { ProblemError } from '../http/problem.ts';
import type { FieldProblem } from '../http/problem.ts';
import { fileTooLarge } from './multipart.ts';
import type { ParsedFile, ParsedForm } from './multipart.ts';
import { resumeTypeOf } from './resume.ts';
import { storeFailure } from './store-failure.ts';
import type { UploadSpool } from './upload-spool.ts';

function pageProblem(code: FieldProblem['code'], message: string): FieldProblem {
  return { field: RESUME_PAGES_FIELD, code, message };
}

/** Whether a form sends its resume as photos of its pages. */
export function hasPages(form: ParsedForm): boolean {
  return form.pagesSent > 0;
}

/**
 * What is wrong with a form's pages, told with the other fields' problems:
 * pages besides a resume file, too many pages, a page whose first bytes are
 * no photo's. Empty when the pages can be assembled (or there are none).
 */
export function pageProblems(form: ParsedForm): FieldProblem[] {
  if (!hasPages(form)) return [];
  const problems: FieldProblem[] = [];
  if (form.resume !== undefined)
    problems.push(pageProblem('invalid_value', 'Send either a resume file or photos of its pages, not both.'));
  if (form.pagesSent > MAX_RESUME_PAGES)
    problems.push(pageProblem('invalid_value', `Send at most ${MAX_RESUME_PAGES} pages; ${form.pagesSent} were sent.`));
  const notPhotos = form.pages.flatMap((page, i) => (page.path === null ? [i + 1] : []));
  if (notPhotos.length > 0)
    problems.push(
      pageProblem(
        'unsupported_file_type',
        `Each page must be a JPG or PNG photo; page ${notPhotos.join(', ')} is not.`,
      ),
    );
  return problems;
}

function notPhoto(page: number): ProblemError {
  const message = `Each page must be a JPG or PNG photo; page ${page} is not one that can be read.`;
  return new ProblemError('unsupported_file_type', `${message} Take its photo again.`, {
    errors: [{ field: RESUME_PAGES_FIELD, code: 'unsupported_file_type', message }],
  });
}

/** An A4 sheet's longest side, in PDF points. */
const A4_LONG_SIDE = 842;

/**
 * Writes the pages, in their order, as one PDF to a new upload file of
 * `spool`, and answers it as the form's resume. The pages' own files are left
 * to the caller. Rejects with 415 unsupported_file_type when a page's bytes
 * are no jpg or png (read whole, past its first bytes) or cannot be decoded,
 * 413 file_too_large when the PDF passes `maxBytes`, and as storeFailure says
 * when it cannot be written (a full disk).
 */
export async function assemblePages(pages: ParsedFile[], spool: UploadSpool, maxBytes: number): Promise<ParsedFile> {
  // Loaded with the first resume sent as photos: a proxy that never gets one does not carry pdf-lib in its memory.
  const { PDFDocument } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  for (const [i, page] of pages.entries()) {
    const type = page.path === null ? undefined : await resumeTypeOf(page.path);
    if (type !== 'jpg' && type !== 'png') throw notPhoto(i + 1);
    const bytes = await readFile(page.path!);
    const image = await (type === 'jpg' ? pdf.embedJpg(bytes) : pdf.embedPng(bytes)).catch(() => {
      throw notPhoto(i + 1);
    });
    const { width, height } = image.scale(A4_LONG_SIDE / Math.max(image.width, image.height));
    pdf.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height });
  }
  const bytes = await pdf.save();
  if (bytes.length > maxBytes) throw fileTooLarge(maxBytes);
  const path = spool.newPath();
  try {
    await pipeline(Readable.from([bytes]), spool.open(path));
  } catch (error) {
    spool.discard(path);
    throw storeFailure(error);
  }
  return {
    filename: 'resume.pdf',
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    path,
  };
}
