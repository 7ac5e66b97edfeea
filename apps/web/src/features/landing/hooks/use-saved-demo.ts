import { useEffect, useRef } from 'react';
import { fetchCloneStatus } from '../../../api/sites';
import { ApiError } from '../../../lib/api-client';
import { forgetDemoSiteId, readDemoSiteIds } from '../utils/demo-sites';
import type { MirrorRun } from './use-mirror-run';

/** Saved demos asked about at most, newest first: the list is short-lived and small anyway. */
const LOOK_BACK = 5;

/**
 * A visitor's finished demo stays on the landing page after a reload (issue 31, item 10): once,
 * when the page opens, the newest saved demo that is still there and did not fail is shown again,
 * from the saved demo list. Demos that failed or are gone leave the list.
 */
export function useSavedDemo(run: Pick<MirrorRun, 'phase' | 'resume'>, isGuest: boolean) {
  const asked = useRef(false);
  const latest = useRef(run);
  useEffect(() => {
    latest.current = run;
  });

  useEffect(() => {
    if (!isGuest || asked.current) return;
    asked.current = true;
    const ids = readDemoSiteIds().slice(-LOOK_BACK).reverse();
    if (ids.length === 0) return;
    const controller = new AbortController();
    void (async () => {
      // The visitor started a run meanwhile: theirs wins, and the look-back stops.
      const overtaken = () => controller.signal.aborted || latest.current.phase !== 'idle';
      for (const id of ids) {
        try {
          const status = await fetchCloneStatus(id, controller.signal);
          if (overtaken()) return;
          if (status.status === 'failed') {
            forgetDemoSiteId(id);
            continue;
          }
          latest.current.resume(status);
          return;
        } catch (error) {
          if (overtaken()) return;
          if (error instanceof ApiError && error.status === 404) forgetDemoSiteId(id);
          else return;
        }
      }
    })();
    return () => controller.abort();
  }, [isGuest]);
}
