// Photos of a paper resume's pages, loaded only once a candidate takes or
// chooses some (apply-form.ts imports it then): each photo is scaled down in
// the browser (a phone's photo weighs megabytes; a page stays readable at
// 1600 px) and shown as a thumbnail, in order, with a button to remove it.
// The proxy assembles the pages into one PDF.
import { css, html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { msg, str } from '@lit/localize';
import type { ApplicationController } from './application-controller.ts';

/** The pages' form name, as the proxy reads it (its module's, not imported: see addPhotos). */
const RESUME_PAGES_FIELD = 'resume_pages';

/** A page's longest side once scaled, in pixels: small print stays legible. */
export const LONGEST_SIDE = 1600;
const JPEG_QUALITY = 0.8;
/** A thumbnail's longest side, in CSS pixels. */
const THUMBNAIL_SIDE = 96;

/**
 * Each page's thumbnail: a canvas, drawn as the page is scaled. Not an image
 * of an object URL, which a board's Content-Security-Policy (img-src) may refuse.
 */
const thumbnails = new WeakMap<File, HTMLCanvasElement>();

function canvasOf(bitmap: ImageBitmap, longestSide: number): HTMLCanvasElement {
  const scale = Math.min(1, longestSide / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  return canvas;
}

/** A photo as a page: a JPEG whose longest side is at most LONGEST_SIDE, turned as the camera held it. */
export async function scalePhoto(photo: Blob): Promise<File> {
  const bitmap = await createImageBitmap(photo, { imageOrientation: 'from-image' });
  try {
    const page = canvasOf(bitmap, LONGEST_SIDE);
    const blob = await new Promise<Blob | null>((resolve) => page.toBlob(resolve, 'image/jpeg', JPEG_QUALITY));
    if (!blob) throw new Error('the page could not be encoded');
    const file = new File([blob], 'page.jpg', { type: 'image/jpeg' });
    thumbnails.set(file, canvasOf(bitmap, THUMBNAIL_SIDE * devicePixelRatio));
    return file;
  } finally {
    bitmap.close();
  }
}

/**
 * Adds the photos chosen after the pages there are, up to `maxPages`; says
 * why when some are left out. The limit comes from the form's module: a
 * module both import would make the bundler wrap the form's.
 */
export async function addPhotos(form: ApplicationController, chosen: File[], maxPages: number): Promise<void> {
  const room = maxPages - form.pages.length;
  try {
    const scaled = await Promise.all(chosen.slice(0, room).map(scalePhoto));
    form.setPages(
      [...form.pages, ...scaled],
      chosen.length > room ? msg(str`At most ${maxPages} pages: the photos past that were left out.`) : null,
    );
  } catch {
    form.setPages(form.pages, msg('A photo could not be read. Take it again, or choose a JPG or PNG photo.'));
  }
}

function thumbnailOf(page: File, number: number): HTMLCanvasElement | undefined {
  const canvas = thumbnails.get(page);
  if (!canvas) return undefined;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', msg(str`Page ${number}`));
  canvas.className = 'thumbnail';
  return canvas;
}

/** Removes a page; the focus goes back to the photos' control, as the page's button is gone. */
function remove(form: ApplicationController, page: File, e: Event): void {
  const field = (e.currentTarget as HTMLElement).closest('.field');
  form.setPages(form.pages.filter((p) => p !== page));
  field?.querySelector<HTMLElement>('#resume_pages')?.focus();
}

/**
 * The pages' styles, added to the form's own once photos are chosen: the
 * form without them does not carry these. A constructed sheet, which a
 * board's Content-Security-Policy lets through as it does the form's.
 */
const styles = css`
  .pages {
    display: flex;
    flex-wrap: wrap;
    gap: var(--_space);
    padding: 0;
    list-style: none;
  }
  .pages li {
    display: grid;
    justify-items: start;
    gap: 0.25rem;
  }
  .thumbnail {
    max-width: 6rem;
    max-height: 6rem;
    border: 1px solid var(--_border);
  }
`.styleSheet!;

/** Adds the pages' styles to the form's shadow root `root`, once. */
function addStyles(root: ShadowRoot): void {
  if (!root.adoptedStyleSheets.includes(styles)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, styles];
}

/**
 * The pages, in order: each one's thumbnail and a button that removes it. A
 * thumbnail is its page's own canvas: one removed before it moves it up a place.
 */
function renderList(form: ApplicationController): TemplateResult {
  return html`<ol class="pages" aria-label=${msg('Pages of your resume')}>
    ${form.pages.map(
      (page, i) =>
        html`<li>
          ${thumbnailOf(page, i + 1)}
          <button type="button" part="button" @click=${(e: Event) => remove(form, page, e)}>
            ${msg(str`Remove page ${i + 1}`)}
          </button>
        </li>`,
    )}
  </ol>`;
}

/**
 * Photos taken or chosen in `input`: scaled down and added as pages, in the
 * order chosen, in the place of a resume file chosen.
 */
export async function choose(form: ApplicationController, input: HTMLInputElement, maxPages: number): Promise<void> {
  const chosen = [...(input.files ?? [])];
  // Emptied: the same photo may be taken again, and the photos as taken are never posted.
  input.value = '';
  const root = input.getRootNode() as ShadowRoot;
  addStyles(root);
  if (chosen.length === 0) return;
  await addPhotos(form, chosen, maxPages);
  // Emptied too once pages are taken, so that its file is neither shown as the resume nor posted.
  const resume = root.querySelector<HTMLInputElement>('#resume');
  if (resume && form.pages.length > 0) resume.value = '';
}

/** The pages, if any, and what went wrong with the photos chosen, if anything. */
export function renderPages(form: ApplicationController): TemplateResult {
  const error = form.errors[RESUME_PAGES_FIELD];
  return html`${form.pages.length > 0 ? renderList(form) : nothing}
  ${error ? html`<p id="resume_pages-error" class="field-error error" part="error">${error}</p>` : nothing}`;
}
