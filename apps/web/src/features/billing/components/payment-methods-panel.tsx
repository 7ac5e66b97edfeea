import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
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
} from '../../../api/payments';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../lib/toast';

/** A change to one saved card, with the toasts that follow it. */
interface CardAction {
  id: string;
  work: () => Promise<unknown>;
  success: string;
  fallback: string;
}

/** `visa` → `Visa`; Stripe sends brands in lower case. */
const brandName = (brand: string) => brand.charAt(0).toUpperCase() + brand.slice(1);

/**
 * Saved cards (brand and last4 only), the default for invoices, adding and removing a card, and the
 * payment provider's billing portal.
 */
export function PaymentMethodsPanel({ setup }: { setup: PaymentSetup }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.billing.paymentMethods(),
    queryFn: ({ signal }) => getPaymentMethods(signal),
  });
  const [adding, setAdding] = useState(false);
  const [openingPortal, setOpeningPortal] = useState(false);

  /** After a change the list is fetched again. */
  const refetchMethods = () =>
    void queryClient.invalidateQueries({ queryKey: queryKeys.billing.paymentMethods() });

  const action = useMutation({
    mutationFn: ({ work }: CardAction) => work(),
    onSuccess: (_, { success }) => {
      notify.success(success);
      refetchMethods();
    },
    onError: (error, { fallback }) => notify.error(getErrorMessage(error, fallback)),
  });
  const busyId = action.isPending ? action.variables.id : null;
  const act = (id: string, work: () => Promise<unknown>, success: string, fallback: string) =>
    action.mutate({ id, work, success, fallback });

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
      {query.isPending && <p className="panel-description">{t('common.loading')}</p>}
      {query.isError && (
        <p className="alert alert-error" role="alert">
          {getErrorMessage(query.error, PAYMENT_MESSAGES.fetchMethodsFailed)}
        </p>
      )}
      {query.isSuccess && query.data.length === 0 && (
        <p className="panel-description">{t('billing.methods.empty')}</p>
      )}
      {query.isSuccess && query.data.length > 0 && (
        <ul className="billing-methods">
          {query.data.map((method) => (
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
                      act(
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
                    act(
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
            refetchMethods();
          }}
          onClose={() => setAdding(false)}
        />
      )}
    </Panel>
  );
}
