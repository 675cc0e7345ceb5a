// Mounts the proxy inside an existing Express app, under /jobs: the board's
// own pages and the proxy on one server. Configured by the same environment
// variables as `npx jobboard-connector proxy` (UPSTREAM_URL,
// UPSTREAM_PRIVATE_KEY, UPSTREAM_SECRET_KEY, JOBBOARD_CHANNEL, ...); PORT is
// this server's port. The widget then takes `endpoint="/jobs"`.
import express from 'express';
import { createProxy, loadProxyConfig } from 'jobboard-connector/proxy';

const config = loadProxyConfig(process.env);
const proxy = createProxy(config);

const app = express();
app.get('/', (_req, res) => {
  res.type('html').send(`<!doctype html><html lang="en"><title>Acme jobs</title>
<h1>Acme jobs</h1>
<script type="module" src="/jobs/widget.js"></script>
<jobboard-campaigns endpoint="/jobs"></jobboard-campaigns>`);
});
app.use('/jobs', proxy.app);

const server = app.listen(config.port, config.host, () => {
  proxy.start(); // catalogue sync and delivery of queued applications
  const { port } = server.address();
  console.log(`Board listening on http://127.0.0.1:${port}/ (proxy under /jobs)`);
});

async function shutdown() {
  proxy.drain();
  server.close();
  server.closeIdleConnections();
  await proxy.stop();
}
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
