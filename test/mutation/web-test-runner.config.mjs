// The browser tests as `npm run test:browser` runs them, for Stryker's
// command runner: the mutated code reads the active mutant from
// globalThis.__stryker__ when there is no process.env to read it from, so
// each test page is told it before the tests load.
import config from '../../web-test-runner.config.js';

const activeMutant = process.env.__STRYKER_ACTIVE_MUTANT__;
const tellMutant = activeMutant === undefined ? '' : `<script>globalThis.__stryker__ = { activeMutant: ${JSON.stringify(activeMutant)} };</script>`;

export default {
  ...config,
  testRunnerHtml: (testFramework) => `<!doctype html>
<html>
  <body>
    ${tellMutant}
    <script type="module" src="${testFramework}"></script>
  </body>
</html>`,
};
