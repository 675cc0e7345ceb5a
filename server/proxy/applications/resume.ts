// The resume's type, read from its bytes (never from its name or the
// browser's declared type): a renamed executable is refused.
import type { ResumeType } from '../../contract/index.ts';
import { RESUME_TYPES, sniffFileType } from '../../contract/index.ts';
import { ProblemError } from '../problem.ts';

/** The resume type of these bytes, or undefined when they are none of pdf, jpg, png, doc, docx. */
export async function resumeTypeOf(bytes: Buffer): Promise<ResumeType | undefined> {
  const { type } = await sniffFileType(bytes);
  return (RESUME_TYPES as readonly string[]).includes(type ?? '') ? (type as ResumeType) : undefined;
}

export function unsupportedFileType(): ProblemError {
  const message = `The resume must be a ${RESUME_TYPES.join(', ')} file; its content is none of these.`;
  return new ProblemError('unsupported_file_type', `${message} Save it as PDF and send it again.`, {
    errors: [{ field: 'resume', code: 'unsupported_file_type', message }],
  });
}
