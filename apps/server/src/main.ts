// The process entry point: `node apps/server/dist/main.js [--role …]` (start.ts does the work).
// Only the Node check is imported statically: on a Node too old for undici 8 and better-sqlite3 13,
// loading the app would crash before a word could be said.
import { unsupportedNode } from '@mirror/engine/node-version';

const nodeProblem = unsupportedNode();
if (nodeProblem) {
  console.error(nodeProblem);
  process.exit(1);
}
const { main } = await import('./start.js');
main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
