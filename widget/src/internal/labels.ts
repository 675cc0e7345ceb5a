// Labels of the API's contract types and working times in the widget's
// language. The API values themselves (server/contract/values.ts) stay what is
// sent back in filters: the service compares them exactly, case included.
// No `desc` for translators here: runtime mode keeps it in the bundle. French
// usage: CDD, CDI, Intérim, Alternance, Stage, VIE (the API's "IVB"), Titulaire.
import { msg } from '@lit/localize';

/** The label of a `job_type`; a value the widget does not know is shown as it came. */
export function jobTypeLabel(value: string): string {
  switch (value) {
    case 'Fixed term contract':
      return msg('Fixed-term contract');
    case 'Permanent contract':
      return msg('Permanent contract');
    case 'Interim Contract':
      return msg('Temporary agency work');
    case 'Professional Contract':
      return msg('Vocational training contract');
    case 'Alternating':
      return msg('Work-study');
    case 'Freelance':
      return msg('Freelance');
    case 'Internship':
      return msg('Internship');
    case 'IVB':
      return msg('International volunteering (VIE)');
    case 'Tenured':
      return msg('Tenured position');
    case 'Other':
      return msg('Other contract');
    default:
      return value;
  }
}

/** The label of a `working_time`; a value the widget does not know is shown as it came. */
export function workingTimeLabel(value: string): string {
  switch (value) {
    case 'Full time':
      return msg('Full time');
    case 'Part time':
      return msg('Part time');
    case 'Part time - Morning':
      return msg('Part time – mornings');
    case 'Part time - Afternoon':
      return msg('Part time – afternoons');
    case 'Half time':
      return msg('Half time');
    case 'Custom':
      return msg('Custom hours');
    default:
      return value;
  }
}
