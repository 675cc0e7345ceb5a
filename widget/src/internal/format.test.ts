import { expect } from '@open-wc/testing';
import { formatDate, formatNumber, prepareFormatters, useRendered } from './format.ts';
import { until } from './test-support.ts';

describe('prepareFormatters', () => {
  it('sets up Intl one step a task, after the calling task: no task builds two of its parts', async () => {
    // A language no other test in this page formats in: nothing of it is cached yet.
    const tag = 'en-IE';
    const steps: { step: string; sameTaskAsLast: boolean }[] = [];
    let taskHasStep = false;
    const record = (step: string) => {
      steps.push({ step, sameTaskAsLast: taskHasStep });
      taskHasStep = true;
      // Set before the next step's timer, so it runs first: if the next step comes in a new task, it sees false.
      setTimeout(() => (taskHasStep = false));
    };
    const { Locale, NumberFormat, DateTimeFormat } = Intl;
    const { supportedLocalesOf } = Intl.Segmenter;
    const watch = <T extends abstract new (...args: never[]) => object>(
      target: T,
      step: (args: ConstructorParameters<T>) => string,
    ) =>
      new Proxy(target, {
        construct(t, args: ConstructorParameters<T>) {
          record(step(args));
          return Reflect.construct(t, args) as object;
        },
      });
    Object.assign(Intl, {
      Locale: watch(Locale, ([locale]) => `Locale ${String(locale)}`),
      NumberFormat: watch(
        NumberFormat,
        ([locale, options]) => `NumberFormat ${String(locale)} ${options?.style ?? 'decimal'}`,
      ),
      DateTimeFormat: watch(DateTimeFormat, ([locale]) => `DateTimeFormat ${String(locale)}`),
    });
    Intl.Segmenter.supportedLocalesOf = (locales) => {
      record(`Segmenter.supportedLocalesOf ${String(locales)}`);
      return supportedLocalesOf(locales);
    };
    try {
      prepareFormatters(tag);
      expect(steps, 'nothing in the calling task').to.deep.equal([]);
      await until(() => steps.length === 5, 'the five steps ran');
      expect(steps).to.deep.equal(
        [
          'Locale en-IE',
          'Segmenter.supportedLocalesOf en-IE',
          'NumberFormat en-IE currency',
          'DateTimeFormat en-IE',
          'NumberFormat en-IE decimal',
        ].map((step) => ({ step, sameTaskAsLast: false })),
      );
    } finally {
      Object.assign(Intl, { Locale, NumberFormat, DateTimeFormat });
      Intl.Segmenter.supportedLocalesOf = supportedLocalesOf;
    }
  });
});

describe('useRendered', () => {
  it('formats with the texts the server formatted, by what they show, and leaves out what is not text', () => {
    useRendered({ 'date:en-AU:2027-01-04': 'the server’s date', 'number:en-AU:5': 5 });
    useRendered(null);
    expect(formatDate('en-AU', '2027-01-04')).to.equal('the server’s date');
    expect(formatDate('en-AU', '2027-01-05')).to.equal('5 January 2027');
    expect(formatNumber('en-AU', 5)).to.equal('5');
  });
});
