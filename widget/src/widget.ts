// Script-tag entry: <script type="module" src=".../widget.js"> defines the
// elements. Loading it twice is harmless.
// First: Lit's hydration support must be in place before LitElement loads, so
// that elements the proxy rendered on the server (GET /embed/campaigns) take
// over their server-rendered shadow DOM instead of rendering it again.
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
import { JobboardApply } from './apply/apply.ts';
import { JobboardCampaigns } from './campaigns/campaigns.ts';
import { defineElement } from './internal/define.ts';

// The catalogue first: on a server-rendered offer it hydrates before the form
// in it updates, so that the form gets the offer (`.offer`) rather than
// fetching it again.
defineElement('jobboard-campaigns', JobboardCampaigns);
defineElement('jobboard-apply', JobboardApply);

export * from './index.ts';
