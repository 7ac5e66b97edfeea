import { Link } from 'react-router';
import { useDocumentMeta } from '../../lib/document-meta';
import { getLocaleInfo, useI18n } from '../../lib/i18n';

export function NotFoundRoute() {
  const { locale, t } = useI18n();
  useDocumentMeta({
    title: t('meta.notFound.title'),
    description: t('meta.notFound.description'),
  });
  return (
    <div className="page container not-found">
      <p className="not-found-code" aria-hidden="true">
        {t('notFound.code')}
      </p>
      <h1 className="page-title">{t('notFound.title')}</h1>
      <p className="page-lead">{t('notFound.body')}</p>
      <Link className="button button-primary" to={getLocaleInfo(locale).homePath}>
        {t('common.backToHome')}
      </Link>
    </div>
  );
}
