import { Suspense, useId, useRef, useState, type FormEvent } from 'react';
import { withAutoPrefix } from '@mirror/contract';
import { Spinner } from '../../../components/ui/spinner';
import { useAuth, isPaidUser } from '../../../lib/auth-context';
import { useDialogs } from '../../../lib/dialogs';
import { lazyScreen, useI18n } from '../../../lib/i18n';
import { useAutoPrefix } from '../hooks/use-auto-prefix';
import { useMirrorRun, type MirrorRequest } from '../hooks/use-mirror-run';
import { useSavedDemo } from '../hooks/use-saved-demo';
import { checkSourceUrl } from '../utils/validate-url';

// The panel and its styles load with the first mirror run, keeping them out of the landing bundle.
const PreviewPanel = lazyScreen(() => import('./preview-panel'), 'PreviewPanel');

export function UrlForm() {
  const { t } = useI18n();
  const { isLoggedIn, user } = useAuth();
  const { openDialog } = useDialogs();
  const [url, setUrl] = useState('');
  const [touched, setTouched] = useState(false);
  const [targetSubdomain, setTargetSubdomain] = useState('');
  const [aiInstructions, setAiInstructions] = useState('');
  const subdomainId = useId();
  const instructionsId = useId();
  const showPaidFields = isLoggedIn && isPaidUser(user);
  const run = useMirrorRun();
  /** The last request sent, for "Try again". */
  const lastRequest = useRef<MirrorRequest | null>(null);

  useAutoPrefix(url, setUrl);
  useSavedDemo(run, !isLoggedIn);

  const check = checkSourceUrl(url);
  const error = touched && !check.ok ? t(check.errorKey) : null;

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (run.busy) return;
    setTouched(true);
    run.validating();
    const result = checkSourceUrl(url);
    if (!result.ok) {
      run.cancelValidation();
      setUrl(withAutoPrefix(url));
      document.getElementById('hero-url')?.focus();
      return;
    }
    setUrl(result.url);
    const request = showPaidFields
      ? { sourceUrl: result.url, targetDomain: targetSubdomain, aiInstructions }
      : { sourceUrl: result.url };
    lastRequest.current = request;
    void run.start(request, { isGuest: !isLoggedIn });
  };

  /** The same address once more, after a failure another try may cure. */
  const handleTryAgain = () => {
    const request = lastRequest.current;
    if (!request || run.busy) return handleNewAddress();
    void run.start(request, { isGuest: !isLoggedIn });
  };

  /** The address stays, to be corrected: a retry of it as it is would fail the same way. */
  const handleNewAddress = () => {
    run.reset();
    setTouched(false);
    const input = document.getElementById('hero-url');
    input?.focus();
    if (input instanceof HTMLInputElement) input.select();
  };

  return (
    <>
      <form className="hero-form" noValidate onSubmit={handleSubmit}>
        <label className="field-label" htmlFor="hero-url">
          {t('hero.url.label')}
        </label>
        <div className="hero-input-row">
          <div className="hero-input-wrap" dir="ltr">
            <svg
              className="hero-input-icon"
              viewBox="0 0 24 24"
              width="20"
              height="20"
              aria-hidden="true"
            >
              <path
                d="M10 14a4 4 0 005.7 0l3-3a4 4 0 00-5.7-5.7l-1 1M14 10a4 4 0 00-5.7 0l-3 3a4 4 0 005.7 5.7l1-1"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
              />
            </svg>
            <input
              id="hero-url"
              name="sourceUrl"
              type="url"
              inputMode="url"
              autoComplete="url"
              spellCheck={false}
              className="input hero-input"
              placeholder={t('hero.url.placeholder')}
              value={url}
              required
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'hero-url-error' : 'hero-url-hint'}
              onChange={(event) => setUrl(event.target.value)}
              onBlur={() => setTouched(true)}
            />
          </div>
          <button
            type="submit"
            className="button button-primary button-lg"
            disabled={run.busy}
            aria-disabled={run.busy || undefined}
          >
            {run.busy && <Spinner />}
            {isLoggedIn ? t('hero.url.submitSignedIn') : t('hero.url.submitGuest')}
          </button>
        </div>
        {error ? (
          <p id="hero-url-error" className="field-error">
            {error}
          </p>
        ) : (
          <p id="hero-url-hint" className="field-hint">
            {isLoggedIn ? t('hero.url.hint') : t('hero.url.guestNote')}
          </p>
        )}
        <p
          className={
            run.message && !run.message.inPanel
              ? `hero-mirror-message tone-${run.message.tone}`
              : 'visually-hidden'
          }
          role="status"
          data-testid="mirror-message"
        >
          {run.message?.text}
        </p>
        {showPaidFields && (
          <div className="hero-paid-fields">
            <div className="field">
              <label className="field-label" htmlFor={subdomainId}>
                {t('hero.url.subdomainLabel')}
              </label>
              <input
                id={subdomainId}
                name="targetSubdomain"
                className="input"
                dir="ltr"
                placeholder={t('hero.url.subdomainPlaceholder')}
                value={targetSubdomain}
                aria-describedby={`${subdomainId}-hint`}
                onChange={(event) => setTargetSubdomain(event.target.value)}
              />
              <p id={`${subdomainId}-hint`} className="field-hint">
                {t('hero.url.subdomainHint')}
              </p>
            </div>
            <div className="field">
              <label className="field-label" htmlFor={instructionsId}>
                {t('hero.url.instructionsLabel')}
              </label>
              <textarea
                id={instructionsId}
                name="aiInstructions"
                className="input textarea"
                rows={3}
                placeholder={t('hero.url.instructionsPlaceholder')}
                value={aiInstructions}
                onChange={(event) => setAiInstructions(event.target.value)}
              />
            </div>
          </div>
        )}
        {!isLoggedIn && (
          <div className="hero-guest-actions">
            <span>{t('common.or')}</span>
            <button
              type="button"
              className="button button-outline"
              onClick={() => openDialog('login')}
            >
              {t('nav.login')}
            </button>
            <button
              type="button"
              className="button button-outline"
              onClick={() => openDialog('register')}
            >
              {t('nav.signup')}
            </button>
          </div>
        )}
      </form>
      {run.clone && (
        <Suspense fallback={null}>
          <PreviewPanel
            clone={run.clone}
            isLoggedIn={isLoggedIn}
            onRegister={() => openDialog('register', { demoId: run.clone?.id })}
            onTryAgain={handleTryAgain}
            onNewAddress={handleNewAddress}
          />
        </Suspense>
      )}
    </>
  );
}
