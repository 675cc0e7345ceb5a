// A runnable tour of the client: `node server/examples/client-tour.ts`.
// Starts a sandbox on a free port with its demo data, then uses the client as
// a job board's server would: list the broadcast offers, send an application
// with a resume, and branch on the errors.
import { ConflictError, ValidationError, createClient, fileFromBuffer } from '../client/index.ts';
import { DEMO_KEYS, startSandbox } from '../sandbox/index.ts';

const sandbox = await startSandbox({ port: 0, seed: 'demo' });
try {
  const board = createClient({
    baseUrl: sandbox.url,
    privateKey: DEMO_KEYS.jobboard.private_key,
    secretKey: DEMO_KEYS.jobboard.secret_key,
  });

  // Every campaign broadcast on the board, across all pages.
  const offers = [];
  for await (const campaign of board.campaigns.listAll({
    channels: [DEMO_KEYS.jobboard.channel],
    status: ['online'],
  })) {
    offers.push(campaign);
  }
  console.log(
    `${offers.length} offers on ${DEMO_KEYS.jobboard.channel}, e.g. "${offers[0]?.name}" (company ${offers[0]?.company_id})`,
  );

  const offer = offers[0];
  if (offer === undefined) throw new Error('The demo data has no online offer on the board.');

  // One record with its embeds, typed as present.
  const detailed = await board.campaigns.get(offer.id, { embed: ['address', 'tags'] });
  console.log(
    `"${detailed.name}" in ${detailed.address?.city ?? 'no city'}; tags: ${detailed.tags.join(', ') || 'none'}`,
  );

  // A candidate applies; the resume type is read from the bytes.
  const resume = await fileFromBuffer(Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'));
  const applicant = {
    email: `candidate-${Date.now()}@example.com`,
    first_name: 'Ada',
    last_name: 'Lovelace',
    is_legals_accepted_by_manager: true,
    resume,
    applications: [{ campaign_id: offer.id }],
  };
  const created = await board.jobboards.createApplicant({ company_id: offer.company_id, applicant });
  console.log(`applicant ${created.id} created with application ${created.applications[0]?.id}`);

  // The same candidate again: a 409 a program can branch on.
  try {
    await board.jobboards.createApplicant({ company_id: offer.company_id, applicant });
  } catch (error) {
    if (error instanceof ConflictError)
      console.log(`second time: ${error.code}, existing applicant ${error.existingId}`);
    else throw error;
  }

  // A mistake caught before anything is sent, with the field named.
  try {
    await board.campaigns.list({ per_page: 500 });
  } catch (error) {
    if (error instanceof ValidationError)
      console.log(`refused before sending: ${error.details.map((d) => `${d.field} ${d.message}`).join('; ')}`);
    else throw error;
  }
  console.log(`requests left in this minute's budget: ${board.budget.available('low')} (low priority)`);
} finally {
  await sandbox.close();
}
