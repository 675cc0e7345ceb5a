// npm entry: the classes and event types, nothing defined. Register them
// yourself, e.g. customElements.define('jobboard-apply', JobboardApply).
export { JobboardApply } from './apply/apply.ts';
export { JobboardCampaigns } from './campaigns/campaigns.ts';
export {
  JobboardApplyErrorEvent,
  JobboardApplySubmitEvent,
  JobboardApplySuccessEvent,
  JobboardCampaignSelectEvent,
  JobboardUploadProgressEvent,
} from './internal/events.ts';
export type { ApplicationStatus } from './internal/events.ts';
export { defineElement } from './internal/define.ts';
