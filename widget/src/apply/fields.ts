// The apply form's controls, in display order, from the form's one table
// (server/public-api/application-form.ts), which the proxy checks against too.
// `rule` is the field's key in /api/config `fields` and in the `field-*`
// attribute that overrides it; the phone's two controls share one rule and
// render as one group.
import { APPLICATION_FORM } from '../../../server/public-api/application-form.ts';
import type { FieldKind, FormField } from '../../../server/public-api/application-form.ts';
import type { FieldName } from '../internal/api.ts';

export type Kind = FieldKind;

export type FormControl = FormField & { rule: FieldName };

export const controls: readonly FormControl[] = APPLICATION_FORM;

/** The controls of one rule (the phone has two), for rendering as one field. */
export function groups(): FormControl[][] {
  const byRule = new Map<FieldName, FormControl[]>();
  for (const control of controls) byRule.set(control.rule, [...(byRule.get(control.rule) ?? []), control]);
  return [...byRule.values()];
}

/** The `field-*` attribute of each rule a board may set that way, and its property, named after it (`field-bio-url` is `fieldBioUrl`). */
export const fieldAttributes: readonly { rule: FieldName; attribute: string; property: string }[] = controls.flatMap(
  ({ rule, attribute }) =>
    attribute
      ? [{ rule, attribute, property: attribute.replace(/-(.)/g, (_all, letter: string) => letter.toUpperCase()) }]
      : [],
);
