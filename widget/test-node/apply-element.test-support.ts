// A stand-in of <jobboard-apply> for the apply controller's Node tests: the
// element's properties, its controllers, its updates as Lit schedules them
// (one render per batch of changes, after a microtask; updateComplete settles
// after it), and what a render shows, as apply.ts and apply-form.ts render
// it: each control of a field its rule shows, with the constraints the
// browser checks, the honeypot, the error summary, the outcome and the live
// region. The candidate's actions reach the controller as the form's
// listeners pass them. What the form keeps on the device (IndexedDB in a
// browser) is held in memory (Device).
import './browser.test-support.ts';
import type { FormEntries } from './browser.test-support.ts';
import { ApplicationController } from '../src/apply/application-controller.ts';
import type { ApplicationHost, Language, Store } from '../src/apply/application-controller.ts';
import type { Profile } from '../src/apply/device-store.ts';
import { fieldAttributes, groups } from '../src/apply/fields.ts';
import type { FormControl } from '../src/apply/fields.ts';
import type { CampaignSummary } from '../src/internal/api.ts';
import type { ReactiveController } from 'lit';

/** The type and pattern of each kind of control, as apply-form.ts renders them. */
const rendered: Record<FormControl['kind'], { type: string; pattern?: string }> = {
  email: { type: 'email' },
  text: { type: 'text' },
  'tel-code': { type: 'text', pattern: '\\+[0-9]{1,4}' },
  tel: { type: 'tel', pattern: '[0-9 .\\-\\(\\)]{4,20}' },
  url: { type: 'url' },
  file: { type: 'file' },
  textarea: { type: 'textarea' },
  checkbox: { type: 'checkbox' },
};

/** A valid email address, as HTML defines it for `type=email`. */
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** An input or textarea of the form, with the browser's constraint validation of what it holds. */
export class Control {
  #value = '';
  checked = false;
  files: File[] = [];
  required = false;
  /** The value the last render bound (Lit sets `.value` only when it changes). */
  bound: string | undefined;

  readonly #element: ApplyElement;
  readonly id: string;
  readonly type: string;
  readonly pattern: string | undefined;
  readonly maxLength: number | undefined;

  constructor(element: ApplyElement, id: string, type: string, pattern?: string, maxLength?: number) {
    this.#element = element;
    this.id = id;
    this.type = type;
    this.pattern = pattern;
    this.maxLength = maxLength;
  }

  /** A checkbox's is its value attribute; a file input's, the browser's fake path of the file chosen. */
  get value(): string {
    if (this.type === 'checkbox') return 'true';
    if (this.type === 'file') return this.files[0] ? `C:\\fakepath\\${this.files[0].name}` : '';
    return this.#value;
  }

  /** Only '' may be set to a file input's, which lets its files go. */
  set value(value: string) {
    if (this.type === 'file') this.files = [];
    this.#value = value;
  }

  get validity(): Pick<ValidityState, 'valueMissing' | 'typeMismatch' | 'patternMismatch' | 'tooLong'> {
    const { value, type } = this;
    const empty = type === 'checkbox' ? !this.checked : type === 'file' ? this.files.length === 0 : value === '';
    const filled = value !== '' && type !== 'checkbox' && type !== 'file';
    return {
      valueMissing: this.required && empty,
      typeMismatch: filled && ((type === 'email' && !EMAIL.test(value)) || (type === 'url' && !URL.canParse(value))),
      patternMismatch: filled && this.pattern !== undefined && !new RegExp(`^(?:${this.pattern})$`, 'v').test(value),
      tooLong: this.maxLength !== undefined && value.length > this.maxLength,
    };
  }

  focus(): void {
    this.#element.focused = this.id;
  }
}

/** An element a render may show and the controller focuses. */
class Focusable {
  readonly #element: ApplyElement;
  readonly id: string;
  constructor(element: ApplyElement, id: string) {
    this.#element = element;
    this.id = id;
  }
  focus(): void {
    this.#element.focused = this.id;
  }
}

/**
 * What the form keeps on the device, in memory, in place of the IndexedDB
 * store (whose own tests run in Chromium): the kept details and each draft's
 * resume. Elements given the same Device share it, as the pages of one board
 * origin do.
 */
export class Device {
  profile: Profile | null = null;
  readonly drafts = new Map<string, File>();
  /** How many times the form loaded the store's module. */
  loads = 0;
  /** The store's module cannot load (a network failure). */
  broken = false;

  readonly store = async (): Promise<Store> => {
    this.loads += 1;
    if (this.broken) throw new TypeError('Failed to fetch dynamically imported module');
    return {
      ...(await import('../src/apply/quick-apply.ts')),
      readProfile: async () => this.profile,
      saveProfile: async (values, resume) => {
        this.profile = { values, resume, saved: Date.now() };
      },
      forgetProfile: async () => {
        this.profile = null;
      },
      readDraftResume: async (key) => this.drafts.get(key) ?? null,
      saveDraftResume: async (key, file) => {
        if (file) this.drafts.set(key, file);
        else this.drafts.delete(key);
      },
      forgetAll: async () => {
        this.profile = null;
        this.drafts.clear();
      },
    };
  };

