// The widget's sanitiser tests as `npm run test:browser` runs them, for
// Stryker's command runner: the file of its tests alone, each test page told
// the active mutant before the tests load (the mutated code reads it from
// globalThis.__stryker__ when there is no process.env to read it from).
import config from '../../web-test-runner.config.js';

const activeMutant = process.env.__STRYKER_ACTIVE_MUTANT__;
const tellMutant = activeMutant === undefined ? '' : `<script>globalThis.__stryker__ = { activeMutant: ${JSON.stringify(activeMutant)} };</script>`;

export default {
  ...config,
  files: 'widget/src/internal/internal.test.ts',
  testRunnerHtml: (testFramework) => `<!doctype html>
<html>
  <body>
    ${tellMutant}
    <script type="module" src="${testFramework}"></script>
  </body>
</html>`,
};
