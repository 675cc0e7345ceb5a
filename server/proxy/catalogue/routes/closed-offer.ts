// An offer's page asked after the offer closed answers 410 Gone, so search
// engines drop it at once; one never published answers 404.
import type { CatalogueReader } from './reader.ts';
import { ProblemError } from '../../http/problem.ts';

/** campaign_gone (410) with the way to the list, or campaign_not_found (404). */
export function closedOfferProblem(reader: CatalogueReader, id: number, listUrl: string | null): ProblemError {
  if (!reader.closed(id))
    return new ProblemError('campaign_not_found', 'This job offer is not published on this job board: check its id.');
  const list =
    listUrl === null
      ? 'Show your visitors the list of offers instead.'
      : `Show your visitors the list of offers instead: ${listUrl}`;
  return new ProblemError(
    'campaign_gone',
    `This job offer is closed: it was published on this job board and no longer is. ${list}`,
  );
}