  /** Nothing kept: no details, no draft's resume. */
  empty(): boolean {
    return this.profile === null && this.drafts.size === 0;
  }
}

/** What a test reads of the events the element dispatched. */
export interface Dispatched {
  type: string;
  detail: unknown;
}

export class ApplyElement extends EventTarget implements FormEntries {
  endpoint: string;
  campaignId = 101;
  offer: CampaignSummary | undefined = undefined;
  noDraft = false;
  noQuickApply = false;
  readonly device: Device;
  readonly form: ApplicationController;
  /** The id of the element the controller focused last. */
  focused: string | null = null;
  /** How many times the controller asked for a render. */
  updates = 0;
  /** The live region's text after each render that changed it. */
  readonly announced: string[] = [];
  /** The events the element dispatched, in order. */
  readonly events: Dispatched[] = [];
  readonly renderRoot = {
    querySelector: (selector: string) => this.#query(selector),
    querySelectorAll: (selector: string) => this.#queryAll(selector),
  };
  readonly #controllers = new Set<ReactiveController>();
  /** The form's controls as last rendered, in document order; none while the form is not shown. */
  #controls: Control[] = [];
  #summaryShown = false;
  #outcomeShown = false;
  #announcement = '';
  #update: Promise<boolean> | null = null;

  constructor(endpoint: string, language: Language = { locale: 'en', tag: 'en' }, device = new Device()) {
    super();
    this.endpoint = endpoint;
    this.device = device;
    // The `field-*` properties, '' until a board sets one (as the element's constructor does).
    for (const { property } of fieldAttributes) (this as unknown as Record<string, string>)[property] = '';
    this.form = new ApplicationController(this as unknown as ApplicationHost, language, device.store);
    for (const type of [
      'jobboard-apply-submit',
      'jobboard-upload-progress',
      'jobboard-apply-success',
      'jobboard-apply-error',
    ]) {
      this.addEventListener(type, (e) => this.events.push({ type, detail: (e as CustomEvent).detail }));
    }
  }

  /** Sets a `field-*` attribute (`field-bio-url`), as the element reflects it to its property. */
  setAttribute(name: string, value: string): void {
    const field = fieldAttributes.find((f) => f.attribute === name);
    if (!field) throw new Error(`<jobboard-apply> has no ${name} attribute`);
    (this as unknown as Record<string, string>)[field.property] = value;
    this.requestUpdate();
  }

  addController(controller: ReactiveController): void {
    this.#controllers.add(controller);
  }

  removeController(controller: ReactiveController): void {
    this.#controllers.delete(controller);
  }

