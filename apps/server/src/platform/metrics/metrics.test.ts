import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createBullmqJobQueue } from '../jobs/bullmq-job-queue.js';
import { defineJob } from '../jobs/job.js';
import { createMetrics } from './metrics.js';

const context = {
  jobId: 'j1',
  attempt: 1,
  signal: new AbortController().signal,
  log: pino({ level: 'silent' }),
};

describe('metrics', () => {
  it('records job runs by outcome and mirrored pages and bytes', async () => {
    const metrics = createMetrics('worker');
    let fail = false;
    const job = metrics.instrumentJob(
      defineJob({
        name: 'mirror-site',
        payload: z.object({}),
        maxAttempts: 1,
        backoffMs: 0,
        async handle() {
          if (fail) throw new Error('origin down');
        },
      }),
    );
    await job.handle({}, context);
    fail = true;
    await expect(job.handle({}, context)).rejects.toThrow('origin down');
    metrics.mirrored({ pages: 12, bytes: 3456 });
    const { body } = await metrics.render();
    const count = (outcome: string) =>
      body
        .split('\n')
        .find(
          (l) =>
            l.startsWith('mirror_job_duration_seconds_count{') &&
            l.includes(`outcome="${outcome}"`),
        )
        ?.split(' ')
        .pop();
    expect(count('completed')).toBe('1');
    expect(count('failed')).toBe('1');
    expect(body).toMatch(/^mirror_pages_mirrored_total\{role="worker"\} 12$/m);
    expect(body).toMatch(/^mirror_bytes_mirrored_total\{role="worker"\} 3456$/m);
  });

  it('still serves the other metrics, in time, while Redis cannot be reached', async () => {
    const metrics = createMetrics('worker');
    // A real BullMQ queue on a port nobody listens on: its commands wait for a reconnect.
    const queue = createBullmqJobQueue({
      redisUrl: 'redis://127.0.0.1:1',
      log: pino({ level: 'silent' }),
      concurrency: 1,
    });
    metrics.watchJobs(queue);
    metrics.watchSitesRequests(() => 7);
    const started = Date.now();
    const { body } = await metrics.render();
    expect(body).toMatch(/^mirror_sites_requests_total\{role="worker"\} 7$/m);
    expect(body).not.toMatch(/^mirror_jobs\{/m);
    expect(Date.now() - started).toBeLessThan(3_000);
    void queue.close().catch(() => undefined);
  });
});
