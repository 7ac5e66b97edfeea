import { useId, useState, type FormEvent } from 'react';
import { notify } from '../../../lib/toast';
import { Spinner } from '../../../components/ui/spinner';
import { useAuth } from '../../../lib/auth-context';
import { useDialogs } from '../../../lib/dialogs';
import { useI18n } from '../../../lib/i18n';

export function IdeaForm() {
  const { t } = useI18n();
  const { isLoggedIn } = useAuth();
  const { openDialog } = useDialogs();
  const [idea, setIdea] = useState('');
  const [touched, setTouched] = useState(false);
  // Becomes true while the idea search call runs; the call arrives with the idea-search issue.
  const [isSearching] = useState(false);
  const ideaId = useId();
  const errorId = `${ideaId}-error`;

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

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (idea.trim() === '') return;
    notify.info(t('toasts.ideaComing'));
  };

  return (
    <form className="hero-form" noValidate onSubmit={handleSubmit}>
      <label className="field-label" htmlFor={ideaId}>
        {t('hero.idea.label')}
      </label>
      <textarea
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
    </form>
  );
}
