// The resume's type, read from its bytes (never from its name or the
// browser's declared type): a renamed executable is refused.
import { fileTypeFromBuffer } from 'file-type';
import type { ResumeType } from '../../contract/index.ts';
import { RESUME_TYPES } from '../../contract/index.ts';
import { ProblemError } from '../problem.ts';

/** The OLE2 compound file signature of legacy Word .doc files. */
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** The resume type of these bytes, or undefined when they are none of pdf, jpg, png, doc, docx. */
export async function resumeTypeOf(bytes: Buffer): Promise<ResumeType | undefined> {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(OLE2)) return 'doc';
  const found = await fileTypeFromBuffer(bytes);
  const ext = found?.ext;
  if (ext === 'cfb') return 'doc';
  return (RESUME_TYPES as readonly string[]).includes(ext ?? '') ? (ext as ResumeType) : undefined;
}

export function unsupportedFileType(): ProblemError {
  const message = `The resume must be a ${RESUME_TYPES.join(', ')} file; its content is none of these.`;
  return new ProblemError(415, 'unsupported_file_type', 'This file type is not accepted', `${message} Save it as PDF and send it again.`, {
    errors: [{ field: 'resume', code: 'unsupported_file_type', message }],
  });
}
