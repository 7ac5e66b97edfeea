import { Page } from '../../../components/ui/page';
import { useI18n } from '../../../lib/i18n';

export function ProfilePage() {
  const { t } = useI18n();
  return (
    <Page
      meta={{ title: t('meta.profile.title'), description: t('meta.profile.description') }}
      title={t('profile.title')}
      lead={t('profile.placeholder')}
    />
  );
}
