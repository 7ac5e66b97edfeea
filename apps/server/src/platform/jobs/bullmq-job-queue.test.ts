import { randomBytes } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mirrorSite, SERVICE_ENV, signUp } from '../../test/api-helpers.js';
import { startFixtureSite } from '../../test/fixture-site.js';
import { createTestApp, waitFor } from '../../test/test-app.js';
import { createBullmqJobQueue } from './bullmq-job-queue.js';
import { defineJob, PermanentJobError } from './job.js';

/** Runs in the service-backed suite (`.ci/run` sets REDIS_URL); skipped without Redis. */
const redisUrl = process.env.REDIS_URL;
const log = pino({ level: 'silent' });

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup(options: { concurrency?: number; leaseMs?: number } = {}) {
  const prefix = `mirror-test-${randomBytes(6).toString('hex')}`;
  const make = () => {
    const queue = createBullmqJobQueue({
      redisUrl: redisUrl!,
      log,
      concurrency: options.concurrency ?? 2,
      leaseMs: options.leaseMs ?? 5_000,
      prefix,
    });
    cleanups.push(() => queue.close());
    return queue;
  };
  cleanups.push(async () => {
    const admin = new Queue('jobs', {
      connection: new Redis(redisUrl!, { maxRetriesPerRequest: null }),
      prefix,
    });
    await admin.obliterate({ force: true });
    await admin.close();
  });
  return { make, prefix };
}

async function stateOf(prefix: string, id: string) {
  const admin = new Queue('jobs', {
    connection: new Redis(redisUrl!, { maxRetriesPerRequest: null }),
    prefix,
  });
  try {
    const job = await admin.getJob(id);
    return {
      state: await job!.getState(),
      attemptsMade: job!.attemptsMade,
      reason: job!.failedReason,
    };
  } finally {
    await admin.close();
  }
}

describe.skipIf(!redisUrl)('BullMQ job queue', () => {
  it('runs a job with its validated payload', async () => {
    const { make, prefix } = setup();
    const queue = make();
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
    await waitFor(
      async () => ((await stateOf(prefix, id)).state === 'completed' ? true : undefined),
      10_000,
    );
    expect(seen).toEqual([41]);
    await expect(queue.enqueue(job, { n: 'x' } as unknown as { n: number })).rejects.toThrow();
  });

  it('retries with back-off, then fails for good; a permanent error is not retried', async () => {
    const { make, prefix } = setup();
    const queue = make();
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
    await waitFor(
      async () => ((await stateOf(prefix, a)).state === 'failed' ? true : undefined),
      10_000,
    );
    await waitFor(
      async () => ((await stateOf(prefix, b)).state === 'failed' ? true : undefined),
      10_000,
    );
    expect(tries).toEqual([1, 2, 3]);
    expect((await stateOf(prefix, a)).reason).toBe('boom 3');
    expect(permanentTries).toBe(1);
    expect((await stateOf(prefix, b)).reason).toBe('bad input');
  });

  it('waits for runAt', async () => {
    const { make, prefix } = setup();
    const queue = make();
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
    expect((await stateOf(prefix, id)).state).toBe('delayed');
    await waitFor(
      async () => ((await stateOf(prefix, id)).state === 'completed' ? true : undefined),
      10_000,
    );
    expect(ranAt).toBeGreaterThanOrEqual(runAt.getTime() - 5);
  });

  it('gives a running job back when a worker drains, and another worker finishes it', async () => {
    const { make, prefix } = setup();
    const first = make();
    const second = make();
    const runs: { attempt: number; worker: string }[] = [];
    const slow = (worker: string) =>
      defineJob({
        name: 'slow',
        payload: z.object({}),
        maxAttempts: 1,
        backoffMs: 10,
        handle: async (_payload, context) => {
          runs.push({ attempt: context.attempt, worker });
          if (worker === 'second') return;
          await new Promise<void>((_resolve, reject) =>
            context.signal.addEventListener('abort', () => reject(new Error('aborted'))),
          );
        },
      });
    first.register(slow('first'));
    first.start();
    const id = await first.enqueue(slow('first'), {});
    await waitFor(() => (runs.length === 1 ? true : undefined), 10_000);
    await first.stop(50);
    expect((await stateOf(prefix, id)).state).toBe('waiting');

    second.register(slow('second'));
    second.start();
    await waitFor(
      async () => ((await stateOf(prefix, id)).state === 'completed' ? true : undefined),
      10_000,
    );
    // The drained try did not count: the job allows one try and still completed.
    expect(runs).toEqual([
      { attempt: 1, worker: 'first' },
      { attempt: 1, worker: 'second' },
    ]);
  });

  it('counts a try whose worker died: a job that kills its worker every time ends failed', async () => {
    const { make, prefix } = setup({ leaseMs: 1_000 });
    const abandoned: unknown[] = [];
    const deadly = defineJob({
      name: 'deadly',
      payload: z.object({ site: z.string() }),
      maxAttempts: 2,
      backoffMs: 10,
      handle: async () => undefined,
      onAbandoned: async (payload) => void abandoned.push(payload),
    });
    const id = await make().enqueue(deadly, { site: 's1' });
    // Two workers take it and die holding it (closed without a word: the lock is never renewed).
    let runs = 0;
    for (let death = 1; death <= 2; death++) {
      const dying = new Worker(
        'jobs',
        () => {
          runs++;
          return new Promise<void>(() => undefined);
        },
        {
          connection: new Redis(redisUrl!, { maxRetriesPerRequest: null }),
          prefix,
          lockDuration: 1_000,
          stalledInterval: 500,
        },
      );
      await waitFor(() => (runs === death ? true : undefined), 15_000);
      await dying.close(true);
    }
    const survivor = make();
    survivor.register(deadly);
    survivor.start();
    await waitFor(
      async () => ((await stateOf(prefix, id)).state === 'failed' ? true : undefined),
      20_000,
    );
    expect(runs).toBe(2);
    expect(abandoned).toEqual([{ site: 's1' }]);
    expect((await stateOf(prefix, id)).reason).toBe('its process died during the last try');
  });

  it('runs a server configured with REDIS_URL: a mirror completes through BullMQ', async () => {
    const site = await startFixtureSite();
    cleanups.push(() => site.close());
    const t = await createTestApp({ ...SERVICE_ENV, REDIS_URL: redisUrl! });
    cleanups.push(() => t.close());
    const owner = await signUp(t);
    const { readings } = await mirrorSite(t, site.url, owner.headers);
    expect(readings.at(-1)!.status).toBe('completed');
    // The job never touched the database's own queue table.
    const local = await t.app.database.db.selectFrom('jobs').select('id').execute();
    expect(local).toEqual([]);
  });
});
