import { useState } from 'react';
import type { ImportedFrom } from '@mirror/contract';
import { getErrorMessage } from '../../../lib/api-client';
import { formatNumber } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { saveBlob } from '../../../lib/save-blob';
import { notify } from '../../../lib/toast';
import { downloadVersionArchive } from '../api/site-api';

const FORMATS = [
  { format: 'warc', extension: 'warc.gz', label: 'site.versions.downloadWarc' },
  { format: 'wacz', extension: 'wacz', label: 'site.versions.downloadWacz' },
] as const;

/**
 * A version as a web archive (issue 35): the responses as the site answered them, for replay tools
 * such as ReplayWeb.page (docs/archives.md).
 */
export function ArchiveDownloads({
  siteId,
  versionId,
  number,
}: {
  siteId: string;
  versionId: string;
  number: number;
}) {
  const { t } = useI18n();
  const [busy, setBusy] = useState<string | null>(null);

  const handleDownload = async (format: 'warc' | 'wacz', extension: string) => {
    setBusy(format);
    try {
      saveBlob(
        await downloadVersionArchive(siteId, versionId, format),
        `site-${siteId}-v${number}.${extension}`,
      );
    } catch (error) {
      notify.error(getErrorMessage(error, t('site.versions.downloadFailed')));
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      {FORMATS.map(({ format, extension, label }) => (
        <button
          key={format}
          type="button"
          className="button button-outline"
          disabled={busy !== null}
          aria-label={t('site.versions.downloadLabel', {
            number,
            format: format.toUpperCase(),
          })}
          onClick={() => void handleDownload(format, extension)}
        >
          {busy === format ? t('site.versions.downloading') : t(label)}
        </button>
      ))}
    </>
  );
}

/** "Imported from {name} (WACZ, written by …, n responses)": where an imported copy came from. */
export function ImportedFromLine({ origin }: { origin: ImportedFrom }) {
  const { t, locale } = useI18n();
  const values = {
    name: origin.name,
    format: origin.format.toUpperCase(),
    count: formatNumber(locale, origin.responses),
    software: origin.software ?? '',
  };
  return (
    <p className="version-imported" data-testid="imported-from">
      {origin.software
        ? t('site.versions.importedFrom', values)
        : t('site.versions.importedFromUnknown', values)}
    </p>
  );
}
