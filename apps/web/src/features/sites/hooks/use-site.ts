import { useCallback, useEffect, useState } from 'react';
import type { CloneRecord, CloneStatusResponse } from '@mirror/contract';
import { useClonePolling } from '../../../hooks/use-clone-polling';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { isRunningStatus } from '../../../lib/clone-status';
import type { SiteVersionDetail } from '../../../lib/site-versions';
import { getSite, getVersions } from '../api/site-api';

export type SiteLoad =
  | { state: 'loading' }
  | { state: 'not-found' }
  | { state: 'error'; message: string }
  | { state: 'ready' };

export interface UseSiteOptions {
  /** A run watched on this page completed or failed. */
  onRunSettled?: (status: CloneStatusResponse) => void;
}

/**
 * One site with its versions. A running mirror is watched with the shared polling hook; when it
 * settles, the site and its versions are fetched again.
 */
export function useSite(id: string, { onRunSettled }: UseSiteOptions = {}) {
  const [load, setLoad] = useState<SiteLoad>({ state: 'loading' });
  const [record, setRecord] = useState<CloneRecord | null>(null);
  const [versions, setVersions] = useState<SiteVersionDetail[] | null>(null);
  const [versionsError, setVersionsError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  const refreshVersions = useCallback(async () => {
    try {
      setVersions(await getVersions(id));
      setVersionsError(null);
    } catch (error) {
      setVersionsError(getErrorMessage(error, 'Failed to fetch domains'));
    }
  }, [id]);

  const refreshSite = useCallback(async () => {
    try {
      setRecord(await getSite(id));
    } catch (error) {
      console.error('Could not refresh the site', error);
    }
  }, [id]);

  const polling = useClonePolling({
    // Each answer is merged into the stored record (SPEC §7).
    onStatus: (status) =>
      setRecord((current) => (current?.id === status.id ? { ...current, ...status } : current)),
    onSettled: (status) => {
      onRunSettled?.(status);
      void refreshSite();
      void refreshVersions();
    },
  });
  const { start: startPolling } = polling;

  useEffect(() => {
    const controller = new AbortController();
    getSite(id, controller.signal)
      .then((site) => {
        setRecord(site);
        setLoad({ state: 'ready' });
        if (isRunningStatus(site.status)) startPolling(site.id);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 404) setLoad({ state: 'not-found' });
        else setLoad({ state: 'error', message: getErrorMessage(error, 'Failed to load') });
      });
    getVersions(id, controller.signal)
      .then((list) => {
        setVersions(list);
        setVersionsError(null);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setVersionsError(getErrorMessage(error, 'Failed to fetch domains'));
      });
    return () => controller.abort();
  }, [id, attempt, startPolling]);

  const retry = useCallback(() => {
    setLoad({ state: 'loading' });
    setAttempt((n) => n + 1);
  }, []);

  /** Replaces the record after an action answered with it; a new run starts being watched. */
  const applyRecord = useCallback(
    (next: CloneRecord) => {
      setRecord(next);
      if (isRunningStatus(next.status)) startPolling(next.id);
    },
    [startPolling],
  );

  /** Merges a status answer (a customization started) and watches the run it reports. */
  const applyStatus = useCallback(
    (status: CloneStatusResponse) => {
      setRecord((current) => (current?.id === status.id ? { ...current, ...status } : current));
      if (isRunningStatus(status.status)) startPolling(status.id);
    },
    [startPolling],
  );

  return {
    load,
    site: record,
    versions,
    versionsError,
    pollError: polling.id === record?.id ? polling.error : null,
    retry,
    applyRecord,
    applyStatus,
    refreshSite,
    refreshVersions,
  };
}
