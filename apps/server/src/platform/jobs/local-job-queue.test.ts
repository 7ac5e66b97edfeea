import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeJobQueue, type JobState } from '../../test/job-queue.contract.js';
import { createTestApp, EMBEDDED_JOBS, waitFor, type TestApp } from '../../test/test-app.js';
import { defineJob } from './job.js';
import { createLocalJobQueue } from './local-job-queue.js';

let t: TestApp | undefined;
const queues: { stop(graceMs?: number): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(queues.splice(0).map((q) => q.stop(0)));
  await t?.close();
  t = undefined;
});

/** The app's database with its `jobs` table, even in the service run: this file is about it. */
async function setup() {
  t = await createTestApp(EMBEDDED_JOBS, { runJobs: false });
  const make = (options: { concurrency?: number; leaseMs?: number } = {}) => {
    const queue = createLocalJobQueue({
      db: t!.app.database.db,
      log: t!.app.log,
      concurrency: options.concurrency ?? 2,
      leaseMs: options.leaseMs ?? 15_000,
      pollMs: 50,
    });
    queues.push(queue);
    return queue;
  };
  return { make };
}

const jobRow = (id: string) =>
  t!.app.database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describeJobQueue('local job queue', async () => {
  const { make } = await setup();
  return {
    make,
    async inspect(id) {
      const row = await jobRow(id);
      const queued: JobState = row.run_at > new Date().toISOString() ? 'delayed' : 'waiting';
      const states: Record<string, JobState> = {
        queued,
        running: 'active',
        done: 'completed',
        failed: 'failed',
      };
      return { state: states[row.status]!, error: row.last_error };
    },
  };
});

/** Marks a job as claimed by a process that died after `attempts` tries: its lease is in the past. */
async function diedHolding(id: string, attempts: number): Promise<void> {
  await t!.app.database.db
    .updateTable('jobs')
    .set({
      status: 'running',
      locked_by: 'dead-host:1',
      locked_until: new Date(Date.now() - 1).toISOString(),
      attempts,
    })
    .where('id', '=', id)
    .execute();
}

describe('local job queue', () => {
  it('runs again a job whose process died (its lease ran out)', async () => {
    const { make } = await setup();
    const queue = make({ leaseMs: 1000 });
    let runs = 0;
    const job = defineJob({
      name: 'resumable',
      payload: z.object({}),
      maxAttempts: 3,
      backoffMs: 10,
      handle: async () => void runs++,
    });
    queue.register(job);
    const id = await queue.enqueue(job, {});
    // Another process claimed it, then died: its lease is in the past.
    await diedHolding(id, 1);
    queue.start();
    await waitFor(async () => ((await jobRow(id)).status === 'done' ? true : undefined));
    expect(runs).toBe(1);
  });

  it('ends a job whose process died during its last try, and tells its definition', async () => {
    const { make } = await setup();
    const queue = make({ leaseMs: 1000 });
    let runs = 0;
    const abandoned: unknown[] = [];
    const job = defineJob({
      name: 'poison',
      payload: z.object({ site: z.string() }),
      maxAttempts: 3,
      backoffMs: 10,
      handle: async () => void runs++,
      onAbandoned: async (payload) => void abandoned.push(payload),
    });
    queue.register(job);
    const id = await queue.enqueue(job, { site: 's1' });
    // Its third try killed its process (as a run that crashes its worker would): lease expired.
    await diedHolding(id, 3);
    queue.start();
    await waitFor(async () => ((await jobRow(id)).status === 'failed' ? true : undefined));
    await waitFor(() => (abandoned.length > 0 ? true : undefined));
    // Given a few more polls, it is never run again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(runs).toBe(0);
    expect(abandoned).toEqual([{ site: 's1' }]);
    expect(await jobRow(id)).toMatchObject({ status: 'failed', attempts: 3 });
  });
});
