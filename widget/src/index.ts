// npm entry: the classes and event types, nothing defined. Register them
// yourself, e.g. customElements.define('jobboard-apply', JobboardApply).
export { JobboardApply } from './apply/apply.ts';
export { JobboardCampaigns } from './campaigns/campaigns.ts';
// The event classes and their types: all of events.ts is public.
export * from './internal/events.ts';
export { defineElement } from './internal/define.ts';
