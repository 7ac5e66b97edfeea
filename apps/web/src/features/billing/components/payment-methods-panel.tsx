import { useEffect, useState } from 'react';
import { PAYMENT_MESSAGES, type PaymentMethod } from '@mirror/contract';
import { CheckoutDialog, type PaymentSetup } from '../../../components/payments/checkout-dialog';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { getErrorMessage } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import {
  createPortalSession,
  getPaymentMethods,
  removePaymentMethod,
  setDefaultPaymentMethod,
} from '../../../lib/payments';
import { notify } from '../../../lib/toast';

type Load =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'ready'; methods: PaymentMethod[] };

/** `visa` → `Visa`; Stripe sends brands in lower case. */
const brandName = (brand: string) => brand.charAt(0).toUpperCase() + brand.slice(1);

/**
 * Saved cards (brand and last4 only), the default for invoices, adding and removing a card, and the
 * payment provider's billing portal.
 */
export function PaymentMethodsPanel({ setup }: { setup: PaymentSetup }) {
  const { t } = useI18n();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [busyId, setBusyId] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [openingPortal, setOpeningPortal] = useState(false);

  /** Bumped after a change, so the list is fetched again. */
  const [revision, setRevision] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    getPaymentMethods(controller.signal)
      .then((methods) => setLoad({ state: 'ready', methods }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setLoad({
          state: 'error',
          message: getErrorMessage(error, PAYMENT_MESSAGES.fetchMethodsFailed),
        });
      });
    return () => controller.abort();
  }, [revision]);

  const act = async (
    id: string,
    work: () => Promise<unknown>,
    success: string,
    fallback: string,
  ) => {
    setBusyId(id);
    try {
      await work();
      notify.success(success);
      setRevision((n) => n + 1);
    } catch (error) {
      notify.error(getErrorMessage(error, fallback));
    } finally {
      setBusyId(null);
    }
  };

  const handlePortal = async () => {
    setOpeningPortal(true);
    try {
      const { url } = await createPortalSession();
      window.location.assign(url);
    } catch (error) {
      notify.error(getErrorMessage(error, PAYMENT_MESSAGES.portalFailed));
      setOpeningPortal(false);
    }
  };

  const label = (method: PaymentMethod) =>
    t('billing.methods.card', { brand: brandName(method.brand), last4: method.last4 });

  return (
    <Panel title={t('billing.methods.title')} description={t('billing.methods.description')}>
      {load.state === 'loading' && <p className="panel-description">{t('common.loading')}</p>}
      {load.state === 'error' && (
        <p className="alert alert-error" role="alert">
          {load.message}
        </p>
      )}
      {load.state === 'ready' && load.methods.length === 0 && (
        <p className="panel-description">{t('billing.methods.empty')}</p>
      )}
      {load.state === 'ready' && load.methods.length > 0 && (
        <ul className="billing-methods">
          {load.methods.map((method) => (
            <li key={method.id} className="billing-method" data-testid="payment-method">
              <span className="billing-method-card">
                <span>{label(method)}</span>
                <span className="billing-method-expiry">
                  {t('billing.methods.expires', {
                    date: `${String(method.expMonth).padStart(2, '0')}/${String(method.expYear).slice(-2)}`,
                  })}
                </span>
                {method.isDefault && <span className="badge">{t('billing.methods.default')}</span>}
              </span>
              <span className="billing-method-actions">
                {!method.isDefault && (
                  <button
                    type="button"
                    className="button button-ghost"
                    disabled={busyId !== null}
                    aria-label={t('billing.methods.makeDefaultLabel', { card: label(method) })}
                    onClick={() =>
                      void act(
                        method.id,
                        () => setDefaultPaymentMethod(method.id),
                        t('billing.methods.defaultSet'),
                        PAYMENT_MESSAGES.setDefaultFailed,
                      )
                    }
                  >
                    {t('billing.methods.makeDefault')}
                  </button>
                )}
                <button
                  type="button"
                  className="button button-ghost"
                  disabled={busyId !== null}
                  aria-label={t('billing.methods.removeLabel', { card: label(method) })}
                  onClick={() =>
                    void act(
                      method.id,
                      () => removePaymentMethod(method.id),
                      t('billing.methods.removed'),
                      PAYMENT_MESSAGES.removeMethodFailed,
                    )
                  }
                >
                  {busyId === method.id && <Spinner />}
                  {t('billing.methods.remove')}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <div className="panel-actions">
        <button type="button" className="button button-outline" onClick={() => setAdding(true)}>
          {t('billing.methods.add')}
        </button>
        <button
          type="button"
          className="button button-ghost"
          disabled={openingPortal}
          aria-busy={openingPortal || undefined}
          onClick={() => void handlePortal()}
        >
          {openingPortal && <Spinner />}
          {t('billing.methods.portal')}
        </button>
      </div>
      {adding && (
        <CheckoutDialog
          title={t('billing.methods.addTitle')}
          description={t('billing.methods.addDescription')}
          submitLabel={t('billing.methods.addSubmit')}
          failureTitle={t('billing.methods.addFailed')}
          setup={setup}
          onPay={async (paymentMethodId) => {
            await setDefaultPaymentMethod(paymentMethodId);
            return { clientSecret: null };
          }}
          onSuccess={() => {
            setAdding(false);
            notify.success(t('billing.methods.added'));
            setRevision((n) => n + 1);
          }}
          onClose={() => setAdding(false)}
        />
      )}
    </Panel>
  );
}
