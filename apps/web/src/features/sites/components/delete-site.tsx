import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { CloneRecord } from '@mirror/contract';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { paths } from '../../../config/paths';
import { getErrorMessage } from '../../../lib/api-client';
import { siteNameOf } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { useLoading } from '../../../lib/loading';
import { notify } from '../../../lib/toast';
import { deleteSite } from '../../../api/sites';

/**
 * One of the site's main actions, at the top of its page (issue 31). Deleting asks once;
 * confirming deletes and goes back to the dashboard.
 */
export function DeleteSite({ site }: { site: CloneRecord }) {
  const { t } = useI18n();
  const { withLoading } = useLoading();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);

  const handleDelete = async () => {
    setConfirming(false);
    try {
      await withLoading(deleteSite(site.id));
      notify.success(t('site.danger.deleted'));
      void navigate(paths.dashboard.getHref());
    } catch (error) {
      buttonRef.current?.focus();
      notify.error(getErrorMessage(error, t('site.danger.failed')));
    }
  };

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className="button button-outline-danger"
        title={t('site.danger.description')}
        onClick={() => setConfirming(true)}
      >
        {t('site.danger.delete')}
      </button>
      {confirming && (
        <ConfirmDialog
          danger
          title={t('site.danger.confirmTitle')}
          message={t('site.danger.confirmMessage', { url: siteNameOf(site).name })}
          confirmLabel={t('site.danger.confirm')}
          cancelLabel={t('site.danger.keep')}
          onConfirm={() => void handleDelete()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </>
  );
}
