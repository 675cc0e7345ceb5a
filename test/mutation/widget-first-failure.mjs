// A web-test-runner reporter for the mutation check: the first test file that
// fails ends the run (exit 1), since one failure already kills the mutant and
// the other files would only cost time. Files still run one at a time, in the
// order given, so those that kill most mutants go first.

/** Ends the process at the first finished test session that did not pass. */
export function endAtFirstFailure() {
  return {
    start({ sessions }) {
      sessions.on('session-status-updated', (session) => {
        if (session.status !== 'FINISHED' || session.passed) return;
        process.stdout.write(`failed: ${session.testFile}\n`);
        // The browser launched for the run is closed by puppeteer's exit handler.
        process.exit(1);
      });
    },
  };
}
