import { useId, useState } from 'react';
import { Link } from 'react-router';
import { WWW_REDIRECTS, type CustomDomain, type WwwRedirect } from '@mirror/contract';
import { Panel } from '../../../components/ui/panel';
import { paths } from '../../../config/paths';
import { getErrorMessage } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { updateCustomDomain } from '../api/domain-api';

/** The site a custom domain serves and, for an apex domain, which of www and apex redirects. */
export function CustomDomainSettings({
  record,
  onSaved,
}: {
  record: CustomDomain;
  onSaved: (record: CustomDomain) => void;
}) {
  const { t } = useI18n();
  const selectId = useId();
  const [saving, setSaving] = useState(false);

  const handleRedirect = async (wwwRedirect: WwwRedirect) => {
    setSaving(true);
    try {
      onSaved(await updateCustomDomain(record.id, { wwwRedirect }));
      notify.success(t('domains.custom.saved'));
    } catch (error) {
      notify.error(getErrorMessage(error, t('domains.custom.failed')));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Panel title={t('domains.custom.title')} description={t('domains.custom.description')}>
      <p className="domain-note">
        <Link to={paths.site.getHref(record.siteId)}>{t('domains.custom.manageSite')}</Link>
      </p>
      {record.isApex && (
        <div className="field">
          <label className="field-label" htmlFor={selectId}>
            {t('domains.custom.wwwLabel')}
          </label>
          <select
            id={selectId}
            className="input select"
            value={record.wwwRedirect}
            disabled={saving}
            onChange={(event) => void handleRedirect(event.target.value as WwwRedirect)}
          >
            {WWW_REDIRECTS.map((option) => (
              <option key={option} value={option}>
                {t(`domains.custom.www.${option}`, {
                  apex: record.domain,
                  www: `www.${record.domain}`,
                })}
              </option>
            ))}
          </select>
        </div>
      )}
    </Panel>
  );
}
