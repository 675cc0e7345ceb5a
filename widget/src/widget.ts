// Script-tag entry: <script type="module" src=".../widget.js"> defines the
// elements. Loading it twice is harmless.
// First: Lit's hydration support must be in place before LitElement loads, so
// that elements the proxy rendered on the server (GET /embed/campaigns) take
// over their server-rendered shadow DOM instead of rendering it again.
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
import { JobboardApply } from './apply/apply.ts';
import { JobboardCampaigns } from './campaigns/campaigns.ts';
import { defineElement } from './internal/define.ts';

defineElement('jobboard-apply', JobboardApply);
defineElement('jobboard-campaigns', JobboardCampaigns);

export * from './index.ts';
