import { useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { getPlan } from '@mirror/contract';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { getErrorMessage } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth-context';
import { useDialogs } from '../../../lib/dialogs';
import { formatBytes, formatPercent } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { hostArchive } from '../api/host-archive';
import './host-archive.css';

type Phase = { step: 'idle' } | { step: 'uploading'; fraction: number } | { step: 'reading' };

/**
 * The hero's "Host an archive" mode (issue 35): a WACZ or WARC someone captured (Browsertrix,
 * ArchiveWeb.page, wget --warc-file) becomes a copy like any mirror. The upload shows its
 * progress; the server's verdict on a bad file is shown as it says it.
 */
export function HostArchive() {
  const { t, locale } = useI18n();
  const { isLoggedIn, user } = useAuth();
  const { openDialog } = useDialogs();
  const navigate = useNavigate();
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState('');
  const [phase, setPhase] = useState<Phase>({ step: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const fileId = useId();
  const urlId = useId();
  const busy = phase.step !== 'idle';

  if (!isLoggedIn) {
    return (
      <div className="hero-login-prompt">
        <p>{t('hero.archive.loginPrompt')}</p>
        <button
          type="button"
          className="button button-primary button-lg"
          onClick={() => openDialog('login')}
        >
          {t('hero.archive.loginButton')}
        </button>
      </div>
    );
  }

  const limit = formatBytes(locale, getPlan(user?.plan ?? 'free').limits.archiveUploadBytes);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!file) {
      setError(t('hero.archive.required'));
      fileRef.current?.focus();
      return;
    }
    setError(null);
    setPhase({ step: 'uploading', fraction: 0 });
    try {
      const answer = await hostArchive(file, {
        url: url.trim() || undefined,
        onProgress: (fraction) =>
          setPhase(fraction >= 1 ? { step: 'reading' } : { step: 'uploading', fraction }),
      });
      void navigate(paths.site.getHref(answer.site.id));
    } catch (failure) {
      setError(getErrorMessage(failure, t('hero.archive.failed')));
      setPhase({ step: 'idle' });
    }
  };

  return (
    <form
      className="hero-form host-archive"
      noValidate
      onSubmit={(event) => void handleSubmit(event)}
    >
      <label className="field-label" htmlFor={fileId}>
        {t('hero.archive.label')}
      </label>
      <input
        ref={fileRef}
        id={fileId}
        name="file"
        type="file"
        className="input host-archive-file"
        accept=".wacz,.warc,.gz"
        disabled={busy}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${fileId}-hint`}
        onChange={(event) => {
          setFile(event.target.files?.[0] ?? null);
          setError(null);
        }}
      />
      <p id={`${fileId}-hint`} className="field-hint">
        {t('hero.archive.hint', { limit })}
      </p>
      <label className="field-label" htmlFor={urlId}>
        {t('hero.archive.urlLabel')}
      </label>
      <input
        id={urlId}
        name="url"
        type="url"
        className="input"
        placeholder="https://example.com/"
        value={url}
        disabled={busy}
        aria-describedby={`${urlId}-hint`}
        onChange={(event) => setUrl(event.target.value)}
      />
      <p id={`${urlId}-hint`} className="field-hint">
        {t('hero.archive.urlHint')}
      </p>
      {phase.step === 'uploading' && (
        <div className="host-archive-progress">
          <progress max={1} value={phase.fraction} aria-label={t('hero.archive.progressLabel')} />
          <span>
            {t('hero.archive.uploading', { percent: formatPercent(locale, phase.fraction * 100) })}
          </span>
        </div>
      )}
      {phase.step === 'reading' && (
        <p className="host-archive-progress" role="status">
          <Spinner /> {t('hero.archive.reading')}
        </p>
      )}
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      <button
        type="submit"
        className="button button-primary button-lg"
        disabled={busy}
        aria-busy={busy || undefined}
      >
        {busy && <Spinner />}
        {t('hero.archive.submit')}
      </button>
    </form>
  );
}
