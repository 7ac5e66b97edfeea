import { useCallback, useEffect, useRef, useState } from 'react';
import {
  CLONE_STATUS_POLL_MS,
  DEMO_SAVED_TOAST_MS,
  type CloneRecord,
  type CloneRequestBody,
  type CloneStatusResponse,
} from '@mirror/contract';
import { useClonePolling } from '../../../hooks/use-clone-polling';
import { getErrorMessage } from '../../../lib/api-client';
import { fetchCloneStatus } from '../../../api/sites';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { createClone } from '../../../api/sites';
import { forgetDemoSiteId, saveDemoSiteId } from '../utils/demo-sites';

/**
 * The fidelity check runs after the mirror completes (issue 21): the status is asked again every
 * 3 s while its `fidelity` is not settled yet, for 5 minutes at most (a demo's check of 3 pages
 * may take 2½ minutes after waiting for its turn).
 */
export const FIDELITY_FOLLOW_LIMIT_MS = 300_000;

/**
 * What the preview panel shows of a run: its status answer, and whether it is a visitor's demo (a
 * run resumed after a reload has only its status).
 */
export type RunClone = CloneStatusResponse & Partial<Pick<CloneRecord, 'isDemo'>>;

/** No check yet (null, or a server that does not report one), or one queued or running. */
function fidelityPending(status: CloneStatusResponse): boolean {
  const state = status.fidelity?.state;
  return state === undefined || state === 'queued' || state === 'running';
}

/** validating → starting (the clone call) → watching (status polling), or start-failed. */
export type MirrorPhase = 'idle' | 'validating' | 'starting' | 'watching' | 'start-failed';

export interface MirrorMessage {
  text: string;
  tone: 'progress' | 'success' | 'error';
  /**
   * The preview panel shows this already (its status label, line and failure): the hero only
   * announces it to screen readers, so that nothing is said twice on screen (issue 31, item 7).
   */
  inPanel?: boolean;
}

export interface MirrorRequest {
  sourceUrl: string;
  /** Sent only for signed-in paid users (SPEC §5); blank values are left out. */
  targetDomain?: string;
  aiInstructions?: string;
}

export interface MirrorRun {
  phase: MirrorPhase;
  /** The clone record with the latest status answer merged in (SPEC §7). */
  clone: RunClone | null;
  message: MirrorMessage | null;
  /** True from the click until the run is completed or failed. */
  busy: boolean;
  validating: () => void;
  cancelValidation: () => void;
  start: (request: MirrorRequest, options: { isGuest: boolean }) => Promise<void>;
  /**
   * Shows a visitor's demo again after a reload, from its status (issue 31, item 10): a running
   * one is watched on, a completed one's fidelity check followed.
   */
  resume: (status: CloneStatusResponse) => void;
  reset: () => void;
}

