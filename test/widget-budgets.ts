// The gzipped size budgets of the script-tag bundle and its modules, which
// the size test checks and the Lighthouse bench reports: every kilobyte is
// paid by every visitor of the board.

/**
 * widget.js alone: Lit, its hydration support, the offers (list, search and
 * filters, opened offer, head tags) and their English texts; what a visitor
 * waits for before the offers show. 20 KB since the apply form moved to a
 * module of its own (widget-apply-<hash>.js), which widget.js fetches at once.
 */
export const mainBudget = 20 * 1024;
/**
 * widget.js with a language module: the offers on a page in French or
 * Spanish. 23.5 KB since a language module carries the saved offers' texts
 * (the toggle's, the count's and their view's) and the alert panel's (its
 * feed, email, consent and confirmation step): it holds every text of the widget.
 */
export const languageBudget = 23.5 * 1024;
/**
 * widget.js with the apply form's module: what a page with a form loads in
 * English. More than the two were as one file (23.2 KB): gzip compresses
 * each file alone, and the module names what it imports from widget.js.
 * 26.5 KB since widget.js carries a Trusted Types policy that hands out only
 * sanitised HTML (with a plain-text fallback), the guard of a pinned
 * widget.js without its import map, and the campaign parameters' rule.
 * 29.5 KB since the offers fit a phone (filters folded behind one button, an
 * "Apply" button by the offer's title and one kept at the bottom), the form
 * checks before sending what the proxy would refuse (the email's pattern, a
 * resume's first bytes) and says what a wrong file is, the list says why a
 * place is refused, the form keeps its draft's resume and, when the
 * candidate opts in, their details for the next offers (the controller's
 * part: loading, keeping and forgetting them), and the resume field offers
 * the camera for photos of a paper resume's pages (the control and the
 * pages' state; their scaling and thumbnails are in a module of their own,
 * loaded once photos are chosen). 30 KB since widget.js loads the saved
 * offers' module after its first render and keeps room for their toggles,
 * and the form takes spontaneous applications (`company-id`: its rule for
 * the cover letter, the company posted in the offer's place, and the loading
 * of their module).
 */
export const applyBudget = 30 * 1024;
/**
 * widget.js, the apply form's module and quick apply's, which the form
 * loads beside its config: the "Remember me" box, the kept details' line
 * and the IndexedDB store. 31.25 KB as the apply form's own budget grew by
 * a quarter.
 */
export const quickApplyBudget = 31.25 * 1024;
/**
 * widget.js with the saved offers' module, which the catalogue loads after
 * its first render: the "Save" toggles, the "My saved offers (n)" button, the
 * view of the saved offers and their store in localStorage.
 */
export const savedOffersBudget = 22.5 * 1024;
/**
 * The photos of a paper resume's pages (scaling, thumbnails): a module the
 * apply form's imports once a candidate chooses photos, so that a form
 * without them loads none of it.
 */
export const photosBudget = 2 * 1024;
/**
 * widget.js with the alert panel's module ("Create an alert": the search's
 * feed, and the email hand-off with its confirmation step), which a list
 * loads once shown.
 */
export const alertBudget = 23 * 1024;
/**
 * widget.js, the apply form's module and that of spontaneous applications
 * (to a company, with no offer), which the form loads once its config says
 * the board takes some: their form's heading and, under an offer's form, the
 * entry to one at the offer's company.
 */
export const spontaneousBudget = 30.25 * 1024;
