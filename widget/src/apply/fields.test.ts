// The form's fields, from the list the element renders: each has a name in
// every language and is on the form, so a field added to the list without
// its translations or its rendering fails here.
import { expect, fixture, html } from '@open-wc/testing';
import '../widget.ts';
import type { JobboardApply } from '../index.ts';
import { useLocale } from '../internal/localize.ts';
import { locales, maybe, standIn, until } from '../internal/test-support.ts';
import { controls } from './fields.ts';
import { label, statement } from './labels.ts';

describe('the apply form fields', () => {
  afterEach(() => useLocale('en'));

  it('each have a name in English, and a translation of it in French and Spanish', async () => {
    await useLocale('en');
    const english = controls.map((c) => label(c.id));
    expect(
      english.filter((name, i) => name === controls[i]!.id),
      'fields without a name',
    ).to.deep.equal([]);
    for (const lang of locales.filter((l) => l !== 'en')) {
      await useLocale(lang);
      const untranslated = controls.filter((c, i) => label(c.id) === english[i]).map((c) => c.id);
      expect(untranslated, `names not translated to ${lang}`).to.deep.equal([]);
    }
  });

  it('are all on the form, each labelled with its name, when /api/config shows them all', async () => {
    const { endpoint } = standIn('ok');
    const el = await fixture<JobboardApply>(
      html`<jobboard-apply endpoint=${endpoint} campaign-id="101" lang="en" no-draft></jobboard-apply>`,
    );
    await until(() => maybe(el, 'form'), 'the form shows');
    for (const control of controls) {
      const input = maybe<HTMLInputElement>(el, `#${control.id}`);
      expect(input, `#${control.id}`).not.to.equal(null);
      const text = maybe(el, `label[for=${control.id}]`)?.textContent ?? '';
      expect(text, control.id).to.contain(control.kind === 'checkbox' ? statement(control.id) : label(control.id));
    }
  });
});
