import { useEffect } from 'react';
import { Page } from '../../../components/ui/page';
import { PageLoader } from '../../../components/ui/page-loader';
import { Panel } from '../../../components/ui/panel';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { useFreshUser } from '../../../lib/use-fresh-user';
import { readLocalSettings } from '../utils/local-settings';
import { DeleteAccount } from './delete-account';
import { SettingsForm } from './settings-form';

export function SettingsPage() {
  const { t } = useI18n();
  const { user, status } = useFreshUser();

  useEffect(() => {
    if (status === 'error') notify.error(t('settings.toasts.loadFailed'));
  }, [status, t]);

  return (
    <Page
      className="account-page"
      meta={{ title: t('meta.settings.title'), description: t('meta.settings.description') }}
      title={t('settings.title')}
      lead={t('settings.lead')}
    >
      {status === 'error' && (
        <div className="alert alert-error" role="alert">
          {t('settings.toasts.loadFailed')}
        </div>
      )}
      {status === 'loading' ? (
        <PageLoader />
      ) : (
        <SettingsForm key={user?.id} initial={user?.settings ?? readLocalSettings()} />
      )}
      <Panel title={t('settings.apiKeys.title')} description={t('settings.apiKeys.description')}>
        <div className="panel-actions">
          <button
            type="button"
            className="button button-outline"
            onClick={() => notify.info(t('settings.apiKeys.comingSoon'))}
          >
            {t('settings.apiKeys.manage')}
          </button>
          <span className="badge">{t('common.comingSoon')}</span>
        </div>
      </Panel>
      <DeleteAccount />
    </Page>
  );
}
