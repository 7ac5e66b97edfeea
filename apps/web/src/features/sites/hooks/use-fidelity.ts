import { useCallback, useEffect, useRef, useState } from 'react';
import type { FidelityReportResponse, FidelityState, FidelitySummary } from '@mirror/contract';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { checkFidelity, getFidelity } from '../api/site-api';

/** A check under way is asked about every 3 s… */
export const FIDELITY_POLL_MS = 3_000;
/** …for 3 minutes at most; then the page stops asking (the report stays as it was last seen). */
export const FIDELITY_POLL_LIMIT_MS = 180_000;

/** Queued or running: the report will still change. */
export function isFidelityActive(state: FidelityState | undefined | null): boolean {
  return state === 'queued' || state === 'running';
}

export type FidelityLoad =
  | { state: 'loading' }
  /** The live version has not been checked (404), or there is no live version. */
  | { state: 'none' }
  | { state: 'error'; message: string }
  | { state: 'ready'; report: FidelityReportResponse };

type Answer = { key: string } & Exclude<FidelityLoad, { state: 'loading' }>;

export interface UseFidelityOptions {
  /** The site record's summary says a check is queued or running: watch it even before it shows. */
  active?: boolean;
  /** A check this page watched has completed or failed. */
  onChecked?: (report: FidelityReportResponse) => void;
}

/**
 * The live version's fidelity report, fetched again whenever another version goes live. A check
 * under way (found on load, or started here) is polled every {@link FIDELITY_POLL_MS} until it
 * completes or fails, for {@link FIDELITY_POLL_LIMIT_MS} at most.
 */
export function useFidelity(
  siteId: string,
  liveVersionId: string | null,
  { active = false, onChecked }: UseFidelityOptions = {},
) {
  const key = `${siteId}:${liveVersionId ?? ''}`;
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [watching, setWatching] = useState(false);
  /** The paths of a re-capture being asked for (`[]`: the whole sample). */
  const [requesting, setRequesting] = useState<string[] | null>(null);
  const cancelWatch = useRef<(() => void) | null>(null);
  const activeRef = useRef(active);
  const onCheckedRef = useRef(onChecked);
  useEffect(() => {
    activeRef.current = active;
    onCheckedRef.current = onChecked;
  });

  const stopWatching = useCallback(() => {
    cancelWatch.current?.();
    cancelWatch.current = null;
  }, []);

  const watch = useCallback(
    (watchKey: string) => {
      cancelWatch.current?.();
      const controller = new AbortController();
      let stopped = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let polls = 0;
      const stop = () => {
        stopped = true;
        clearTimeout(timer);
        controller.abort();
        setWatching(false);
      };
      const tick = async () => {
        polls += 1;
        try {
          const report = await getFidelity(siteId, controller.signal);
          if (stopped) return;
          setAnswer({ key: watchKey, state: 'ready', report });
          if (!isFidelityActive(report.state)) {
            stop();
            onCheckedRef.current?.(report);
            return;
          }
        } catch (error) {
          if (stopped) return;
          // Not recorded yet: a check the site record announces may still appear.
          if (!(error instanceof ApiError && error.status === 404)) {
            stop();
            return;
          }
        }
        if (polls * FIDELITY_POLL_MS >= FIDELITY_POLL_LIMIT_MS) stop();
        else timer = setTimeout(() => void tick(), FIDELITY_POLL_MS);
      };
      cancelWatch.current = stop;
      setWatching(true);
      timer = setTimeout(() => void tick(), FIDELITY_POLL_MS);
    },
    [siteId],
  );

  useEffect(() => {
    if (liveVersionId === null) return;
    const controller = new AbortController();
    getFidelity(siteId, controller.signal)
      .then((report) => {
        setAnswer({ key, state: 'ready', report });
        if (isFidelityActive(report.state)) watch(key);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 404) {
          setAnswer({ key, state: 'none' });
          if (activeRef.current) watch(key);
        } else {
          setAnswer({
            key,
            state: 'error',
            message: getErrorMessage(error, 'Failed to fetch the fidelity report'),
          });
        }
      });
    return () => {
      controller.abort();
      stopWatching();
    };
  }, [siteId, liveVersionId, key, watch, stopWatching]);

  // The site record learnt of a check (a mirror run just finished) after the report was read.
  const settledAnswer = answer?.key === key ? answer : null;
  const reportActive =
    settledAnswer?.state === 'ready' && isFidelityActive(settledAnswer.report.state);
  useEffect(() => {
    if (active && settledAnswer && !reportActive && !cancelWatch.current) watch(key);
  }, [active, settledAnswer, reportActive, key, watch]);

  /** Asks for a new check (of `paths` only, re-captured first); throws what the server said. */
  const check = useCallback(
    async (paths?: string[]) => {
      setRequesting(paths ?? []);
      try {
        const report = await checkFidelity(siteId, paths);
        setAnswer({ key, state: 'ready', report });
        watch(key);
      } finally {
        setRequesting(null);
      }
    },
    [siteId, key, watch],
  );

  const load: FidelityLoad =
    liveVersionId === null ? { state: 'none' } : (settledAnswer ?? { state: 'loading' });
  const report = load.state === 'ready' ? load.report : null;
  const summary: FidelitySummary | null = report
    ? { state: report.state, score: report.score, pagesChecked: report.pagesChecked }
    : null;

  return { load, report, summary, watching, requesting, check };
}
