// The first step of `npm start`, `npm test` and the other scripts that run
// .ts files: on a Node older than package.json's engines (22.18, the first
// that runs .ts without a flag) they would die deep inside with `Unknown file
// extension ".ts"`; this stops them at once with one line saying what to do.
// Plain CommonJS in old syntax (var, functions; no `?.`, `??`, classes), so
// that any Node can read it.
'use strict';

var ENGINES = require('../../package.json').engines.node;

/** The version engines asks for, from its one form `>=MAJOR.MINOR`. */
function wanted() {
  var match = /^>=(\d+)\.(\d+)$/.exec(ENGINES);
  if (match === null)
    throw new Error(
      'package.json engines.node is "' +
        ENGINES +
        '": server/scripts/check-node.cjs reads only ">=MAJOR.MINOR"; write it so or update the script.',
    );
  return { major: Number(match[1]), minor: Number(match[2]) };
}

/** The one line telling that `version` (e.g. "20.20.2") is too old, or null when it will do. */
function nodeVersionProblem(version) {
  var need = wanted();
  var parts = version.split('.');
  var major = Number(parts[0]);
  var minor = Number(parts[1]);
  if (major > need.major || (major === need.major && minor >= need.minor)) return null;
  return (
    'Node ' +
    need.major +
    '.' +
    need.minor +
    ' or newer is needed; you have ' +
    version +
    '. ' +
    'Get Node 24 from https://nodejs.org/en/download (or run `nvm install 24`, or `npx n 24`), then run the command again.'
  );
}

module.exports = { nodeVersionProblem: nodeVersionProblem };

if (require.main === module) {
  var problem = nodeVersionProblem(process.versions.node);
  if (problem !== null) {
    console.error(problem);
    process.exit(1);
  }
}
