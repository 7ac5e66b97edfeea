import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { misbehaviourTask } from '../../test/sandbox-tasks.js';
import { pathToFileURL } from 'node:url';
import { createSandbox, moduleToLoad, SandboxError, SandboxTaskError } from './sandbox.js';

const blobsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-sandbox-'));
const sandbox = createSandbox({ blobs: { blobsDir, s3: undefined }, memoryMb: 512 });

afterAll(() => fs.rmSync(blobsDir, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The loop of this process stays free while a child misbehaves: the longest gap between ticks. */
async function worstTickGap<T>(work: Promise<T>): Promise<{ gapMs: number; result: T | Error }> {
  let last = Date.now();
  let gapMs = 0;
  const ticker = setInterval(() => {
    const now = Date.now();
    gapMs = Math.max(gapMs, now - last);
    last = now;
  }, 20);
  try {
    return { gapMs, result: await work };
  } catch (error) {
    return { gapMs, result: error as Error };
  } finally {
    clearInterval(ticker);
  }
}

describe('sandbox', () => {
  it('runs a task in another process: input, output (with bytes), progress, logs and the blob store', async () => {
    const progress: unknown[] = [];
    const logs: unknown[] = [];
    const log = {
      debug: () => undefined,
      info: (fields: object, msg: string) => logs.push({ msg, ...fields }),
      warn: () => undefined,
      error: () => undefined,
    };
    const { output, usage } = await sandbox.run(
      misbehaviourTask,
      { kind: 'echo', text: 'hello' },
      { timeoutMs: 20_000, onProgress: (p) => progress.push(p), log },
    );
    expect(output).toMatchObject({ text: 'hello' });
    expect(Buffer.from((output as { bytes: Uint8Array }).bytes).toString()).toBe('hello');
    expect(progress).toEqual([{ step: 1 }]);
    expect(logs).toEqual([{ msg: 'echoing', text: 'hello' }]);
    expect(usage.durationMs).toBeGreaterThan(0);

    const stored = await sandbox.run(
      misbehaviourTask,
      { kind: 'store', text: 'kept' },
      { timeoutMs: 20_000 },
    );
    expect(stored.output).toMatchObject({ back: 'kept' });
    await expect.poll(() => sandbox.active).toBe(0);
  });

  it("gives a run none of the server's secrets", async () => {
    process.env.STRIPE_SECRET_KEY = 'sk_test_secret';
    process.env.DATABASE_URL_FOR_TEST = 'postgres://secret@db/mirror';
    try {
      const { output } = await sandbox.run(
        misbehaviourTask,
        { kind: 'env' },
        { timeoutMs: 20_000 },
      );
      expect(output).toContain('PATH');
      expect(output).not.toContain('STRIPE_SECRET_KEY');
      expect(output).not.toContain('DATABASE_URL_FOR_TEST');
    } finally {
      delete process.env.STRIPE_SECRET_KEY;
      delete process.env.DATABASE_URL_FOR_TEST;
    }
  });

  it("reports the task's own error with its name and code", async () => {
    const error = await sandbox
      .run(
        misbehaviourTask,
        { kind: 'throw', message: 'no', code: 'EHOSTILE' },
        { timeoutMs: 20_000 },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxTaskError);
    expect(error).toMatchObject({ taskErrorName: 'HostileError', code: 'EHOSTILE', message: 'no' });
  });

  it('kills a run that never yields at its time limit, while this process keeps answering', async () => {
    const started = Date.now();
    const { gapMs, result } = await worstTickGap(
      sandbox.run(misbehaviourTask, { kind: 'busy-loop' }, { timeoutMs: 1_500 }),
    );
    expect(result).toBeInstanceOf(SandboxError);
    expect(result).toMatchObject({ reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(gapMs).toBeLessThan(500);
  });

  it("ends a run whose heap outgrows V8's limit, and one whose buffers outgrow the memory limit", async () => {
    const heap = await sandbox
      .run(misbehaviourTask, { kind: 'grow-heap' }, { timeoutMs: 60_000, memoryMb: 256 })
      .catch((e: unknown) => e);
    expect(heap).toBeInstanceOf(SandboxError);
    expect(heap).toMatchObject({ reason: 'memory' });

    const buffers = await sandbox
      .run(misbehaviourTask, { kind: 'grow-buffers' }, { timeoutMs: 60_000, memoryMb: 256 })
      .catch((e: unknown) => e);
    expect(buffers).toBeInstanceOf(SandboxError);
    expect(buffers).toMatchObject({ reason: 'memory' });
    expect((buffers as SandboxError).usage.peakBytes).toBeGreaterThan(200 * 1024 * 1024);
  });

  it('survives an exception nobody can catch, and a child that exits on its own', async () => {
    const uncaught = await sandbox
      .run(misbehaviourTask, { kind: 'uncaught' }, { timeoutMs: 20_000 })
      .catch((e: unknown) => e);
    expect(uncaught).toBeInstanceOf(SandboxTaskError);
    expect((uncaught as Error).message).toContain('assert(!this.paused)');

    const exited = await sandbox
      .run(misbehaviourTask, { kind: 'exit', code: 3 }, { timeoutMs: 20_000 })
      .catch((e: unknown) => e);
    expect(exited).toBeInstanceOf(SandboxError);
    expect(exited).toMatchObject({ reason: 'crashed' });
    expect((exited as Error).message).toContain('exited with code 3');
  });

  it('stops a run when asked: at once when it listens, by force when it does not', async () => {
    for (const kind of ['wait-for-abort', 'ignore-abort'] as const) {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 1_000);
      const started = Date.now();
      const error = await sandbox
        .run(misbehaviourTask, { kind }, { timeoutMs: 60_000, signal: controller.signal })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SandboxError);
      expect(error).toMatchObject({ reason: 'aborted' });
      expect(Date.now() - started).toBeLessThan(5_000);
    }
  });

  it('kills what the run started in its own process group (as Chromium does) with the run', async () => {
    let grandchild = 0;
    const error = await sandbox
      .run(
        misbehaviourTask,
        { kind: 'grandchild' },
        {
          // Long enough for the child to start and report under a loaded CI machine (2.5 s was not).
          timeoutMs: 10_000,
          onProgress: (p) => (grandchild = (p as { grandchild: number }).grandchild),
        },
      )
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'timeout' });
    expect(grandchild).toBeGreaterThan(0);
    await expect.poll(() => alive(grandchild), { timeout: 3_000 }).toBe(false);
  });
});

