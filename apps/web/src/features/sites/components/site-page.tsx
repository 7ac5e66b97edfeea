import { useParams } from 'react-router';
import { Page } from '../../../components/ui/page';
import { useI18n } from '../../../lib/i18n';

export function SitePage() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  return (
    <Page
      meta={{ title: t('meta.site.title', { id }), description: t('meta.site.description') }}
      title={t('site.title', { id })}
      lead={t('site.placeholder')}
    />
  );
}
