// One small Event subclass per public event: bubbling and composed so a board
// can listen on `document`, typed through GlobalEventHandlersEventMap, and
// never carrying personal data (no names, emails or file names). Everything
// exported here is public: the npm and script-tag entries export it all.

const init: EventInit = { bubbles: true, composed: true };

/** How a submission ended on the proxy's side. */
export type ApplicationStatus = 'delivered' | 'queued';

/** The candidate opened an offer in `<jobboard-campaigns>`. */
export class JobboardCampaignSelectEvent extends Event {
  readonly detail: { campaignId: number };
  constructor(campaignId: number) {
    super('jobboard-campaign-select', init);
    this.detail = { campaignId };
  }
}

/** The candidate sent a valid form; the upload starts. */
export class JobboardApplySubmitEvent extends Event {
  readonly detail: { campaignId: number };
  constructor(campaignId: number) {
    super('jobboard-apply-submit', init);
    this.detail = { campaignId };
  }
}

/** Upload progress of the application (bytes sent and total). */
export class JobboardUploadProgressEvent extends Event {
  readonly detail: { campaignId: number; loaded: number; total: number };
  constructor(campaignId: number, loaded: number, total: number) {
    super('jobboard-upload-progress', init);
    this.detail = { campaignId, loaded, total };
  }
}

/** The proxy accepted the application: `delivered` (201) or `queued` (202). */
export class JobboardApplySuccessEvent extends Event {
  readonly detail: { campaignId: number; status: ApplicationStatus };
  constructor(campaignId: number, status: ApplicationStatus) {
    super('jobboard-apply-success', init);
    this.detail = { campaignId, status };
  }
}

/**
 * The submission failed. `code` is the proxy's problem code (`already_applied`,
 * `validation_failed`...) or one of the widget's own: `network_error`,
 * `upload_cancelled`.
 */
export class JobboardApplyErrorEvent extends Event {
  readonly detail: { campaignId: number; code: string };
  constructor(campaignId: number, code: string) {
    super('jobboard-apply-error', init);
    this.detail = { campaignId, code };
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'jobboard-campaign-select': JobboardCampaignSelectEvent;
    'jobboard-apply-submit': JobboardApplySubmitEvent;
    'jobboard-upload-progress': JobboardUploadProgressEvent;
    'jobboard-apply-success': JobboardApplySuccessEvent;
    'jobboard-apply-error': JobboardApplyErrorEvent;
  }
}
