import { useState } from 'react';
import { getErrorMessage } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { downloadExport } from '../api/site-api';
import { saveBlob } from '../../../lib/save-blob';

/**
 * Downloads the static files of the live version as `site-{id}.zip`: one of the site's main
 * actions, at the top of its page (issue 31).
 */
export function ExportButton({ siteId, available }: { siteId: string; available: boolean }) {
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);

  const handleDownload = async () => {
    setBusy(true);
    try {
      saveBlob(await downloadExport(siteId), `site-${siteId}.zip`);
    } catch (error) {
      notify.error(getErrorMessage(error, t('site.export.failed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <button
      type="button"
      className="button button-outline"
      disabled={!available || busy}
      title={t('site.export.description')}
      onClick={() => void handleDownload()}
    >
      {busy ? t('site.export.downloading') : t('site.export.download')}
    </button>
  );
}
