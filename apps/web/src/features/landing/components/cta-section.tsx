import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { useAuth } from '../../../lib/auth-context';
import { useDialogs } from '../../../lib/dialogs';
import { useI18n } from '../../../lib/i18n';

export function CtaSection() {
  const { t } = useI18n();
  const { isLoggedIn } = useAuth();
  const { openDialog } = useDialogs();
  const navigate = useNavigate();

  const handleClick = () => {
    if (isLoggedIn) void navigate(paths.dashboard.getHref());
    else openDialog('register');
  };

  return (
    <section className="section" aria-labelledby="cta-title">
      <div className="container">
        <div className="cta">
          <h2 id="cta-title" className="cta-title">
            {t('cta.title')}
          </h2>
          <p className="cta-body">{t('cta.body')}</p>
          <button type="button" className="button button-light button-lg" onClick={handleClick}>
            {isLoggedIn ? t('cta.buttonSignedIn') : t('cta.buttonGuest')}
          </button>
        </div>
      </div>
    </section>
  );
}
