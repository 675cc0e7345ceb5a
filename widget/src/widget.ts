// Script-tag entry: <script type="module" src=".../widget.js"> defines the
// elements. Loading it twice is harmless.
// First of all: the requests of the apply form (its module, its answers),
// started before the rest of widget.js runs.
import { applyModule } from './start-early.ts';
// Then: Lit's hydration support must be in place before LitElement loads, so
// that elements the proxy rendered on the server (GET /embed/campaigns) take
// over their server-rendered shadow DOM instead of rendering it again.
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
import { JobboardCampaigns } from './campaigns/campaigns.ts';
import { defineElement } from './internal/define.ts';

// The catalogue first: on a server-rendered offer it hydrates before the form
// in it updates, so that the form gets the offer (`.offer`) rather than
// fetching it again.
defineElement('jobboard-campaigns', JobboardCampaigns);

// The apply form (its fields, checks, upload, drafts, captcha and messages)
// is a module of its own beside widget.js (widget-apply-<hash>.js), which keeps
// widget.js small for every visitor of the list. It is fetched at once
// (start-early.ts), while the catalogue loads its offers, so that an offer
// opened does not wait for it; a <jobboard-apply> on the page until then is
// upgraded when it is defined. A pinned widget.js without its import map
// loads none (the console says what to add).
applyModule?.then(
  ({ JobboardApply }) => defineElement('jobboard-apply', JobboardApply),
  (error: unknown) => {
    console.warn(
      `jobboard widget: no apply form (${String(error)}). Serve widget-apply-*.js beside widget.js: copy every file of dist/widget/.`,
    );
  },
);

// The classes of the npm entry (index.ts) but the apply form's, which is in its module.
export { JobboardCampaigns } from './campaigns/campaigns.ts';
export * from './internal/events.ts';
export { defineElement } from './internal/define.ts';
