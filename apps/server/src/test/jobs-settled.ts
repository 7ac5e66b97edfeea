import { waitFor, type TestApp } from './test-app.js';

/**
 * Waits until no job is due or running, and fails when that takes longer than `timeoutMs`. A run's
 * site reads "completed" before its job ends: the job still prunes old versions and queues the
 * sweep, so a test that counts versions after a run waits for this first.
 */
export async function jobsIdle(t: TestApp, timeoutMs = 120_000): Promise<void> {
  await waitFor(async () => {
    const counts = await t.app.jobs.counts();
    return counts.waiting + counts.active === 0 ? true : undefined;
  }, timeoutMs);
}

/**
 * The cleanup form of `jobsIdle`: the sweep a deletion or a pruning queued finishes before the test
 * app closes (a job still running then would meet a closed database).
 */
export async function jobsSettled(t: TestApp, timeoutMs = 120_000): Promise<void> {
  await jobsIdle(t, timeoutMs).catch(() => undefined); // the test's own assertions already ran
}
