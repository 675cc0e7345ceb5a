// Labels of the API's contract types and working times in the widget's
// language. The API values themselves (server/contract/values.ts) stay what is
// sent back in filters: the service compares them exactly, case included.
// No `desc` for translators here: runtime mode keeps it in the bundle. French
// usage: CDD, CDI, Intérim, Alternance, Stage, VIE (the API's "IVB"), Titulaire.
import { msg } from '@lit/localize';
import type { JobType, WorkingTime } from '../../../server/contract/values.ts';

/** Labels of the values of one API type, read when shown (the language may have changed). */
type Labels<T extends string> = Record<T, () => string>;

const JOB_TYPE_LABELS: Labels<JobType> = {
  'Fixed term contract': () => msg('Fixed-term contract'),
  'Permanent contract': () => msg('Permanent contract'),
  'Interim Contract': () => msg('Temporary agency work'),
  'Professional Contract': () => msg('Vocational training contract'),
  Alternating: () => msg('Work-study'),
  Freelance: () => msg('Freelance'),
  Internship: () => msg('Internship'),
  IVB: () => msg('International volunteering (VIE)'),
  Tenured: () => msg('Tenured position'),
  Other: () => msg('Other contract'),
};

const WORKING_TIME_LABELS: Labels<WorkingTime> = {
  'Full time': () => msg('Full time'),
  'Part time': () => msg('Part time'),
  'Part time - Morning': () => msg('Part time – mornings'),
  'Part time - Afternoon': () => msg('Part time – afternoons'),
  'Half time': () => msg('Half time'),
  Custom: () => msg('Custom hours'),
};

/** The label of `value` in `labels`; a value the widget does not know is shown as it came. */
function labelIn(labels: Record<string, () => string>, value: string): string {
  return Object.hasOwn(labels, value) ? (labels[value] as () => string)() : value;
}

/** The label of a `job_type`; a value the widget does not know is shown as it came. */
export function jobTypeLabel(value: string): string {
  return labelIn(JOB_TYPE_LABELS, value);
}

/** The label of a `working_time`; a value the widget does not know is shown as it came. */
export function workingTimeLabel(value: string): string {
  return labelIn(WORKING_TIME_LABELS, value);
}
