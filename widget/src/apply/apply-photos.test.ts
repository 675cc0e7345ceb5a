// A paper resume photographed page by page: the photos chosen show as the
// pages, in order and removable, scaled down in the browser, and the form
// sends them as resume_pages in the resume's place.
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../widget.ts';
import type { JobboardApply } from '../index.ts';
import { chooseFile, maybe, pdf, received, shadow, type, until } from '../internal/test-support.ts';
import { form, submit } from './apply.test-support.ts';
import { LONGEST_SIDE, scalePhoto } from './photos.ts';

/** A photo as a phone's camera gives one: a PNG of `width` × `height` pixels. */
async function photo(name: string, width = 1200, height = 900): Promise<File> {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d')!;
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#000';
  context.fillRect(width / 4, height / 4, width / 2, height / 8);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  return new File([blob!], name, { type: 'image/png' });
}

/** Takes or chooses photos in the pages' control, as its file picker (or camera) hands them over. */
function choosePhotos(el: JobboardApply, photos: File[]): void {
  const input = shadow<HTMLInputElement>(el, '#resume_pages');
  const transfer = new DataTransfer();
  for (const file of photos) transfer.items.add(file);
  input.files = transfer.files;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  input.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
}

const pagesShown = (el: JobboardApply) =>
  [...el.shadowRoot!.querySelectorAll('.pages [role=img]')].map((page) => page.getAttribute('aria-label'));

/** The required fields but the resume, filled in as a candidate would. */
async function fillAllButResume(el: JobboardApply): Promise<void> {
  await type(el, '#email', 'ada@example.com');
  await type(el, '#first_name', 'Ada');
  await type(el, '#last_name', 'Lovelace');
  shadow(el, '#consent').focus();
  await sendKeys({ press: 'Space' });
  await el.updateComplete;
}

describe('<jobboard-apply> with photos of a paper resume', () => {
  it('offers the camera beside the resume file: an image picker that asks for the rear camera on a phone', async () => {
    const { el } = await form('ok');
    const input = shadow<HTMLInputElement>(el, '#resume_pages');
    expect([input.type, input.accept, input.getAttribute('capture'), input.multiple]).to.deep.equal([
      'file',
      'image/*',
      'environment',
      true,
    ]);
    expect(input.name).to.equal('');
    expect(shadow<HTMLInputElement>(el, '#resume').name).to.equal('resume');
  });

  it('shows two photos chosen as two page thumbnails in order, accessible, and sends them as resume_pages', async () => {
    const { el, token } = await form('ok');
    await fillAllButResume(el);
    choosePhotos(el, [await photo('first.png'), await photo('second.png')]);
    await until(() => pagesShown(el).length === 2, 'two pages show');
    expect(pagesShown(el)).to.deep.equal(['Page 1', 'Page 2']);
    await expect(el).to.be.accessible();

    await submit(el);
    await until(() => maybe(el, '#outcome'), 'the application is received');
    const [sent] = await received(token);
    expect(sent!.files.resume).to.equal(undefined);
    expect(sent!.fileParts.map((part) => [part.field, part.type])).to.deep.equal([
      ['resume_pages', 'image/jpeg'],
      ['resume_pages', 'image/jpeg'],
    ]);
  });

  it('removes a page with its button, the focus back on the photos, and takes no more than five pages', async () => {
    const { el } = await form('ok');
    choosePhotos(el, await Promise.all([1, 2, 3].map((n) => photo(`p${n}.png`, 300 + n, 200))));
    await until(() => pagesShown(el).length === 3, 'three pages show');
    shadow<HTMLButtonElement>(el, '.pages li:first-child button').click();
    await el.updateComplete;
    expect(pagesShown(el)).to.deep.equal(['Page 1', 'Page 2']);
    expect(el.shadowRoot!.activeElement?.id).to.equal('resume_pages');

    choosePhotos(el, await Promise.all([4, 5, 6, 7].map((n) => photo(`p${n}.png`, 300 + n, 200))));
    await until(() => pagesShown(el).length === 5, 'five pages show');
    await until(() => maybe(el, '#resume_pages-error'), 'the photos left out are told');
    expect(shadow(el, '#resume_pages-error').textContent).to.contain('At most 5 pages');
  });

  it('takes a resume file chosen after the pages in their place', async () => {
    const { el, token } = await form('ok');
    await fillAllButResume(el);
    choosePhotos(el, [await photo('page.png')]);
    await until(() => pagesShown(el).length === 1, 'one page shows');
    chooseFile(el, '#resume', pdf());
    await el.updateComplete;
    expect(pagesShown(el)).to.deep.equal([]);
    await submit(el);
    await until(() => maybe(el, '#outcome'), 'the application is received');
    const [sent] = await received(token);
    expect(sent!.fileParts.map((part) => part.field)).to.deep.equal(['resume']);
  });

  it(`scales a photo down to ${LONGEST_SIDE} px on its longest side, as a JPEG`, async () => {
    const page = await scalePhoto(await photo('big.png', 3200, 2400));
    const bitmap = await createImageBitmap(page);
    expect([page.type, bitmap.width, bitmap.height]).to.deep.equal(['image/jpeg', 1600, 1200]);
    const small = await createImageBitmap(await scalePhoto(await photo('small.png', 800, 600)));
    expect([small.width, small.height]).to.deep.equal([800, 600]);
  });
});
