// The resume a form brings, as its field's mode takes it: a file whose type
// is read from its bytes, the photos of its pages (assembled into one PDF
// later, once every other check passed), or none; and what is wrong with it.
// Read before any answer, so that a candidate learns of a wrong file with the
// other fields' problems, not on the next submit.
import type { ResumeType } from '../../contract/index.ts';
import type { FieldMode } from '../../public-api/application-form.ts';
import type { FieldProblem, ProblemError } from '../http/problem.ts';
import type { ParsedFile, ParsedForm } from './multipart.ts';
import { sniffResume, unsupportedFileType } from './resume.ts';
import { hasPages, pageProblems } from './resume-pages.ts';

export interface FormResume {
  /** The resume file sent and kept, if any. */
  file: ParsedFile | undefined;
  /** Its type, read from its bytes (undefined: none, or none of the resume types). */
  type: ResumeType | undefined;
  /** The resume comes as photos of its pages. */
  photographed: boolean;
  /** The resume's problems among the form's fields (one 422 with theirs). */
  problems: FieldProblem[];
  /** A file of no resume type: alone, it keeps its own answer (415). */
  wrongFile: ProblemError | undefined;
}

export async function readFormResume(form: ParsedForm, mode: FieldMode): Promise<FormResume> {
  const photographed = mode !== 'hidden' && hasPages(form);
  const file = mode === 'hidden' || form.resume === undefined || form.resume.size === 0 ? undefined : form.resume;
  const problems: FieldProblem[] = [];
  if (file === undefined && !photographed && mode === 'required')
    problems.push({ field: 'resume', code: 'file_required', message: 'Attach your resume.' });
  if (photographed) problems.push(...pageProblems(form));
  const sniffed = file === undefined ? undefined : await sniffResume(file);
  const wrongFile =
    file !== undefined && sniffed?.type === undefined
      ? unsupportedFileType(file.filename, sniffed?.detected)
      : undefined;
  return { file, type: sniffed?.type, photographed, problems, wrongFile };
}
