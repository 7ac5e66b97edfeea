import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob, PermanentJobError, type JobQueue } from '../platform/jobs/job.js';
import { waitFor } from './test-app.js';

/** Where a job stands, in BullMQ's words (the local table's `queued` is waiting or delayed). */
export type JobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed';

/** One test's view of a job queue provider, over storage of its own. */
export interface JobQueueHarness {
  /** A queue, as one process would start it; several made by one harness share their jobs. */
  make(options?: { concurrency?: number; leaseMs?: number }): JobQueue;
  /** A job's state and the error it ended with. */
  inspect(id: string): Promise<{ state: JobState; error: string | null }>;
}

const TIMEOUT_MS = 10_000;

async function waitForState(harness: JobQueueHarness, id: string, state: JobState) {
  await waitFor(
    async () => ((await harness.inspect(id)).state === state ? true : undefined),
    TIMEOUT_MS,
  );
}

/**
 * The behaviour every job queue provider promises (`JobQueue` in job.ts): the local table and
 * BullMQ run the same tests. `setup` gives each test fresh storage; the caller's file stops and
 * closes what `make` opened after each test, and tests what is specific to its provider.
 */
export function describeJobQueue(
  name: string,
  setup: () => Promise<JobQueueHarness>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip ?? false)(`${name}: the job queue contract`, () => {
    it('runs a job with its validated payload, and refuses an invalid payload', async () => {
      const harness = await setup();
      const queue = harness.make();
      const seen: number[] = [];
      const job = defineJob({
        name: 'add',
        payload: z.object({ n: z.number() }),
        maxAttempts: 1,
        backoffMs: 10,
        handle: async ({ n }) => void seen.push(n),
      });
      queue.register(job);
      queue.start();
      const id = await queue.enqueue(job, { n: 41 });
      await waitForState(harness, id, 'completed');
      expect(seen).toEqual([41]);
      await expect(queue.enqueue(job, { n: 'x' } as unknown as { n: number })).rejects.toThrow();
    });

    it('retries with back-off, then fails for good; a permanent error is not retried', async () => {
      const harness = await setup();
      const queue = harness.make();
      const tries: number[] = [];
      const flaky = defineJob({
        name: 'flaky',
        payload: z.object({}),
        maxAttempts: 3,
        backoffMs: 20,
        handle: async (_payload, context) => {
          tries.push(context.attempt);
          throw new Error(`boom ${context.attempt}`);
        },
      });
      let permanentTries = 0;
      const refused = defineJob({
        name: 'refused',
        payload: z.object({}),
        maxAttempts: 3,
        backoffMs: 20,
        handle: async () => {
          permanentTries++;
          throw new PermanentJobError('bad input');
        },
      });
      queue.register(flaky);
      queue.register(refused);
      queue.start();
      const a = await queue.enqueue(flaky, {});
      const b = await queue.enqueue(refused, {});
      await waitForState(harness, a, 'failed');
      await waitForState(harness, b, 'failed');
      expect(tries).toEqual([1, 2, 3]);
      expect(await harness.inspect(a)).toEqual({ state: 'failed', error: 'boom 3' });
      expect(permanentTries).toBe(1);
      expect(await harness.inspect(b)).toEqual({ state: 'failed', error: 'bad input' });
    });

    it('never runs more than its concurrency at once', async () => {
      const harness = await setup();
      const queue = harness.make({ concurrency: 2 });
      let active = 0;
      let peak = 0;
      const slow = defineJob({
        name: 'slow',
        payload: z.object({}),
        maxAttempts: 1,
        backoffMs: 10,
        handle: async () => {
          active++;
          peak = Math.max(peak, active);
          await new Promise((resolve) => setTimeout(resolve, 60));
          active--;
        },
      });
      queue.register(slow);
      const ids = await Promise.all(Array.from({ length: 6 }, () => queue.enqueue(slow, {})));
      queue.start();
      for (const id of ids) await waitForState(harness, id, 'completed');
      expect(peak).toBe(2);
    });

    it('runs the jobs people wait for before background work, which never takes the last slot', async () => {
      const harness = await setup();
      const queue = harness.make({ concurrency: 2 });
      const started: string[] = [];
      let backgroundActive = 0;
      let backgroundPeak = 0;
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const thumbnail = defineJob({
        name: 'thumbnail',
        payload: z.object({ n: z.number() }),
        maxAttempts: 1,
        backoffMs: 10,
        background: true,
        handle: async ({ n }) => {
          started.push(`thumbnail ${n}`);
          backgroundActive++;
          backgroundPeak = Math.max(backgroundPeak, backgroundActive);
          await released;
          backgroundActive--;
        },
      });
      const mirror = defineJob({
        name: 'mirror',
        payload: z.object({ n: z.number() }),
        maxAttempts: 1,
        backoffMs: 10,
        handle: async ({ n }) => void started.push(`mirror ${n}`),
      });
      queue.register(thumbnail);
      queue.register(mirror);
      // Queued before the mirror, taken after it.
      const thumbnails = [
        await queue.enqueue(thumbnail, { n: 1 }),
        await queue.enqueue(thumbnail, { n: 2 }),
        await queue.enqueue(thumbnail, { n: 3 }),
      ];
      const first = await queue.enqueue(mirror, { n: 1 });
      queue.start();
      await waitForState(harness, first, 'completed');
      expect(started[0]).toBe('mirror 1');
      await waitFor(() => (backgroundActive === 1 ? true : undefined), TIMEOUT_MS);

      // One thumbnail holds a slot, two wait: a new mirror still runs at once.
      const second = await queue.enqueue(mirror, { n: 2 });
      await waitForState(harness, second, 'completed');
      expect(started.filter((name) => name.startsWith('thumbnail'))).toHaveLength(1);

      release();
      for (const id of thumbnails) await waitForState(harness, id, 'completed');
      expect(backgroundPeak).toBe(1);
    });

    it('waits for runAt', async () => {
      const harness = await setup();
      const queue = harness.make();
      let ranAt = 0;
      const later = defineJob({
        name: 'later',
        payload: z.object({}),
        maxAttempts: 1,
        backoffMs: 10,
        handle: async () => void (ranAt = Date.now()),
      });
      queue.register(later);
      queue.start();
      const runAt = new Date(Date.now() + 600);
      const id = await queue.enqueue(later, {}, { runAt });
      expect((await harness.inspect(id)).state).toBe('delayed');
      await waitForState(harness, id, 'completed');
      expect(ranAt).toBeGreaterThanOrEqual(runAt.getTime() - 5);
    });

    it('gives a running job back when a queue drains, and another queue finishes it', async () => {
      const harness = await setup();
      const first = harness.make();
      const second = harness.make();
      const runs: { attempt: number; queue: string }[] = [];
      const slow = (queue: string) =>
        defineJob({
          name: 'slow',
          payload: z.object({}),
          maxAttempts: 1,
          backoffMs: 10,
          handle: async (_payload, context) => {
            runs.push({ attempt: context.attempt, queue });
            if (queue === 'second') return;
            await new Promise<void>((_resolve, reject) =>
              context.signal.addEventListener('abort', () => reject(new Error('aborted'))),
            );
          },
        });
      first.register(slow('first'));
      first.start();
      const id = await first.enqueue(slow('first'), {});
      await waitFor(() => (runs.length === 1 ? true : undefined), TIMEOUT_MS);
      await first.stop(50);
      expect((await harness.inspect(id)).state).toBe('waiting');

      second.register(slow('second'));
      second.start();
      await waitForState(harness, id, 'completed');
      // The drained try did not count: the job allows one try and still completed.
      expect(runs).toEqual([
        { attempt: 1, queue: 'first' },
        { attempt: 1, queue: 'second' },
      ]);
    });
  });
}
