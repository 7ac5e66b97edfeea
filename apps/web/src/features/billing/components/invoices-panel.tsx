import { useEffect, useState } from 'react';
import { PAYMENT_MESSAGES, type Invoice } from '@mirror/contract';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { getErrorMessage } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { downloadInvoice, formatCents, getInvoices } from '../../../lib/payments';
import { notify } from '../../../lib/toast';
import { formatUnixDate } from '../utils/format-billing';
import { saveBlob } from '../../../lib/save-blob';

type Load =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'ready'; invoices: Invoice[] };

const KNOWN_STATUSES = new Set(['draft', 'open', 'paid', 'uncollectible', 'void']);

/** Invoice history with a PDF per invoice, saved as `invoice-{id}.pdf` (SPEC §7). */
export function InvoicesPanel() {
  const { t, locale } = useI18n();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [downloading, setDownloading] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    getInvoices(controller.signal)
      .then((invoices) => setLoad({ state: 'ready', invoices }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setLoad({
          state: 'error',
          message: getErrorMessage(error, PAYMENT_MESSAGES.fetchInvoicesFailed),
        });
      });
    return () => controller.abort();
  }, []);

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
      {load.state === 'loading' && <p className="panel-description">{t('common.loading')}</p>}
      {load.state === 'error' && (
        <p className="alert alert-error" role="alert">
          {load.message}
        </p>
      )}
      {load.state === 'ready' && load.invoices.length === 0 && (
        <p className="panel-description">{t('billing.invoices.empty')}</p>
      )}
      {load.state === 'ready' && load.invoices.length > 0 && (
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
              {load.invoices.map((invoice) => {
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
