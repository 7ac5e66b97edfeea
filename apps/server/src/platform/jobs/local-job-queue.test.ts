import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, EMBEDDED_JOBS, waitFor, type TestApp } from '../../test/test-app.js';
import { defineJob, PermanentJobError } from './job.js';
import { createLocalJobQueue } from './local-job-queue.js';

let t: TestApp | undefined;
const queues: { stop(graceMs?: number): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(queues.splice(0).map((q) => q.stop(0)));
  await t?.close();
  t = undefined;
});

async function setup(options: { concurrency?: number; leaseMs?: number } = {}) {
  // The app's database with its `jobs` table, even in the service run: this file is about it.
  t = await createTestApp(EMBEDDED_JOBS, { runJobs: false });
  const queue = createLocalJobQueue({
    db: t.app.database.db,
    log: t.app.log,
    concurrency: options.concurrency ?? 2,
    leaseMs: options.leaseMs ?? 15_000,
    pollMs: 50,
  });
  queues.push(queue);
  return { db: t.app.database.db, queue };
}

const jobRow = (id: string) =>
  t!.app.database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('local job queue', () => {
  it('runs a job with its validated payload and marks it done', async () => {
    const { queue } = await setup();
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
    await waitFor(async () => ((await jobRow(id)).status === 'done' ? true : undefined));
    expect(seen).toEqual([41]);
    await expect(queue.enqueue(job, { n: 'x' } as unknown as { n: number })).rejects.toThrow();
  });

  it('retries with back-off, then fails for good; a permanent error is not retried', async () => {
    const { queue } = await setup();
    let tries = 0;
    const flaky = defineJob({
      name: 'flaky',
      payload: z.object({}),
      maxAttempts: 3,
      backoffMs: 20,
      handle: async () => {
        tries++;
        throw new Error(`boom ${tries}`);
      },
    });
    let permanentTries = 0;
    const doomed = defineJob({
      name: 'doomed',
      payload: z.object({}),
      maxAttempts: 5,
      backoffMs: 20,
      handle: async () => {
        permanentTries++;
        throw new PermanentJobError('bad input');
      },
    });
    queue.register(flaky);
    queue.register(doomed);
    queue.start();
    const a = await queue.enqueue(flaky, {});
    const b = await queue.enqueue(doomed, {});
    await waitFor(async () =>
      (await jobRow(a)).status === 'failed' && (await jobRow(b)).status === 'failed'
        ? true
        : undefined,
    );
    expect(tries).toBe(3);
    expect((await jobRow(a)).last_error).toBe('boom 3');
    expect(permanentTries).toBe(1);
  });

  it('never runs more than its concurrency at once', async () => {
    const { queue } = await setup({ concurrency: 2 });
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
        await new Promise((r) => setTimeout(r, 60));
        active--;
      },
    });
    queue.register(slow);
    const ids = await Promise.all(Array.from({ length: 6 }, () => queue.enqueue(slow, {})));
    queue.start();
    await waitFor(async () =>
      (await Promise.all(ids.map(jobRow))).every((j) => j.status === 'done') ? true : undefined,
    );
    expect(peak).toBe(2);
  });

  it('runs again a job whose process died (its lease ran out)', async () => {
    const { db, queue } = await setup({ leaseMs: 1000 });
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
    await db
      .updateTable('jobs')
      .set({
        status: 'running',
        locked_by: 'dead-host:1',
        locked_until: new Date(Date.now() - 1).toISOString(),
        attempts: 1,
      })
      .where('id', '=', id)
      .execute();
    queue.start();
    await waitFor(async () => ((await jobRow(id)).status === 'done' ? true : undefined));
    expect(runs).toBe(1);
  });

  it('ends a job whose process died during its last try, and tells its definition', async () => {
    const { db, queue } = await setup({ leaseMs: 1000 });
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
    await db
      .updateTable('jobs')
      .set({
        status: 'running',
        locked_by: 'dead-host:1',
        locked_until: new Date(Date.now() - 1).toISOString(),
        attempts: 3,
      })
      .where('id', '=', id)
      .execute();
    queue.start();
    await waitFor(async () => ((await jobRow(id)).status === 'failed' ? true : undefined));
    await waitFor(() => (abandoned.length > 0 ? true : undefined));
    // Given a few more polls, it is never run again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(runs).toBe(0);
    expect(abandoned).toEqual([{ site: 's1' }]);
    expect(await jobRow(id)).toMatchObject({ status: 'failed', attempts: 3 });
  });

  it('gives running jobs back to the queue when it drains', async () => {
    const { queue } = await setup();
    const job = defineJob({
      name: 'long',
      payload: z.object({}),
      maxAttempts: 2,
      backoffMs: 10,
      handle: (_payload, context) =>
        new Promise<void>((_resolve, reject) =>
          context.signal.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    });
    queue.register(job);
    queue.start();
    const id = await queue.enqueue(job, {});
    await waitFor(async () => ((await jobRow(id)).status === 'running' ? true : undefined));
    await queue.stop(50);
    const row = await jobRow(id);
    expect(row).toMatchObject({ status: 'queued', attempts: 0, locked_by: null });
  });
});
