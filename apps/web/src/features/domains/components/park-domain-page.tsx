import { Page } from '../../../components/ui/page';
import { useI18n } from '../../../lib/i18n';

export function ParkDomainPage() {
  const { t } = useI18n();
  return (
    <Page
      meta={{ title: t('meta.parkDomain.title'), description: t('meta.parkDomain.description') }}
      title={t('parkDomain.title')}
      lead={t('parkDomain.placeholder')}
    />
  );
}