/** The hero's mirror run (SPEC §4): the clone call, then status polling until it settles. */
export function useMirrorRun(): MirrorRun {
  const { t } = useI18n();
  const [phase, setPhase] = useState<MirrorPhase>('idle');
  const [record, setRecord] = useState<RunClone | null>(null);
  /** The run being watched is a visitor's demo (its id is kept for the sign-up's claim). */
  const guestRun = useRef(false);
  const [startError, setStartError] = useState<string | null>(null);
  /** The latest status asked for after completion, for the fidelity check's outcome. */
  const [followed, setFollowed] = useState<CloneStatusResponse | null>(null);
  const cancelFollow = useRef<(() => void) | null>(null);

  const stopFollowing = useCallback(() => {
    cancelFollow.current?.();
    cancelFollow.current = null;
  }, []);

  /** Asks for the status of a completed mirror until its fidelity check is done (or 2 min). */
  const followFidelity = useCallback(
    (id: string) => {
      stopFollowing();
      const controller = new AbortController();
      let stopped = false;
      let polls = 0;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stop = () => {
        stopped = true;
        clearTimeout(timer);
        controller.abort();
      };
      const request = async () => {
        polls += 1;
        try {
          const status = await fetchCloneStatus(id, controller.signal);
          if (stopped) return;
          setFollowed(status);
          if (!fidelityPending(status)) return stop();
        } catch {
          // The mirror is done and shown: a missing score is no reason to alarm anyone.
          return stop();
        }
        if (polls * CLONE_STATUS_POLL_MS >= FIDELITY_FOLLOW_LIMIT_MS) stop();
        else timer = setTimeout(() => void request(), CLONE_STATUS_POLL_MS);
      };
      cancelFollow.current = stop;
      timer = setTimeout(() => void request(), CLONE_STATUS_POLL_MS);
    },
    [stopFollowing],
  );
  useEffect(() => () => cancelFollow.current?.(), []);

  // Each outcome is said once (issue 31, item 7): a demo is "saved" only once it is worth keeping,
  // and a failed one is forgotten, so it is neither celebrated nor claimed.
  const polling = useClonePolling({
    onSettled: (status: CloneStatusResponse) => {
      if (status.status === 'completed') {
        if (guestRun.current)
          notify.success(t('mirror.messages.demoSaved'), { autoClose: DEMO_SAVED_TOAST_MS });
        else notify.success(t('toasts.mirrorCreated'));
        if (fidelityPending(status)) followFidelity(status.id);
      } else {
        if (guestRun.current) forgetDemoSiteId(status.id);
        notify.error(t('toasts.mirrorFailed'));
      }
    },
    onError: (message) => notify.error(t('mirror.messages.pollError', { error: message })),
  });
  const { start: startPolling, stop: stopPolling } = polling;

  const start = useCallback(
    async (request: MirrorRequest, { isGuest }: { isGuest: boolean }) => {
      stopPolling();
      stopFollowing();
      setFollowed(null);
      setRecord(null);
      setStartError(null);
      setPhase('starting');
      guestRun.current = isGuest;
      const body: CloneRequestBody = { sourceUrl: request.sourceUrl, isDemo: isGuest };
      if (!isGuest && request.targetDomain?.trim()) body.targetDomain = request.targetDomain.trim();
      if (!isGuest && request.aiInstructions?.trim())
        body.aiInstructions = request.aiInstructions.trim();
      try {
        const created = await createClone(body);
        setRecord(created);
        setPhase('watching');
        // Kept at once, so that a sign-up while it runs claims it too.
        if (isGuest) saveDemoSiteId(created.id);
        startPolling(created.id);
      } catch (error) {
        setStartError(getErrorMessage(error, t('mirror.messages.creationFailed')));
        setPhase('start-failed');
        notify.error(t('toasts.mirrorFailed'));
      }
    },
    [t, startPolling, stopPolling, stopFollowing],
  );

  const resume = useCallback(
    (status: CloneStatusResponse) => {
      stopPolling();
      stopFollowing();
      setFollowed(null);
      setStartError(null);
      guestRun.current = true;
      setRecord({ ...status, isDemo: true });
      setPhase('watching');
      if (status.status === 'completed') {
        if (fidelityPending(status)) followFidelity(status.id);
      } else if (status.status !== 'failed') startPolling(status.id);
    },
    [stopPolling, stopFollowing, followFidelity, startPolling],
  );

  const reset = useCallback(() => {
    stopPolling();
    stopFollowing();
    setFollowed(null);
    setRecord(null);
    setStartError(null);
    setPhase('idle');
  }, [stopPolling, stopFollowing]);

  const validating = useCallback(() => setPhase('validating'), []);
  const cancelValidation = useCallback(
    () => setPhase((current) => (current === 'validating' ? 'idle' : current)),
    [],
  );

  const latest = polling.id !== null && polling.id === record?.id ? polling.status : null;
  const after = followed && followed.id === record?.id ? followed : null;
  const clone = record ? { ...record, ...latest, ...after } : null;

  let message: MirrorMessage | null = null;
  if (phase === 'validating') message = { text: t('mirror.progress.validating'), tone: 'progress' };
  else if (phase === 'starting')
    message = { text: t('mirror.progress.starting'), tone: 'progress' };
  else if (phase === 'start-failed')
    message = { text: t('mirror.messages.failed', { error: startError ?? '' }), tone: 'error' };
  else if (phase === 'watching' && clone) {
    if (polling.error && polling.id === clone.id) {
      message = { text: t('mirror.messages.pollError', { error: polling.error }), tone: 'error' };
    } else if (clone.status === 'completed') {
      message = {
        text: t('mirror.messages.completed', { url: clone.previewUrl ?? '' }),
        tone: 'success',
        inPanel: true,
      };
    } else if (clone.status === 'failed') {
      // The preview panel says why, once, with the details behind a toggle (issue 20).
      message = { text: t('mirror.progress.failed'), tone: 'error', inPanel: true };
    } else if (clone.status === 'completing') {
      message = { text: t('mirror.progress.finalizing'), tone: 'progress', inPanel: true };
    } else if (clone.status === 'processing') {
      message = { text: t('mirror.progress.processing'), tone: 'progress', inPanel: true };
    } else {
      message = { text: t('mirror.progress.cloning'), tone: 'progress', inPanel: true };
    }
  }

  const busy =
    phase === 'validating' ||
    phase === 'starting' ||
    (phase === 'watching' && polling.isPolling && !polling.error);

  return { phase, clone, message, busy, validating, cancelValidation, start, resume, reset };
}
