import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import type { CloneRecord, CloneStatusResponse } from '@mirror/contract';
import { queryKeys } from '../../../api/query-keys';
import { getVersions } from '../../../api/sites';
import { useClonePolling } from '../../../hooks/use-clone-polling';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { isRunningStatus } from '../../../lib/clone-status';
import { getSite } from '../api/site-api';

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
 * One site with its versions. A running mirror is watched with the shared polling hook (its timing
 * is the SPEC's, so it is not a query); when it settles, the site and its versions are fetched
 * again. A refresh that fails keeps what is on screen.
 */
export function useSite(id: string, { onRunSettled }: UseSiteOptions = {}) {
  const queryClient = useQueryClient();
  const siteKey = queryKeys.sites.detail(id);
  const versionsKey = queryKeys.sites.versions(id);
  const siteQuery = useQuery({ queryKey: siteKey, queryFn: ({ signal }) => getSite(id, signal) });
  const versionsQuery = useQuery({
    queryKey: versionsKey,
    queryFn: ({ signal }) => getVersions(id, signal),
  });
  const record = siteQuery.data ?? null;

  const mergeStatus = useCallback(
    (status: CloneStatusResponse) =>
      queryClient.setQueryData<CloneRecord>(queryKeys.sites.detail(id), (current) =>
        current?.id === status.id ? { ...current, ...status } : current,
      ),
    [queryClient, id],
  );

  const refreshSite = useCallback(
    () => queryClient.invalidateQueries({ queryKey: queryKeys.sites.detail(id), exact: true }),
    [queryClient, id],
  );
  const refreshVersions = useCallback(
    () => queryClient.invalidateQueries({ queryKey: queryKeys.sites.versions(id) }),
    [queryClient, id],
  );

  const polling = useClonePolling({
    // Each answer is merged into the stored record (SPEC §7).
    onStatus: mergeStatus,
    onSettled: (status) => {
      onRunSettled?.(status);
      void refreshSite();
      void refreshVersions();
    },
  });
  const { start: startPolling } = polling;

  // A run found on load, or started by an action (a re-mirror, a customization), is watched.
  const runningId = record && isRunningStatus(record.status) ? record.id : null;
  useEffect(() => {
    if (runningId) startPolling(runningId);
  }, [runningId, startPolling]);

  const retry = useCallback(() => {
    void queryClient.resetQueries({ queryKey: queryKeys.sites.detail(id), exact: true });
    void queryClient.resetQueries({ queryKey: queryKeys.sites.versions(id) });
  }, [queryClient, id]);

  /** Replaces the record after an action answered with it; a new run starts being watched. */
  const applyRecord = useCallback(
    (next: CloneRecord) => queryClient.setQueryData(queryKeys.sites.detail(id), next),
    [queryClient, id],
  );

  const { error } = siteQuery;
  const load: SiteLoad = record
    ? { state: 'ready' }
    : siteQuery.isError
      ? error instanceof ApiError && error.status === 404
        ? { state: 'not-found' }
        : { state: 'error', message: getErrorMessage(error, 'Failed to load') }
      : { state: 'loading' };

  return {
    load,
    site: record,
    versions: versionsQuery.data ?? null,
    versionsError: versionsQuery.isError
      ? getErrorMessage(versionsQuery.error, 'Failed to fetch domains')
      : null,
    pollError: polling.id === record?.id ? polling.error : null,
    retry,
    applyRecord,
    /** Merges a status answer (a customization started); a run it reports is watched. */
    applyStatus: mergeStatus,
    refreshSite,
    refreshVersions,
  };
}
