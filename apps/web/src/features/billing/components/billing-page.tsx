import { Page } from '../../../components/ui/page';
import { useI18n } from '../../../lib/i18n';

export function BillingPage() {
  const { t } = useI18n();
  return (
    <Page
      meta={{ title: t('meta.billing.title'), description: t('meta.billing.description') }}
      title={t('billing.title')}
      lead={t('billing.placeholder')}
    />
  );
}
