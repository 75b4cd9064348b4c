// The Node.js version check `npm start` runs before anything else. No imports and nothing newer than ES2015 syntax:
// it must load, and say what is wrong, on the old Node versions it refuses.

export const REQUIRED_NODE_MAJOR = 22;

/** Why this Node.js version will not do (what is needed, what was found, what to do), or null when it will. */
export function nodeVersionProblem(version, execPath) {
  const match = /^v?(\d+)\.(\d+)/.exec(String(version));
  const major = match ? Number(match[1]) : 0;
  if (major >= REQUIRED_NODE_MAJOR) return null;
  return (
    "Hintline needs Node.js " +
    REQUIRED_NODE_MAJOR +
    " or newer, but this is Node.js " +
    (match ? String(version).replace(/^v?/, "") : `of an unknown version (${version})`) +
    (execPath ? ` (${execPath})` : "") +
    ".\n" +
    "Install Node.js " +
    REQUIRED_NODE_MAJOR +
    " or 24 LTS (https://nodejs.org, or `nvm install 24`), then run `npm ci && npm start` again."
  );
}

/** Prints the problem to stderr and exits with status 1 when this process's Node.js will not do. */
export function exitUnlessNodeWillDo() {
  const problem = nodeVersionProblem(process.version, process.execPath);
  if (problem) {
    process.stderr.write(`\n${problem}\n\n`);
    process.exit(1);
  }
}
