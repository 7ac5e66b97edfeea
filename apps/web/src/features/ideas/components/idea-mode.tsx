import { Suspense, useId, useRef, useState, type FormEvent } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { useAuth } from '../../../lib/auth-context';
import { useDialogs } from '../../../lib/dialogs';
import { lazyScreen, useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { useIdeaSearch } from '../hooks/use-idea-search';

// The grid, its cards and the rewrite review load with the first results, outside the landing bundle.
const IdeaResults = lazyScreen(() => import('./idea-results'), 'IdeaResults');

/** The hero's idea mode (SPEC §2): describe an idea, get reference websites, pick and rewrite one. */
export function IdeaMode() {
  const { t } = useI18n();
  const { isLoggedIn } = useAuth();
  const { openDialog } = useDialogs();
  const [idea, setIdea] = useState('');
  const [touched, setTouched] = useState(false);
  const ideaId = useId();
  const errorId = `${ideaId}-error`;
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const search = useIdeaSearch();
  const isSearching = search.phase === 'searching';

  if (!isLoggedIn) {
    return (
      <div className="hero-login-prompt">
        <p>{t('hero.idea.loginPrompt')}</p>
        <button
          type="button"
          className="button button-primary button-lg"
          onClick={() => openDialog('login')}
        >
          {t('hero.idea.loginButton')}
        </button>
      </div>
    );
  }

  const error = touched && idea.trim() === '' ? t('hero.idea.required') : null;

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    const text = idea.trim();
    if (text === '' || isSearching) {
      textareaRef.current?.focus();
      return;
    }
    const failure = await search.search(text);
    if (failure) notify.error(t('ideas.searchFailed', { error: failure }));
  };

  const handleNewSearch = () => {
    search.reset();
    setTouched(false);
    window.scrollTo({ top: 0, behavior: 'smooth' });
    textareaRef.current?.focus({ preventScroll: true });
  };

  return (
    <>
      <form className="hero-form" noValidate onSubmit={(event) => void handleSubmit(event)}>
        <label className="field-label" htmlFor={ideaId}>
          {t('hero.idea.label')}
        </label>
        <textarea
          ref={textareaRef}
          id={ideaId}
          name="idea"
          className="input textarea"
          rows={3}
          required
          placeholder={t('hero.idea.placeholder')}
          value={idea}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => setIdea(event.target.value)}
          onBlur={() => setTouched(true)}
        />
        {error && (
          <p id={errorId} className="field-error">
            {error}
          </p>
        )}
        <button
          type="submit"
          className="button button-primary button-lg hero-idea-submit"
          disabled={isSearching}
          aria-busy={isSearching || undefined}
        >
          {isSearching && <Spinner />}
          {isSearching ? t('hero.idea.searching') : t('hero.idea.submit')}
        </button>
        {search.phase === 'failed' && (
          <p className="alert alert-error idea-search-error" role="alert">
            {t('ideas.searchFailed', { error: search.error ?? '' })}
          </p>
        )}
      </form>
      {search.phase === 'done' && (
        <Suspense fallback={null}>
          <IdeaResults
            idea={search.idea}
            references={search.references}
            onUpdate={search.updateReference}
            onNewSearch={handleNewSearch}
          />
        </Suspense>
      )}
    </>
  );
}
