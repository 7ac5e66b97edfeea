import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PAYMENT_MESSAGES, type Invoice } from '@mirror/contract';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { getErrorMessage } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { downloadInvoice, getInvoices } from '../../../api/payments';
import { queryKeys } from '../../../api/query-keys';
import { formatCents } from '../../../lib/payments';
import { notify } from '../../../lib/toast';
import { formatUnixDate } from '../utils/format-billing';
import { saveBlob } from '../../../lib/save-blob';

const KNOWN_STATUSES = new Set(['draft', 'open', 'paid', 'uncollectible', 'void']);

/** Invoice history with a PDF per invoice, saved as `invoice-{id}.pdf` (SPEC §7). */
export function InvoicesPanel() {
  const { t, locale } = useI18n();
  const query = useQuery({
    queryKey: queryKeys.billing.invoices(),
    queryFn: ({ signal }) => getInvoices(signal),
  });
  const [downloading, setDownloading] = useState<string | null>(null);

  const handleDownload = async (invoice: Invoice) => {
    setDownloading(invoice.id);
    try {
      saveBlob(await downloadInvoice(invoice.id), `invoice-${invoice.id}.pdf`);
    } catch (error) {
      notify.error(getErrorMessage(error, PAYMENT_MESSAGES.downloadInvoiceFailed));
    } finally {
      setDownloading(null);
    }
  };

  return (
    <Panel title={t('billing.invoices.title')}>
      {query.isPending && <p className="panel-description">{t('common.loading')}</p>}
      {query.isError && (
        <p className="alert alert-error" role="alert">
          {getErrorMessage(query.error, PAYMENT_MESSAGES.fetchInvoicesFailed)}
        </p>
      )}
      {query.isSuccess && query.data.length === 0 && (
        <p className="panel-description">{t('billing.invoices.empty')}</p>
      )}
      {query.isSuccess && query.data.length > 0 && (
        <div className="billing-table-wrap">
          <table className="billing-table stack-table">
            <thead>
              <tr>
                <th scope="col">{t('billing.invoices.date')}</th>
                <th scope="col">{t('billing.invoices.number')}</th>
                <th scope="col">{t('billing.invoices.amount')}</th>
                <th scope="col">{t('billing.invoices.status')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('billing.invoices.pdf')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {query.data.map((invoice) => {
                const number = invoice.number ?? invoice.id;
                return (
                  <tr key={invoice.id} data-testid="invoice-row">
                    <td data-label={t('billing.invoices.date')}>
                      {formatUnixDate(locale, invoice.created)}
                    </td>
                    <td data-label={t('billing.invoices.number')}>
                      <span dir="ltr">{number}</span>
                    </td>
                    <td data-label={t('billing.invoices.amount')}>
                      <span dir="ltr">{formatCents(locale, invoice.total, invoice.currency)}</span>
                    </td>
                    <td data-label={t('billing.invoices.status')}>
                      <span className="badge" data-status={invoice.status}>
                        {KNOWN_STATUSES.has(invoice.status)
                          ? t(`billing.invoices.statuses.${invoice.status}`)
                          : invoice.status}
                      </span>
                    </td>
                    <td>
                      <button
                        type="button"
                        className="button button-ghost"
                        disabled={downloading !== null}
                        aria-label={t('billing.invoices.downloadLabel', { number })}
                        onClick={() => void handleDownload(invoice)}
                      >
                        {downloading === invoice.id && <Spinner />}
                        {t('billing.invoices.download')}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}
