import { useCallback, useState } from 'react';
import {
  DEMO_SAVED_TOAST_MS,
  type CloneRecord,
  type CloneRequestBody,
  type CloneStatusResponse,
} from '@mirror/contract';
import { useClonePolling } from '../../../hooks/use-clone-polling';
import { getErrorMessage } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { createClone } from '../api/create-clone';
import { saveDemoSiteId } from '../utils/demo-sites';

/** validating → starting (the clone call) → watching (status polling), or start-failed. */
export type MirrorPhase = 'idle' | 'validating' | 'starting' | 'watching' | 'start-failed';

export interface MirrorMessage {
  text: string;
  tone: 'progress' | 'success' | 'error';
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
  clone: CloneRecord | null;
  message: MirrorMessage | null;
  /** True from the click until the run is completed or failed. */
  busy: boolean;
  validating: () => void;
  cancelValidation: () => void;
  start: (request: MirrorRequest, options: { isGuest: boolean }) => Promise<void>;
  reset: () => void;
}

/** The hero's mirror run (SPEC §4): the clone call, then status polling until it settles. */
export function useMirrorRun(): MirrorRun {
  const { t } = useI18n();
  const [phase, setPhase] = useState<MirrorPhase>('idle');
  const [record, setRecord] = useState<CloneRecord | null>(null);
  const [startError, setStartError] = useState<string | null>(null);

  const polling = useClonePolling({
    onSettled: (status: CloneStatusResponse) => {
      if (status.status === 'completed') notify.success(t('toasts.mirrorCreated'));
      else notify.error(t('toasts.mirrorFailed'));
    },
    onError: (message) => notify.error(t('mirror.messages.pollError', { error: message })),
  });
  const { start: startPolling, stop: stopPolling } = polling;

  const start = useCallback(
    async (request: MirrorRequest, { isGuest }: { isGuest: boolean }) => {
      stopPolling();
      setRecord(null);
      setStartError(null);
      setPhase('starting');
      const body: CloneRequestBody = { sourceUrl: request.sourceUrl, isDemo: isGuest };
      if (!isGuest && request.targetDomain?.trim()) body.targetDomain = request.targetDomain.trim();
      if (!isGuest && request.aiInstructions?.trim())
        body.aiInstructions = request.aiInstructions.trim();
      try {
        const created = await createClone(body);
        setRecord(created);
        setPhase('watching');
        if (isGuest) {
          saveDemoSiteId(created.id);
          notify.success(t('mirror.messages.demoSaved'), { autoClose: DEMO_SAVED_TOAST_MS });
        }
        startPolling(created.id);
      } catch (error) {
        setStartError(getErrorMessage(error, t('mirror.messages.creationFailed')));
        setPhase('start-failed');
        notify.error(t('toasts.mirrorFailed'));
      }
    },
    [t, startPolling, stopPolling],
  );

  const reset = useCallback(() => {
    stopPolling();
    setRecord(null);
    setStartError(null);
    setPhase('idle');
  }, [stopPolling]);

  const validating = useCallback(() => setPhase('validating'), []);
  const cancelValidation = useCallback(
    () => setPhase((current) => (current === 'validating' ? 'idle' : current)),
    [],
  );

  const latest = polling.id !== null && polling.id === record?.id ? polling.status : null;
  const clone = record && latest ? { ...record, ...latest } : record;

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
      };
    } else if (clone.status === 'failed') {
      // The preview panel says why, once, with the details behind a toggle (issue 20).
      message = { text: t('mirror.progress.failed'), tone: 'error' };
    } else if (clone.status === 'completing') {
      message = { text: t('mirror.progress.finalizing'), tone: 'progress' };
    } else if (clone.status === 'processing') {
      message = { text: t('mirror.progress.processing'), tone: 'progress' };
    } else {
      message = { text: t('mirror.progress.cloning'), tone: 'progress' };
    }
  }

  const busy =
    phase === 'validating' ||
    phase === 'starting' ||
    (phase === 'watching' && polling.isPolling && !polling.error);

  return { phase, clone, message, busy, validating, cancelValidation, start, reset };
}
