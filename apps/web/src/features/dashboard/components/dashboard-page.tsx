import { Page } from '../../../components/ui/page';
import { useI18n } from '../../../lib/i18n';

export function DashboardPage() {
  const { t } = useI18n();
  return (
    <Page
      meta={{ title: t('meta.dashboard.title'), description: t('meta.dashboard.description') }}
      title={t('dashboard.title')}
      lead={t('dashboard.placeholder')}
    />
  );
}
