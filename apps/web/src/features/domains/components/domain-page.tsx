import { useParams } from 'react-router';
import { Page } from '../../../components/ui/page';
import { useI18n } from '../../../lib/i18n';

export function DomainPage() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  return (
    <Page
      meta={{ title: t('meta.domain.title', { id }), description: t('meta.domain.description') }}
      title={t('domain.title', { id })}
      lead={t('domain.placeholder')}
    />
  );
}
