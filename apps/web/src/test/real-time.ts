import { act } from '@testing-library/react';

// Captured before any test fakes the timers: waiting for real network I/O needs the real clock.
const realSetTimeout = globalThis.setTimeout;
const realNow = Date.now;

/**
 * Lets real I/O (the local test server) and React updates happen until `condition` holds, without
 * moving fake timers. Throws after `timeoutMs` of real time.
 */
export async function waitForReal(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = realNow() + timeoutMs;
  for (;;) {
    let done = false;
    await act(async () => {
      await new Promise((resolve) => realSetTimeout(resolve, 5));
      done = condition();
    });
    if (done) return;
    if (realNow() > deadline) throw new Error('waitForReal: condition not met in time');
  }
}

/** Real time passes with nothing expected to happen (to check that nothing does). */
export async function idleReal(ms = 60): Promise<void> {
  await act(async () => {
    await new Promise((resolve) => realSetTimeout(resolve, ms));
  });
}
