/** The oldest Node.js the engine and the service run on: undici 8 and better-sqlite3 13 need it. */
export const MINIMUM_NODE = '22.19.0';

/**
 * Why this Node.js cannot run Mirror, or null when it can. On Node 20, better-sqlite3 13 crashes
 * the process (a segmentation fault, no message) at the first database it opens: the entry points
 * say so in words first.
 */
export function unsupportedNode(version: string = process.versions.node): string | null {
  const have = version.replace(/^v/, '').split('.').map(Number);
  const need = MINIMUM_NODE.split('.').map(Number);
  for (let i = 0; i < need.length; i++) {
    const a = have[i] ?? 0;
    const b = need[i]!;
    if (a > b) return null;
    if (a < b) {
      return (
        `Mirror needs Node.js ${MINIMUM_NODE} or newer; this is ${version}. ` +
        'The npm scripts (npm start, npm test, npm run mirror) use the Node 24 that npm install ' +
        'puts in node_modules/.bin: run node_modules/.bin/node instead of node, or install Node 24.'
      );
    }
  }
  return null;
}
