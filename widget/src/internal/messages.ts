// The candidate's messages for the proxy's problem codes and for the form's
// field errors. Only the apply form says them, so they travel in its chunk
// of the script-tag bundle, not in widget.js.
import { msg, str } from '@lit/localize';
import { originNotAllowed } from './localize.ts';

/** Localised message for a problem code of the proxy or of the widget. */
export function problemMessage(code: string): string {
  switch (code) {
    case 'already_applied':
      return msg('You have already applied to this offer. Your application is with the recruiter.');
    case 'validation_failed':
      return msg('Some fields are not valid. Correct them and send the form again.');
    case 'file_too_large':
      return msg('The resume is too large. Choose a smaller file.');
    case 'request_too_large':
      return msg('The form is too large. Shorten the cover letter, then send it again.');
    case 'unsupported_file_type':
      return msg('This file type is not accepted. Choose a PDF, image or Word document.');
    case 'campaign_not_found':
    case 'not_found':
      return msg('This offer is no longer available.');
    case 'campaign_closed':
      return msg('This offer is closed and no longer takes applications.');
    case 'rate_limited':
      return msg('Too many attempts. Wait a minute, then send the form again.');
    case 'captcha_failed':
      return msg('The anti-spam check failed. Complete it again, then send the form.');
    case 'origin_not_allowed':
      return originNotAllowed();
    case 'network_error':
    case 'idempotency_key_in_progress':
      return msg(
        'The connection was lost. Your application may not have been sent: send it again, it will not be duplicated.',
      );
    case 'upload_cancelled':
      return msg('Upload cancelled. Your application was not sent.');
    case 'not_ready':
      return msg('The service is starting. Try again in a moment.');
    // Too many uploads at once, in all or from the candidate's network.
    case 'server_busy':
      return msg('Too many applications at once. Send the form again in a moment.');
    // The resume came slower than the proxy waits for: sending again, on a better connection, is safe.
    case 'upload_too_slow':
      return msg(
        'The resume was sent too slowly and the upload was stopped. Your application was not sent: check your connection, then send it again.',
      );
    case 'storage_full':
      return msg(
        'This job board cannot receive applications right now, through no fault of yours. Your application was not sent: try again later.',
      );
    // The board's connection to the recruiter is misconfigured: nothing the candidate can fix.
    case 'delivery_blocked':
      return msg(
        'This job board cannot send applications to the recruiter right now, through no fault of yours. Your application was not sent: try again later.',
      );
    default:
      return msg('Something went wrong on our side. Try again in a moment.');
  }
}

/** Localised message for a per-field error code. */
export function fieldMessage(code: string, limit?: string): string {
  switch (code) {
    case 'required':
    case 'file_required':
      return msg('This field is required.');
    case 'invalid_email':
      return msg('Enter an email address like name@example.com.');
    case 'invalid_url':
      return msg('Enter a web address starting with https://.');
    case 'invalid_phone':
      return msg('Enter a country code like +33 and a phone number with digits only.');
    case 'too_long':
      return msg('This text is too long.');
    case 'consent_required':
      return msg('You must accept the processing of your data to apply.');
    case 'file_too_large':
      return limit ? msg(str`The file is larger than ${limit}.`) : msg('The file is too large.');
    case 'unsupported_file_type':
      return msg('This file type is not accepted.');
    default:
      return msg('This value is not valid.');
  }
}

/**
 * A file whose bytes are not what its name says: `named` its extension
 * (PDF), `detected` what its bytes are when known (txt, or an extension).
 */
export function notRealFile(named: string, detected?: string): string {
  return detected === 'txt'
    ? msg(str`This file is not a real ${named}: it is a text file.`)
    : detected
      ? msg(str`This file is not a real ${named}: its content is ${detected.toUpperCase()}.`)
      : msg(str`This file is not a real ${named}.`);
}
