import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, EMBEDDED_JOBS, type TestApp } from '../../test/test-app.js';
import { createBullmqJobQueue } from './bullmq-job-queue.js';
import { defineJob, type JobQueue } from './job.js';
import { createLocalJobQueue } from './local-job-queue.js';

// Periodic work (site maintenance, billing renewals, DNS checks) is scheduled on the job queue, so
// that several processes running jobs run each period once, not once each.
const log = pino({ level: 'silent' });
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const PERIOD_MS = 400;

/** Two processes' queues with the same schedule; returns the periods each run belonged to. */
async function runTwoProcesses(make: () => JobQueue, forMs: number) {
  const runs: { period: number; jobId: string }[] = [];
  const tick = defineJob({
    name: 'tick',
    payload: z.object({}).strict() as z.ZodType<Record<string, never>>,
    maxAttempts: 1,
    backoffMs: 0,
    async handle(_payload, context) {
      runs.push({ period: Math.floor(Date.now() / PERIOD_MS), jobId: context.jobId });
    },
  });
  const queues = [make(), make()];
  for (const queue of queues) {
    queue.schedule(tick, PERIOD_MS);
    queue.start();
  }
  await new Promise((resolve) => setTimeout(resolve, forMs));
  await Promise.all(queues.map((q) => q.stop(0)));
  return runs;
}

describe('scheduled jobs on the local queue', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('runs each period once across processes sharing the database', async () => {
    t = await createTestApp(EMBEDDED_JOBS, { runJobs: false });
    const db = t.app.database.db;
    const runs = await runTwoProcesses(
      () => createLocalJobQueue({ db, log, concurrency: 2, pollMs: 50 }),
      PERIOD_MS * 6,
    );
    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(new Set(runs.map((r) => r.jobId)).size).toBe(runs.length);
    expect(new Set(runs.map((r) => r.period)).size).toBe(runs.length);
  });
});

const redisUrl = process.env.REDIS_URL;
describe.skipIf(!redisUrl)('scheduled jobs on BullMQ', () => {
  it('runs each period once across processes sharing Redis', async () => {
    const prefix = `mirror-test-${randomBytes(6).toString('hex')}`;
    cleanups.push(async () => {
      const admin = new Queue('jobs', {
        connection: new Redis(redisUrl!, { maxRetriesPerRequest: null }),
        prefix,
      });
      await admin.obliterate({ force: true });
      await admin.close();
    });
    const runs = await runTwoProcesses(() => {
      const queue = createBullmqJobQueue({ redisUrl: redisUrl!, log, concurrency: 2, prefix });
      cleanups.push(() => queue.close());
      return queue;
    }, PERIOD_MS * 6);
    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(new Set(runs.map((r) => r.jobId)).size).toBe(runs.length);
    // BullMQ's periods are its own (not aligned to ours): at most one run per period elapsed.
    expect(runs.length).toBeLessThanOrEqual(7);
  });
});
