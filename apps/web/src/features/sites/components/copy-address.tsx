import { useId } from 'react';
import { useI18n } from '../../../lib/i18n';
import { copyWithToast } from '../../../lib/clipboard';

/** The subdomain address of the mirror with a copy button. */
export function CopyAddress({ url }: { url: string | null }) {
  const { t } = useI18n();
  const inputId = useId();
  if (!url) return <p className="site-muted">{t('site.address.notYet')}</p>;

  const handleCopy = () =>
    copyWithToast(url, { copied: t('site.address.copied'), failed: t('site.address.copyFailed') });

  return (
    <div className="copy-row">
      <label className="visually-hidden" htmlFor={inputId}>
        {t('site.address.title')}
      </label>
      <input
        id={inputId}
        className="input copy-input"
        value={url}
        readOnly
        dir="ltr"
        onFocus={(event) => event.currentTarget.select()}
      />
      <button type="button" className="button button-outline" onClick={() => void handleCopy()}>
        {t('site.address.copy')}
      </button>
    </div>
  );
}
