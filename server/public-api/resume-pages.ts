// The resume's other form: photos of a paper resume's pages, posted as
// repeated `resume_pages` files instead of one `resume`, which the proxy
// assembles into one PDF. No imports, so the browser bundle can take it whole.

/** The form name of each page, repeated in their order. */
export const RESUME_PAGES_FIELD = 'resume_pages';
/** Most pages taken: a resume is one or two pages, a long one a few more. */
export const MAX_RESUME_PAGES = 5;
