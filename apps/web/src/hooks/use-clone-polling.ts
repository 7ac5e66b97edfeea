import { useCallback, useEffect, useRef, useState } from 'react';
import {
  CLONE_STATUS_POLL_MS,
  CLONE_STATUS_PRE_REQUEST_WAIT_MS,
  type CloneStatusResponse,
} from '@mirror/contract';
import { getErrorMessage } from '../lib/api-client';
import { fetchCloneStatus } from '../api/sites';
import { isSettledStatus } from '../lib/clone-status';

export interface ClonePollingState {
  /** The site being watched; null before the first start. */
  id: string | null;
  /** The latest status answer; null until the first one arrives. */
  status: CloneStatusResponse | null;
  /** The message of the request that failed and stopped the polling. */
  error: string | null;
  isPolling: boolean;
}

export interface ClonePollingCallbacks {
  /** Every status answer, settled or not. */
  onStatus?: (status: CloneStatusResponse) => void;
  /** `completed` or `failed`: polling has stopped. */
  onSettled?: (status: CloneStatusResponse) => void;
  /** A status request failed: polling has stopped. */
  onError?: (message: string) => void;
}

export interface ClonePolling extends ClonePollingState {
  /** Starts watching `id`, replacing any run being watched. */
  start: (id: string) => void;
  stop: () => void;
}

const IDLE: ClonePollingState = { id: null, status: null, error: null, isPolling: false };

/**
 * Watches a clone run (SPEC §4): a poll every {@link CLONE_STATUS_POLL_MS} (3000 ms), the first one
 * at once, and each status request made {@link CLONE_STATUS_PRE_REQUEST_WAIT_MS} (200 ms) after its
 * poll — requests go out at 200, 3200, 6200 ms... after `start`. A poll never overlaps a request
 * still in flight. `completed` and `failed` stop the polling, so does a failed request (its message
 * lands in `error`). Unmounting or `stop` cancels the timers and the request in flight.
 */
export function useClonePolling(callbacks: ClonePollingCallbacks = {}): ClonePolling {
  const [state, setState] = useState<ClonePollingState>(IDLE);
  const cancelRun = useRef<(() => void) | null>(null);
  const latestCallbacks = useRef(callbacks);
  useEffect(() => {
    latestCallbacks.current = callbacks;
  });

  const stop = useCallback(() => {
    cancelRun.current?.();
    cancelRun.current = null;
    setState((current) => (current.isPolling ? { ...current, isPolling: false } : current));
  }, []);

  const start = useCallback((id: string) => {
    cancelRun.current?.();
    const controller = new AbortController();
    let stopped = false;
    let inFlight = false;
    let pollTimer: ReturnType<typeof setTimeout> | undefined;
    let waitTimer: ReturnType<typeof setTimeout> | undefined;

    const cancel = () => {
      stopped = true;
      clearTimeout(pollTimer);
      clearTimeout(waitTimer);
      controller.abort();
    };

    const request = async () => {
      inFlight = true;
      try {
        const status = await fetchCloneStatus(id, controller.signal);
        if (stopped) return;
        const settled = isSettledStatus(status.status);
        if (settled) cancel();
        setState({ id, status, error: null, isPolling: !settled });
        latestCallbacks.current.onStatus?.(status);
        if (settled) latestCallbacks.current.onSettled?.(status);
      } catch (error) {
        if (stopped) return;
        cancel();
        const message = getErrorMessage(error, 'Failed to get clone status');
        setState((current) => ({ ...current, id, error: message, isPolling: false }));
        latestCallbacks.current.onError?.(message);
      } finally {
        inFlight = false;
      }
    };

    const poll = () => {
      if (stopped) return;
      pollTimer = setTimeout(poll, CLONE_STATUS_POLL_MS);
      if (inFlight) return;
      waitTimer = setTimeout(() => void request(), CLONE_STATUS_PRE_REQUEST_WAIT_MS);
    };

    cancelRun.current = cancel;
    setState({ id, status: null, error: null, isPolling: true });
    poll();
  }, []);

  useEffect(() => () => cancelRun.current?.(), []);

  return { ...state, start, stop };
}
