#!/usr/bin/env node
// The `mirror` command (cli-main.ts does the work). Only the Node check is imported statically: on
// a Node too old for undici 8, loading the engine would crash before a word could be said.
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
// allocation rate: a young generation of 8 MB, and an old one let grow by its live size each time
// (by a quarter, V8 marked it again as soon as a full collection ended, its marking threads a third
// of the CPU; by half, 6 to 11% more CPU than now for 13 MiB less). One malloc arena for all threads
// (glibc gives each its own) pays for part of the room (docs/engine.md, "Memory"). Chromium, which a
// run may start, inherits the arena setting, but its own allocator (PartitionAlloc) serves its
// memory. TurboFan optimizes a function after 30,000 calls instead of 3,000 (Maglev's 400 are
// kept): compiling with it took a tenth of a 12,000-URL run's CPU on V8's helper threads, more
// than it paid back in a run that short (7 to 12% less CPU without it; 120,000 URLs, where it
// pays, are no slower: docs/engine.md, "Memory"). V8 and glibc read these at start only: the CLI
// starts again with them, in the same process (execve), unless the flags were given.
const V8_FLAGS = [
  '--max-semi-space-size=8',
  '--heap-growing-percent=100',
  '--invocation-count-for-turbofan=30000',
];
if (!V8_FLAGS.every((flag) => process.execArgv.includes(flag)) && process.execve) {
  const args = [...V8_FLAGS, ...process.execArgv, ...process.argv.slice(1)];
  const env = { MALLOC_ARENA_MAX: '1', ...process.env };
  process.execve(process.execPath, [process.execPath, ...args], env);
}
const { main } = await import('./cli-main.js');
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
