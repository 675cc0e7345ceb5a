// The widget's browser tests as `npm run test:browser` runs them, for
// Stryker's command runner: only the files that judge a group's mutants,
// each test page told the active mutant before the tests load (the mutated
// code reads it from globalThis.__stryker__ when there is no process.env to
// read it from), each file ended by its first failing test, and the run ended
// by its first failing file (one failure kills the mutant).
import { defaultReporter } from '@web/test-runner';
import config from '../../web-test-runner.config.js';
import { endAtFirstFailure } from './widget-first-failure.mjs';

/** web-test-runner's configuration running `files` against the active mutant. */
export function widgetMutantConfig(files) {
  const activeMutant = process.env.__STRYKER_ACTIVE_MUTANT__;
  const tellMutant =
    activeMutant === undefined
      ? ''
      : `<script>globalThis.__stryker__ = { activeMutant: ${JSON.stringify(activeMutant)} };</script>`;
  return {
    ...config,
    files,
    testFramework: { ...config.testFramework, config: { ...config.testFramework.config, bail: true } },
    reporters: [defaultReporter(), endAtFirstFailure()],
    testRunnerHtml: (testFramework) => `<!doctype html>
<html>
  <body>
    ${tellMutant}
    <script type="module" src="${testFramework}"></script>
  </body>
</html>`,
  };
}
