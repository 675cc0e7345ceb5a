// Child process of the catalogue-scale bench: a bare Express route answering
// GET /api/campaigns with the very bytes and headers of the proxy's answer
// (read from the JSON file named by argv[2]), the floor the proxy's list is
// compared with. Prints its URL as one line, then serves until killed. In a
// process of its own, like the proxy it is compared with, so that neither
// shares an event loop with the load generator.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import express from 'express';

const sample = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { headers: [string, string][]; body: string };
const bytes = Buffer.from(sample.body, 'base64');
const bare = express();
bare.disable('x-powered-by');
bare.set('etag', false);
bare.get('/api/campaigns', (_req, res) => {
  for (const [name, value] of sample.headers) res.setHeader(name, value);
  res.send(bytes);
});
const server = bare.listen(0, '127.0.0.1', () => {
  console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
