// What widget.js starts before anything else of it runs (widget.ts imports
// this first): the apply form's module and the answers the elements already
// in the page will show (prefetch.ts). Lit, its hydration support and the
// catalogue evaluate meanwhile, so that neither request waits for them: the
// form is shown as soon as its module and its answers are in, with no round
// trip after widget.js has run.
import { besideModulesLoad } from './internal/pinned-modules.ts';
import { prefetchAnswers } from './prefetch.ts';

/**
 * The apply form's module (widget-apply-<hash>.js beside widget.js), asked
 * for at once. It imports Lit from widget.js, which has finished running by
 * the time it arrives. None for a pinned widget.js whose import map is not in
 * force (pinned-modules.ts).
 */
export const applyModule = besideModulesLoad() ? import('./apply/apply.ts') : null;

prefetchAnswers(document);
