import { randomBytes } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mirrorSite, SERVICE_ENV, signUp } from '../../test/api-helpers.js';
import { startFixtureSite } from '../../test/fixture-site.js';
import { describeJobQueue, type JobState } from '../../test/job-queue.contract.js';
import { testLogger } from '../../test/logs.js';
import { createTestApp, waitFor } from '../../test/test-app.js';
import { createBullmqJobQueue } from './bullmq-job-queue.js';
import { defineJob } from './job.js';

/** Runs in the service-backed suite (`.ci/run` sets REDIS_URL); skipped without Redis. */
const redisUrl = process.env.REDIS_URL;
const log = testLogger();

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup() {
  const prefix = `mirror-test-${randomBytes(6).toString('hex')}`;
  const make = (options: { concurrency?: number; leaseMs?: number } = {}) => {
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
      state: (await job!.getState()) as JobState,
      reason: job!.failedReason,
    };
  } finally {
    await admin.close();
  }
}

describeJobQueue(
  'BullMQ job queue',
  async () => {
    const { make, prefix } = setup();
    return {
      make,
      async inspect(id) {
        const { state, reason } = await stateOf(prefix, id);
        return { state, error: reason ?? null };
      },
    };
  },
  { skip: !redisUrl },
);

describe.skipIf(!redisUrl)('BullMQ job queue', () => {
  it('counts a try whose worker died: a job that kills its worker every time ends failed', async () => {
    const { make, prefix } = setup();
    const abandoned: unknown[] = [];
    const deadly = defineJob({
      name: 'deadly',
      payload: z.object({ site: z.string() }),
      maxAttempts: 2,
      backoffMs: 10,
      handle: async () => undefined,
      onAbandoned: async (payload) => void abandoned.push(payload),
    });
    const id = await make({ leaseMs: 1_000 }).enqueue(deadly, { site: 's1' });
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
    const survivor = make({ leaseMs: 1_000 });
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
