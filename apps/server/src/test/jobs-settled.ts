import { waitFor, type TestApp } from './test-app.js';

/**
 * Waits until no job is due or running: the sweep a deletion or a pruning queued finishes before the
 * test app closes (a job still running then would meet a closed database).
 */
export async function jobsSettled(t: TestApp, timeoutMs = 120_000): Promise<void> {
  await waitFor(async () => {
    const counts = await t.app.jobs.counts();
    return counts.waiting + counts.active === 0 ? true : undefined;
  }, timeoutMs).catch(() => undefined); // a cleanup: the test's own assertions already ran
}
