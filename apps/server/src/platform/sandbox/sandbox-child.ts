/**
 * The child side of the sandbox (`sandbox.ts`): receives one task, imports its module, runs it,
 * sends the answer and exits (or, to fill the compile cache, only imports it: `code-cache.ts`).
 * Anything thrown where nobody catches it ends this process only. It holds no storage settings:
 * its blob store is the parent's, over the IPC channel.
 */
import fs from 'node:fs';
import module from 'node:module';
import { Worker } from 'node:worker_threads';
import { setChromiumSandbox } from '@mirror/engine';
import { createChannelBlobStore, errorData } from './blob-channel.js';
import type { SandboxContext } from './sandbox.js';
import type { LogLevel, ToChild, ToParent } from './sandbox-protocol.js';

type TaskModule = { run(input: unknown, context: SandboxContext): Promise<unknown> };

/**
 * Ends this process when its parent dies, even while the main thread is stuck in a loop: a thread
 * of its own looks at the parent pid (a dead parent's children are re-parented).
 */
function watchParent(): void {
  const source = `
    const { workerData } = require('node:worker_threads');
    setInterval(() => {
      if (process.ppid !== workerData.parent) process.kill(process.pid, 'SIGKILL');
    }, 500);
  `;
  const watchdog = new Worker(source, { eval: true, workerData: { parent: process.ppid } });
  watchdog.unref();
}

/**
 * When a machine (or a systemd unit's MemoryMax) runs out of memory, the kernel kills this run
 * rather than the server: raising one's own OOM score needs no privilege. Chromium inherits it.
 */
function volunteerForOomKiller(): void {
  try {
    fs.writeFileSync('/proc/self/oom_score_adj', '1000');
  } catch {
    // Not Linux: the memory watch of the parent still applies.
  }
}

function send(message: ToParent): Promise<void> {
  return new Promise((resolve) => {
    if (!process.connected) return resolve();
    process.send!(message, undefined, {}, () => resolve());
  });
}

async function fail(error: unknown, exitCode: number): Promise<never> {
  await send({ type: 'failed', error: errorData(error) });
  process.exit(exitCode);
}

const controller = new AbortController();
let started = false;
const blobs = createChannelBlobStore((id, call) => {
  if (process.connected) process.send!({ type: 'blob', id, call } satisfies ToParent);
});

async function start(message: Extract<ToChild, { type: 'start' }>): Promise<void> {
  setChromiumSandbox(message.chromiumSandbox);
  const task = (await import(message.module)) as TaskModule;
  const context: SandboxContext = {
    blobs: blobs.store,
    outputDir: message.outputDir,
    signal: controller.signal,
    progress: (value) => void send({ type: 'progress', value }),
    log: (level: LogLevel, msg: string, fields: Record<string, unknown> = {}) =>
      void send({ type: 'log', level, msg, fields }),
  };
  const output = await task.run(message.input, context);
  await send({ type: 'done', output });
  process.exit(0);
}

watchParent();
volunteerForOomKiller();
process.on('disconnect', () => process.exit(1));
process.on('uncaughtException', (error) => void fail(error, 70));
process.on('unhandledRejection', (error) => void fail(error, 70));
process.on('message', (message: ToChild) => {
  if (message.type === 'blob') {
    blobs.receive(message.id, message.answer);
  } else if (message.type === 'abort') {
    controller.abort(new Error('The run was stopped.'));
  } else if (message.type === 'warm' && !started) {
    started = true;
    import(message.module)
      .then(() => {
        module.flushCompileCache();
        process.exit(0);
      })
      .catch(() => process.exit(1));
  } else if (message.type === 'start' && !started) {
    started = true;
    start(message).catch((error: unknown) => fail(error, 1));
  }
});
