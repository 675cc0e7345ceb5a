// The application form moved to the proxy's public API
// (server/public-api/application-form.ts). This re-export remains only for
// the storage module's one type import; remove it once that imports from there.
export type { ApplicantFormName } from '../public-api/application-form.ts';
