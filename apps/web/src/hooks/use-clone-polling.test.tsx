import { act, renderHook } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CLONE_STATUS_POLL_MS,
  CLONE_STATUS_PRE_REQUEST_WAIT_MS,
  type CloneStatusResponse,
} from '@mirror/contract';
import { makeStatus } from '../test/fixtures';
import { idleReal, waitForReal } from '../test/real-time';
import { startTestServer, type Reply, type TestServer } from '../test/test-server';
import { useClonePolling } from './use-clone-polling';

let server: TestServer;
/** The answers of the status calls, in order; the last one repeats. */
let answers: Reply[] = [];

beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(() => server.close());
beforeEach(() => {
  vi.useFakeTimers();
  server.requests.length = 0;
  let served = 0;
  server.setRoutes({
    'GET /domains/clone/site-1/status': () => answers[Math.min(served++, answers.length - 1)]!,
    'GET /domains/clone/site-2/status': { body: makeStatus('processing', { id: 'site-2' }) },
  });
});
afterEach(() => {
  vi.useRealTimers();
});

const statusCalls = () => server.requests.filter((r) => r.path.endsWith('/status'));
const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

function setup() {
  const onStatus = vi.fn<(status: CloneStatusResponse) => void>();
  const onSettled = vi.fn<(status: CloneStatusResponse) => void>();
  const onError = vi.fn<(message: string) => void>();
  const hook = renderHook(() => useClonePolling({ onStatus, onSettled, onError }));
  return { ...hook, onStatus, onSettled, onError };
}

describe('clone status polling (SPEC §4)', () => {
  it('waits 200 ms before each request and polls every 3000 ms until completed', async () => {
    answers = [
      { body: makeStatus('processing') },
      { body: makeStatus('completing') },
      { body: makeStatus('completed') },
    ];
    const { result, onStatus, onSettled } = setup();
    act(() => result.current.start('site-1'));
    expect(result.current).toMatchObject({ id: 'site-1', isPolling: true, status: null });

    advance(CLONE_STATUS_PRE_REQUEST_WAIT_MS - 1);
    await idleReal();
    expect(statusCalls()).toHaveLength(0);
    advance(1);
    await waitForReal(() => result.current.status !== null);
    expect(statusCalls()).toHaveLength(1);
    expect(result.current.status?.status).toBe('processing');

    // The next poll is 3000 ms after the first one, its request 200 ms later: at 3200 ms (we are
    // at 200 ms now).
    advance(CLONE_STATUS_POLL_MS - 1);
    await idleReal();
    expect(statusCalls()).toHaveLength(1);
    advance(1);
    await waitForReal(() => result.current.status?.status === 'completing');
    expect(statusCalls()).toHaveLength(2);

    advance(CLONE_STATUS_POLL_MS);
    await waitForReal(() => result.current.status?.status === 'completed');
    expect(statusCalls()).toHaveLength(3);
    expect(result.current.isPolling).toBe(false);
    expect(onStatus.mock.calls.map(([s]) => s.status)).toEqual([
      'processing',
      'completing',
      'completed',
    ]);
    expect(onSettled).toHaveBeenCalledTimes(1);

    // Completed stops the polling for good.
    advance(CLONE_STATUS_POLL_MS * 5);
    await idleReal();
    expect(statusCalls()).toHaveLength(3);
    expect(statusCalls()[0]).toMatchObject({
      method: 'GET',
      path: '/domains/clone/site-1/status',
    });
  });

  it('stops on failed and keeps the error of the run', async () => {
    answers = [{ body: makeStatus('failed', { error: 'The source answered 500.' }) }];
    const { result, onSettled, onError } = setup();
    act(() => result.current.start('site-1'));
    advance(CLONE_STATUS_PRE_REQUEST_WAIT_MS);
    await waitForReal(() => result.current.status !== null);
    expect(result.current.status).toMatchObject({
      status: 'failed',
      error: 'The source answered 500.',
    });
    expect(result.current.isPolling).toBe(false);
    expect(result.current.error).toBeNull();
    expect(onSettled).toHaveBeenCalledWith(expect.objectContaining({ status: 'failed' }));
    expect(onError).not.toHaveBeenCalled();
    advance(CLONE_STATUS_POLL_MS * 3);
    await idleReal();
    expect(statusCalls()).toHaveLength(1);
  });

  it('stops when a status request fails and reports its message', async () => {
    answers = [
      { body: makeStatus('processing') },
      { status: 500, body: { message: 'Database unavailable' } },
      { body: makeStatus('completed') },
    ];
    const { result, onError, onSettled } = setup();
    act(() => result.current.start('site-1'));
    advance(CLONE_STATUS_PRE_REQUEST_WAIT_MS);
    await waitForReal(() => result.current.status !== null);
    advance(CLONE_STATUS_POLL_MS);
    await waitForReal(() => result.current.error !== null);
    expect(result.current.error).toBe('Database unavailable');
    expect(result.current.isPolling).toBe(false);
    // The last good answer stays for the screen.
    expect(result.current.status?.status).toBe('processing');
    expect(onError).toHaveBeenCalledWith('Database unavailable');
    advance(CLONE_STATUS_POLL_MS * 3);
    await idleReal();
    expect(statusCalls()).toHaveLength(2);
    expect(onSettled).not.toHaveBeenCalled();
  });

  it('keeps polling through pending and processing answers', async () => {
    answers = [{ body: makeStatus('pending') }, { body: makeStatus('processing') }];
    const { result } = setup();
    act(() => result.current.start('site-1'));
    for (let n = 1; n <= 4; n += 1) {
      advance(n === 1 ? CLONE_STATUS_PRE_REQUEST_WAIT_MS : CLONE_STATUS_POLL_MS);
      await waitForReal(() => statusCalls().length === n && result.current.status !== null);
    }
    expect(result.current.isPolling).toBe(true);
  });

  it('stop, a new start and unmounting cancel the run being watched', async () => {
    answers = [{ body: makeStatus('processing') }];
    const { result, unmount } = setup();
    act(() => result.current.start('site-1'));
    advance(100);
    act(() => result.current.stop());
    expect(result.current.isPolling).toBe(false);
    advance(CLONE_STATUS_POLL_MS * 2);
    await idleReal();
    expect(statusCalls()).toHaveLength(0);

    act(() => result.current.start('site-1'));
    advance(100);
    act(() => result.current.start('site-2'));
    advance(CLONE_STATUS_PRE_REQUEST_WAIT_MS);
    await waitForReal(() => result.current.status !== null);
    expect(statusCalls().map((r) => r.path)).toEqual(['/domains/clone/site-2/status']);
    expect(result.current.status?.id).toBe('site-2');

    unmount();
    advance(CLONE_STATUS_POLL_MS * 3);
    await idleReal();
    expect(statusCalls()).toHaveLength(1);
  });
});
