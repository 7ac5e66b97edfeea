import { useId, useState } from 'react';
import { isMirrorFailureKind, type MirrorFailureKind } from '@mirror/contract';
import { useI18n } from '../../lib/i18n';

export interface FailureMessageProps {
  /** The server's English sentence. */
  error: string | null;
  /** Why, as a category the app says in the reader's language (newer servers). */
  errorKind?: MirrorFailureKind | null;
  /** The technical text (address, error code, OpenSSL's words…), shown on request. */
  errorDetail?: string | null;
  /** Said when the server gave no reason at all. */
  fallback: string;
  className?: string;
}

/**
 * A failed run, said once and plainly (issue 20, item 3): the reason in the reader's words first,
 * and the technical detail only behind a "Details" toggle.
 */
export function FailureMessage({
  error,
  errorKind,
  errorDetail,
  fallback,
  className,
}: FailureMessageProps) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const detailId = useId();
  const plain = failureText(t, { error, errorKind }) || fallback;
  const detail = isMirrorFailureKind(errorKind) ? errorDetail : null;
  return (
    <div
      className={['alert alert-error failure-message', className].filter(Boolean).join(' ')}
      role="alert"
    >
      <p className="failure-text">{plain}</p>
      {detail && (
        <>
          <button
            type="button"
            className="failure-toggle"
            aria-expanded={open}
            aria-controls={detailId}
            onClick={() => setOpen((shown) => !shown)}
          >
            {t('mirror.failure.details')}
          </button>
          {open && (
            <pre id={detailId} className="failure-detail" dir="ltr">
              {detail}
            </pre>
          )}
        </>
      )}
    </div>
  );
}

/**
 * A failure in the reader's words: its category's sentence, else the server's own (an older
 * server's, or a category newer than this app).
 */
export function failureText(
  t: (key: string) => string,
  failure: { error: string | null; errorKind?: MirrorFailureKind | null },
): string {
  return isMirrorFailureKind(failure.errorKind)
    ? t(`mirror.failure.kinds.${failure.errorKind}`)
    : (failure.error ?? '');
}

/**
 * Failures that another try of the same address may cure (issue 31, item 7): a broken or slow
 * connection, a server error, a run that ran out of time or stopped. A wrong, missing, private or
 * refusing address, or a site that will not be copied, fails the same way again. A failure with
 * no category (an older server) may be anything: a retry is offered.
 */
const RETRY_MAY_HELP: ReadonlySet<MirrorFailureKind> = new Set<MirrorFailureKind>([
  'connection',
  'timeout',
  'http-server',
  'time-limit',
  'crashed',
  'server-storage',
  'unknown',
]);

export function retryMayHelp(errorKind: MirrorFailureKind | null | undefined): boolean {
  return !isMirrorFailureKind(errorKind) || RETRY_MAY_HELP.has(errorKind);
}
