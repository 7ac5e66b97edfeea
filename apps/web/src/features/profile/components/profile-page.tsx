import { useEffect } from 'react';
import { Page } from '../../../components/ui/page';
import { PageLoader } from '../../../components/ui/page-loader';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { useFreshUser } from '../../../lib/use-fresh-user';
import { ProfileForm } from './profile-form';

export function ProfilePage() {
  const { t } = useI18n();
  const { user, status } = useFreshUser();

  useEffect(() => {
    if (status === 'error') notify.error(t('profile.loadFailed'));
  }, [status, t]);

  return (
    <Page
      className="account-page"
      meta={{ title: t('meta.profile.title'), description: t('meta.profile.description') }}
      title={t('profile.title')}
      lead={t('profile.lead')}
    >
      {status === 'error' && (
        <div className="alert alert-error" role="alert">
          {t('profile.loadFailed')}
        </div>
      )}
      {status === 'loading' && <PageLoader />}
      {status !== 'loading' && user && <ProfileForm key={user.id} user={user} />}
    </Page>
  );
}
