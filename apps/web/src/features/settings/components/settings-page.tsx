import { Page } from '../../../components/ui/page';
import { useI18n } from '../../../lib/i18n';

export function SettingsPage() {
  const { t } = useI18n();
  return (
    <Page
      meta={{ title: t('meta.settings.title'), description: t('meta.settings.description') }}
      title={t('settings.title')}
      lead={t('settings.placeholder')}
    />
  );
}
