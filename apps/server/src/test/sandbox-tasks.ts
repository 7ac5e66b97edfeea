/**
 * Tasks that misbehave on purpose, for the sandbox's own tests: what a hostile page can make a
 * mirror run do, without needing a hostile page.
 */
import { spawn } from 'node:child_process';
import { readBlob } from '@mirror/engine';
import { sandboxTask, type SandboxContext } from '../platform/sandbox/sandbox.js';

export type MisbehaviourInput =
  | { kind: 'echo'; text: string }
  | { kind: 'store'; text: string }
  | { kind: 'throw'; message: string; code: string }
  | { kind: 'busy-loop' }
  | { kind: 'grow-heap' }
  | { kind: 'grow-buffers' }
  | { kind: 'uncaught' }
  | { kind: 'exit'; code: number }
  | { kind: 'wait-for-abort' }
  | { kind: 'ignore-abort' }
  | { kind: 'grandchild' }
  | { kind: 'env' };

export async function run(input: MisbehaviourInput, context: SandboxContext): Promise<unknown> {
  switch (input.kind) {
    case 'echo':
      context.progress({ step: 1 });
      context.log('info', 'echoing', { text: input.text });
      return { text: input.text, bytes: Buffer.from(input.text) };
    case 'store': {
      const { hash } = await context.blobs.put(
        (async function* () {
          yield Buffer.from(input.text);
        })(),
      );
      return { hash, back: (await readBlob(context.blobs, hash)).toString('utf8') };
    }
    case 'throw':
      throw Object.assign(new Error(input.message), { name: 'HostileError', code: input.code });
    case 'busy-loop':
      for (;;) {
        // A page whose processing never yields: nothing inside the child can stop this.
      }
    case 'grow-heap': {
      const kept: string[][] = [];
      for (;;) kept.push(new Array<string>(100_000).fill('x'.repeat(20) + kept.length));
    }
    case 'grow-buffers': {
      // Outside the JavaScript heap: V8's heap limit does not see it, only the tree's memory does.
      const kept: Buffer[] = [];
      for (;;) {
        kept.push(Buffer.alloc(32 * 1024 * 1024, 1));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    case 'uncaught':
      setTimeout(() => {
        throw new Error('assert(!this.paused)');
      }, 10);
      return new Promise(() => undefined);
    case 'exit':
      return process.exit(input.code);
    case 'wait-for-abort':
      await new Promise((_, reject) =>
        context.signal.addEventListener('abort', () => reject(context.signal.reason as Error)),
      );
      return null;
    case 'ignore-abort':
      return new Promise(() => undefined);
    case 'env':
      return Object.keys(process.env).sort();
    case 'grandchild': {
      // Like Chromium: a descendant in a process group of its own.
      const child = spawn('sleep', ['600'], { detached: true, stdio: 'ignore' });
      context.progress({ grandchild: child.pid });
      return new Promise(() => undefined);
    }
  }
}

export const misbehaviourTask = sandboxTask(import.meta.url, run);
