import { useId, useState } from 'react';
import { Link } from 'react-router';
import { getPlan, SYNC_SCHEDULES, type CloneRecord, type SyncSchedule } from '@mirror/contract';
import { Panel } from '../../../components/ui/panel';
import { paths } from '../../../config/paths';
import { getErrorMessage } from '../../../lib/api-client';
import { isPaidUser, useAuth } from '../../../lib/auth-context';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { updateSite } from '../../../api/sites';

/**
 * Automatic re-mirroring: paid plans only (SPEC §1), hourly on Agency only (issue 33); the free plan
 * sees why and how to upgrade.
 */
export function SyncSchedulePanel({
  site,
  onSaved,
}: {
  site: CloneRecord;
  onSaved: (record: CloneRecord) => void;
}) {
  const { t } = useI18n();
  const { user } = useAuth();
  const selectId = useId();
  const [saving, setSaving] = useState(false);
  const allowed = isPaidUser(user);
  const hourly = user ? getPlan(user.plan).limits.hourlySync : false;

  const handleChange = async (syncSchedule: SyncSchedule) => {
    setSaving(true);
    try {
      onSaved(await updateSite(site.id, { syncSchedule }));
      notify.success(t('site.sync.saved'));
    } catch (error) {
      notify.error(getErrorMessage(error, t('site.sync.failed')));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Panel title={t('site.sync.title')} description={t('site.sync.description')}>
      <div className="field">
        <label className="field-label" htmlFor={selectId}>
          {t('site.sync.label')}
        </label>
        <select
          id={selectId}
          className="input select"
          value={site.syncSchedule}
          disabled={!allowed || saving}
          aria-describedby={allowed ? undefined : `${selectId}-hint`}
          onChange={(event) => void handleChange(event.target.value as SyncSchedule)}
        >
          {SYNC_SCHEDULES.map((schedule) => {
            // Hourly is Agency's: other plans see it, named with the plan, and cannot pick it.
            const agencyOnly = schedule === 'hourly' && !hourly;
            return (
              <option
                key={schedule}
                value={schedule}
                disabled={agencyOnly && site.syncSchedule !== 'hourly'}
              >
                {t(`site.sync.options.${agencyOnly ? 'hourlyAgency' : schedule}`)}
              </option>
            );
          })}
        </select>
        {!allowed && (
          <p id={`${selectId}-hint`} className="field-hint">
            {t('site.sync.upgrade')}{' '}
            <Link to={paths.billing.getHref()}>{t('site.sync.upgradeLink')}</Link>
          </p>
        )}
      </div>
    </Panel>
  );
}
