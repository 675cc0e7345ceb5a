// Script-tag entry: <script type="module" src=".../widget.js"> defines the
// elements. Loading it twice is harmless.
import { JobboardApply } from './apply/apply.ts';
import { JobboardCampaigns } from './campaigns/campaigns.ts';
import { defineElement } from './internal/define.ts';

defineElement('jobboard-apply', JobboardApply);
defineElement('jobboard-campaigns', JobboardCampaigns);

export * from './index.ts';
