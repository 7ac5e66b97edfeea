#!/usr/bin/env node
// The `mirror` command (cli-main.ts does the work). Only the Node check is imported statically: on
// a Node too old for undici 8, loading the engine would crash before a word could be said.
import v8 from 'node:v8';
import { unsupportedNode } from './node-version.js';

const nodeProblem = unsupportedNode();
if (nodeProblem) {
  console.error(nodeProblem);
  process.exit(1);
}
// A run's file operations (and gzip) go through libuv's thread pool: with two threads instead of
// Node's four, fewer hand-offs between threads: 7 to 8% less time and CPU on bench:mirror's 12,000
// files at 0 ms, measured in alternating runs (one thread was slower). Set before the pool starts.
process.env.UV_THREADPOOL_SIZE ??= '2';
// The crawl's live heap is small (tens of MB for 12,000 URLs) but V8 grows the heap with the
// allocation rate; asking it to favour size keeps a large run's resident memory near the live set
// at the cost of a few per cent of speed (docs/engine.md, "Memory").
v8.setFlagsFromString('--optimize-for-size');
const { main } = await import('./cli-main.js');
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