describe('runs from the build (MIRROR_SANDBOX_BUILT)', () => {
  it('loads a task of the sources from its built twin and the built child entry, when built', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-twins-'));
    const roots = { source: path.join(root, 'src'), build: path.join(root, 'dist') };
    const write = (file: string) => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, '');
    };
    const task = path.join(roots.source, 'modules/sites/mirror-run.task.ts');
    const twin = path.join(roots.build, 'modules/sites/mirror-run.task.js');
    const entry = path.join(roots.build, 'platform/sandbox/sandbox-child.js');
    write(task);
    try {
      const url = pathToFileURL(task).href;
      // Not built yet (a test-only task, or no build): the sources, through tsx.
      expect(moduleToLoad(url, true, roots).module).toBe(url);
      write(twin);
      expect(moduleToLoad(url, true, roots).module).toBe(url);
      write(entry);
      expect(moduleToLoad(url, true, roots)).toEqual({
        module: pathToFileURL(twin).href,
        entry,
      });
      // Not asked for: the sources, built or not.
      expect(moduleToLoad(url, false, roots).module).toBe(url);
      // A built server names built modules: they load as named.
      expect(moduleToLoad(pathToFileURL(twin).href, true, roots).module).toBe(
        pathToFileURL(twin).href,
      );
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('runs a task the build lacks from its sources', async () => {
    const built = createSandbox({
      blobs: { blobsDir, s3: undefined },
      memoryMb: 512,
      loadBuilt: true,
    });
    const { output } = await built.run(
      misbehaviourTask,
      { kind: 'echo', text: 'from the sources' },
      { timeoutMs: 20_000 },
    );
    expect(output).toMatchObject({ text: 'from the sources' });
  });
});
