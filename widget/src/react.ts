// React entry (`@jobboard-connector/widget/react`, which the server package
// re-exports as `jobboard-connector/react`): both elements as React
// components, made by @lit/react, for boards built with React or Next.js. The
// first one mounted defines the elements (a second definition is skipped).
// Their properties are typed props (`endpoint`, `campaignId`, `perPage`…),
// and their events are callbacks named for what happened. React itself is the
// application's (a peer dependency), never bundled here; on the server
// (React's renderToString, Next.js) the component renders the element's tag,
// and the element renders itself once hydrated in the browser.
import * as React from 'react';
import { isServer } from 'lit';
import { createComponent } from '@lit/react';
import type { EventName } from '@lit/react';
import { JobboardApply as JobboardApplyElement } from './apply/apply.ts';
import { JobboardCampaigns as JobboardCampaignsElement } from './campaigns/campaigns.ts';
import { defineElement } from './internal/define.ts';
import type {
  JobboardApplyErrorEvent,
  JobboardApplySubmitEvent,
  JobboardApplySuccessEvent,
  JobboardCampaignSelectEvent,
  JobboardUploadProgressEvent,
} from './internal/events.ts';

// Lit makes the properties' accessors when a class is finalised: now, so that
// the wrappers tell properties (set on the element) from attributes at once.
void JobboardCampaignsElement.observedAttributes;
void JobboardApplyElement.observedAttributes;

function defineElements(): void {
  defineElement('jobboard-campaigns', JobboardCampaignsElement);
  defineElement('jobboard-apply', JobboardApplyElement);
}

/**
 * React's layout effect in the browser; nothing on a server, which defines no
 * element (and where React 18 warns of every layout effect it meets).
 */
const useBrowserLayoutEffect: typeof React.useLayoutEffect = isServer ? () => undefined : React.useLayoutEffect;

/**
 * `component`, defining the elements after its first layout effects: once
 * its properties are on the element. Defined earlier, an element the server
 * rendered would start (and fetch from the page's origin) before hydration
 * gives it its `endpoint`; a Lit element keeps the properties set on it
 * before its definition.
 */
function definingOnMount<C extends { displayName?: string | undefined }>(component: C): C {
  const inner = component as unknown as React.ComponentType<Record<string, unknown>>;
  const defining = React.forwardRef<unknown, Record<string, unknown>>((props, ref) => {
    // Children's layout effects run first: @lit/react's, which set the properties.
    useBrowserLayoutEffect(defineElements, []);
    return React.createElement(inner, { ...props, ref });
  });
  defining.displayName = component.displayName;
  return defining as unknown as C;
}

/** The apply form's events, which bubble out of `<jobboard-campaigns>` too. */
const applyEvents = {
  /** `jobboard-apply-submit`: the candidate sent a valid form; the upload starts. */
  onApplicationSubmitted: 'jobboard-apply-submit' as EventName<JobboardApplySubmitEvent>,
  /** `jobboard-upload-progress`: bytes sent of the application. */
  onUploadProgress: 'jobboard-upload-progress' as EventName<JobboardUploadProgressEvent>,
  /** `jobboard-apply-success`: the proxy took the application, `delivered` or `queued`. */
  onApplicationReceived: 'jobboard-apply-success' as EventName<JobboardApplySuccessEvent>,
  /** `jobboard-apply-error`: the submission failed, with the proxy's problem code. */
  onApplicationFailed: 'jobboard-apply-error' as EventName<JobboardApplyErrorEvent>,
};

/** `<jobboard-campaigns>`: the offers broadcast on the board, with search, filters and the apply form. */
export const JobboardCampaigns = definingOnMount(
  createComponent({
    react: React,
    tagName: 'jobboard-campaigns',
    elementClass: JobboardCampaignsElement,
    events: {
      /** `jobboard-campaign-select`: the candidate opened an offer. */
      onCampaignSelected: 'jobboard-campaign-select' as EventName<JobboardCampaignSelectEvent>,
      ...applyEvents,
    },
    displayName: 'JobboardCampaigns',
  }),
);

/** `<jobboard-apply>`: the apply form of one offer (`campaignId`). */
export const JobboardApply = definingOnMount(
  createComponent({
    react: React,
    tagName: 'jobboard-apply',
    elementClass: JobboardApplyElement,
    events: applyEvents,
    displayName: 'JobboardApply',
  }),
);
