import { useCallback, useState } from 'react';
import type { CloneStatusResponse } from '@mirror/contract';
import { useClonePolling } from '../../../hooks/use-clone-polling';
import { getErrorMessage } from '../../../lib/api-client';
import { discardVersion, getVersions, publishVersion } from '../../../api/sites';
import { findDraft, type SiteVersionDetail } from '../../../lib/site-versions';
import { rewriteWithAi, type RewriteRequest } from '../api/rewrite-with-ai';

/**
 * Idea flow from AI rewriting (SPEC §4) to rewrite complete or failed; the draft review before it
 * goes live is ours (issue 6): publish or discard.
 */
export type RewritePhase =
  | 'idle'
  | 'starting'
  | 'rewriting'
  | 'review'
  | 'publishing'
  | 'discarding'
  | 'published'
  | 'discarded'
  | 'failed';

export interface RewriteRun {
  phase: RewritePhase;
  /** The site the rewrite runs on, from the clone-with-ai answer. */
  siteId: string | null;
  /** Where the site is served once the draft is published. */
  previewUrl: string | null;
  /** The latest status answer while rewriting. */
  status: CloneStatusResponse | null;
  draft: SiteVersionDetail | null;
  error: string | null;
  /** True while something runs: the panel and the grid's rewrite buttons wait. */
  busy: boolean;
  start: (request: RewriteRequest) => Promise<void>;
  publish: () => Promise<void>;
  discard: () => Promise<void>;
  /** Back to the form after a discard or a failure. */
  reset: () => void;
}

const FALLBACK = 'AI rewriting failed';

export function useRewriteRun(callbacks: {
  onFailed?: (message: string) => void;
  onPublished?: () => void;
  onDiscarded?: () => void;
}): RewriteRun {
  const [phase, setPhase] = useState<RewritePhase>('idle');
  const [siteId, setSiteId] = useState<string | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [draft, setDraft] = useState<SiteVersionDetail | null>(null);
  const [error, setError] = useState<string | null>(null);

  const fail = (message: string) => {
    setError(message);
    setPhase('failed');
    callbacks.onFailed?.(message);
  };

  const loadDraft = async (id: string) => {
    try {
      const found = findDraft(await getVersions(id)) ?? null;
      setDraft(found);
      // A server that publishes the rewrite at once leaves nothing to review.
      setPhase(found ? 'review' : 'published');
    } catch (failure) {
      fail(getErrorMessage(failure, FALLBACK));
    }
  };

  const polling = useClonePolling({
    onSettled: (status) => {
      if (status.previewUrl) setPreviewUrl(status.previewUrl);
      if (status.status === 'completed') void loadDraft(status.id);
      else fail(status.error || FALLBACK);
    },
    onError: (message) => fail(message),
  });
  const { start: startPolling } = polling;

  const start = async (request: RewriteRequest) => {
    setPhase('starting');
    setError(null);
    setDraft(null);
    try {
      const started = await rewriteWithAi(request);
      setSiteId(started.id);
      setPreviewUrl(started.previewUrl);
      setPhase('rewriting');
      startPolling(started.id);
    } catch (failure) {
      fail(getErrorMessage(failure, FALLBACK));
    }
  };

  const publish = async () => {
    if (!siteId || !draft) return;
    setPhase('publishing');
    try {
      const record = await publishVersion(siteId, draft.id);
      if (record.previewUrl) setPreviewUrl(record.previewUrl);
      setPhase('published');
      callbacks.onPublished?.();
    } catch (failure) {
      setPhase('review');
      setError(getErrorMessage(failure, 'Deployment failed'));
    }
  };

  const discard = async () => {
    if (!siteId || !draft) return;
    setPhase('discarding');
    try {
      await discardVersion(siteId, draft.id);
      setDraft(null);
      setPhase('discarded');
      callbacks.onDiscarded?.();
    } catch (failure) {
      setPhase('review');
      setError(getErrorMessage(failure, 'Failed to delete domain'));
    }
  };

  const reset = useCallback(() => {
    setPhase('idle');
    setError(null);
    setDraft(null);
  }, []);

  const status = polling.id !== null && polling.id === siteId ? polling.status : null;
  const busy =
    phase === 'starting' ||
    phase === 'rewriting' ||
    phase === 'review' ||
    phase === 'publishing' ||
    phase === 'discarding';

  return {
    phase,
    siteId,
    previewUrl,
    status,
    draft,
    error,
    busy,
    start,
    publish,
    discard,
    reset,
  };
}