  /** The element leaves the page. */
  disconnect(): void {
    for (const controller of this.#controllers) controller.hostDisconnected?.();
  }

  requestUpdate(): void {
    this.updates += 1;
    this.#update ??= Promise.resolve().then(() => {
      this.#update = null;
      this.#render();
      return true;
    });
  }

  get updateComplete(): Promise<boolean> {
    return this.#update ?? Promise.resolve(true);
  }

  /** The control of that id, as last rendered. */
  control(id: string): Control {
    const control = this.#controls.find((c) => c.id === id);
    if (!control) throw new Error(`The form shows no #${id}`);
    return control;
  }

  /** The ids of the controls shown, in document order. */
  shown(): string[] {
    return this.#controls.map((c) => c.id);
  }

  /** Types into a control: its value, then the `input` event the form listens to. */
  type(id: string, text: string): void {
    const control = this.control(id);
    control.value = text;
    this.form.input({ target: control } as unknown as Event);
  }

  /** Checks or unchecks a box, which fires `input` and `change`. */
  tick(id: string, checked = true): void {
    const control = this.control(id);
    control.checked = checked;
    this.form.input({ target: control } as unknown as Event);
    this.form.input({ target: control } as unknown as Event);
  }

  /** Chooses a file (none: clears the choice), which fires `input` and `change`. */
  choose(id: string, file: File | null): void {
    const control = this.control(id);
    control.files = file ? [file] : [];
    this.form.input({ target: control } as unknown as Event);
    this.form.input({ target: control } as unknown as Event);
  }

  /** Focus leaves a control (the form's focusout). */
  leave(id: string): void {
    this.form.leave({ target: this.control(id) } as unknown as FocusEvent);
  }

  /** Types `text` in a field and leaves it, as a candidate moving on to the next one. */
  typeAndLeave(id: string, text: string): void {
    this.type(id, text);
    this.leave(id);
  }

  /** Fills every field the proxy requires by default, with a valid value. */
  fillRequired(email = 'ada@example.com'): void {
    this.type('email', email);
    this.type('first_name', 'Ada');
    this.type('last_name', 'Lovelace');
    this.choose('resume', resume());
    this.tick('consent');
  }

  formEntries(): [string, string | File][] {
    const entries: [string, string | File][] = [];
    for (const control of this.#controls) {
      // "Remember me" has no name: the browser posts none of it.
      if (control.id === 'remember') continue;
      if (control.type === 'checkbox') {
        if (control.checked) entries.push([control.id, 'true']);
      } else if (control.type === 'file') {
        // A file input without a file gives an empty, nameless one.
        entries.push([control.id, control.files[0] ?? new File([], '', { type: 'application/octet-stream' })]);
      } else {
        entries.push([control.id, control.value]);
      }
    }
    return entries;
  }

  #formShown(): boolean {
    return this.#controls.length > 0;
  }

  #query(selector: string): unknown {
    const control = /^input#(\w+), textarea#\1$/.exec(selector);
    if (control) return this.#controls.find((c) => c.id === control[1]) ?? null;
    if (selector === 'form') return this.#formShown() ? this : null;
    if (selector === '#error-summary') return this.#summaryShown ? new Focusable(this, 'error-summary') : null;
    if (selector === '#outcome') return this.#outcomeShown ? new Focusable(this, 'outcome') : null;
    // What a browser does with a selector it cannot parse; the element renders nothing else the controller looks for.
    throw new SyntaxError(`The stand-in of <jobboard-apply> answers no ${selector}`);
  }

  #queryAll(selector: string): Control[] {
    if (selector !== 'form input[id], form textarea[id]') throw new SyntaxError(`No query ${selector}`);
    return [...this.#controls];
  }

  #render(): void {
    const { phase, config, summary, errors, banner, announcement, values } = this.form;
    const formShown = (phase === 'form' || phase === 'uploading') && config !== null;
    if (formShown) {
      const previous = new Map(this.#controls.map((c) => [c.id, c]));
      this.#controls = [];
      for (const group of groups()) {
        const rule = this.form.rule(group[0]!.rule);
        if (rule === 'hidden') continue;
        for (const { id, kind, maxlength } of group) {
          const { type, pattern } = rendered[kind];
          const control = previous.get(id) ?? new Control(this, id, type, pattern, maxlength);
          control.required = rule === 'required';
          this.#controls.push(control);
        }
      }
      // "Remember me on this device", once quick apply's module is loaded, unless the board turned it off.
      if (this.form.kit && !this.noQuickApply) {
        const remember = previous.get('remember') ?? new Control(this, 'remember', 'checkbox');
        remember.checked = this.form.remember;
        this.#controls.push(remember);
      }
      this.#controls.push(previous.get('website') ?? new Control(this, 'website', 'text'));
      for (const control of this.#controls) {
        if (control.type === 'file' || control.type === 'checkbox') continue;
        const value = values[control.id] ?? '';
        if (control.id !== 'website' && value !== control.bound) control.value = control.bound = value;
      }
    } else {
      this.#controls = [];
    }
    this.#summaryShown = formShown && (banner !== null || summary.some((id) => errors[id]));
    this.#outcomeShown = phase === 'success' || phase === 'already-applied';
    if (announcement !== this.#announcement) this.announced.push((this.#announcement = announcement));
  }
}

/** A photo of a resume's page, as the form's photos module hands it over once scaled. */
export function page(name = 'page.jpg', size = 300): File {
  return new File([new Uint8Array(size).fill(0xff)], name, { type: 'image/jpeg' });
}

/** A small PDF resume. */
export function resume(name = 'resume.pdf', size = 600): File {
  // It starts as a PDF does: the controller reads a resume's first bytes before sending it.
  const bytes = new Uint8Array(size).fill(0x20);
  bytes.set(new TextEncoder().encode('%PDF-1.7\n').subarray(0, size));
  return new File([bytes], name, { type: 'application/pdf' });
}

/** A new element on the proxy at `endpoint`, its form loaded (as connecting it does). */
export async function openForm(
  endpoint: string,
  options: {
    language?: Language;
    campaignId?: number;
    noDraft?: boolean;
    noQuickApply?: boolean;
    offer?: CampaignSummary;
    device?: Device;
  } = {},
): Promise<ApplyElement> {
  const el = new ApplyElement(endpoint, options.language, options.device);
  el.campaignId = options.campaignId ?? 101;
  el.noDraft = options.noDraft ?? false;
  el.noQuickApply = options.noQuickApply ?? false;
  el.offer = options.offer;
  await el.form.load();
  await el.updateComplete;
  return el;
}

/** Waits until `condition` holds (the controller's work goes on after the call that started it). */
export async function until(condition: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 3000;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`Still waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
