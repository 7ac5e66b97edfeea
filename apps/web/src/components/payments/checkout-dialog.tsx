import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useRef, useState, type FormEvent } from 'react';
import { PAYMENT_MESSAGES, type BillingView } from '@mirror/contract';
import { Modal } from '../ui/modal';
import { Spinner } from '../ui/spinner';
import { getErrorMessage } from '../../lib/api-client';
import { useI18n } from '../../lib/i18n';
import { confirmTestPayment, getBillingView } from '../../api/payments';
import { queryKeys } from '../../api/query-keys';
import type { CardFormHandle } from './card-form';
import { TestCardForm, TestModeNotice } from './test-card-form';
import { ThreeDSecureDialog } from './three-d-secure-dialog';
import './payments.css';

// Stripe.js and its loader are fetched only when Stripe is the provider.
const StripeCardForm = lazy(async () => ({
  default: (await import('./stripe-card-form')).StripeCardForm,
}));

export type PaymentSetup = Pick<BillingView, 'mode' | 'publishableKey'>;

interface CheckoutDialogProps {
  title: string;
  /** What is bought and for how much. */
  description: string;
  submitLabel: string;
  /** Heading of a refusal; 'Payment failed' unless the checkout only saves a card. */
  failureTitle?: string;
  /** Which provider answers; the billing view is asked when it is not known yet. */
  setup?: PaymentSetup;
  /**
   * The SPEC call this checkout stands for (subscribe, the $2 rewrite, saving a card), made with
   * the new payment method. A client secret in the answer means the payment needs the card
   * holder's confirmation (3-D Secure) before it succeeds.
   */
  onPay: (paymentMethodId: string) => Promise<{ clientSecret: string | null }>;
  onSuccess: () => void;
  onClose: () => void;
}

type Step = 'form' | 'processing' | 'authenticating' | 'confirming';

/**
 * Card checkout (issue 7): Stripe's Card Element when Stripe is configured, the local test mode's
 * own card form otherwise, with its 3-D Secure test dialog. A refused card shows 'Payment failed'
 * with the provider's reason, and nothing changes.
 */
export function CheckoutDialog({
  title,
  description,
  submitLabel,
  failureTitle,
  setup: givenSetup,
  onPay,
  onSuccess,
  onClose,
}: CheckoutDialogProps) {
  const { t } = useI18n();
  // Which provider answers comes with the billing view, asked for only when not given.
  const fetched = useQuery({
    queryKey: queryKeys.billing.view(),
    queryFn: ({ signal }) => getBillingView(signal),
    enabled: !givenSetup,
  });
  const [step, setStep] = useState<Step>('form');
  const [error, setError] = useState<string | null>(null);
  const [pendingSecret, setPendingSecret] = useState<string | null>(null);
  const cardRef = useRef<CardFormHandle>(null);
  const setup: PaymentSetup | null = givenSetup ?? fetched.data ?? null;
  const setupError = !setup && fetched.isError ? t('payments.initFailed') : null;

  const busy = step !== 'form';

  const fail = (failure: unknown, fallback: string) => {
    setError(getErrorMessage(failure, fallback));
    setStep('form');
  };

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const card = cardRef.current;
    if (busy || !card) return;
    setError(null);
    setStep('processing');
    try {
      const paymentMethodId = await card.createPaymentMethod();
      if (!paymentMethodId) {
        setStep('form');
        return;
      }
      const { clientSecret } = await onPay(paymentMethodId);
      if (clientSecret) {
        if (card.confirmPayment) {
          await card.confirmPayment(clientSecret);
        } else {
          setPendingSecret(clientSecret);
          setStep('authenticating');
          return;
        }
      }
      onSuccess();
    } catch (failure) {
      fail(failure, PAYMENT_MESSAGES.paymentFailed);
    }
  };

  const handleAuthentication = async (approve: boolean) => {
    if (!pendingSecret || step !== 'authenticating') return;
    setStep('confirming');
    try {
      await confirmTestPayment(pendingSecret, approve);
      if (!approve) throw new Error(PAYMENT_MESSAGES.authenticationFailed);
      setPendingSecret(null);
      onSuccess();
    } catch (failure) {
      setPendingSecret(null);
      fail(failure, PAYMENT_MESSAGES.authenticationFailed);
    }
  };

  const failedTitle = failureTitle ?? t('payments.checkout.failed');
  const authenticating = step === 'authenticating' || step === 'confirming';

  return (
    <>
      <Modal
        title={title}
        description={description}
        onClose={() => {
          if (!busy) onClose();
        }}
      >
        {setupError && (
          <p className="alert alert-error" role="alert">
            {setupError}
          </p>
        )}
        {!setup && !setupError && (
          <p className="checkout-loading" role="status">
            <Spinner /> {t('payments.checkout.loading')}
          </p>
        )}
        {setup && (
          <form className="checkout-form" noValidate onSubmit={(e) => void handleSubmit(e)}>
            {setup.mode === 'test' && <TestModeNotice />}
            {setup.mode === 'test' && <TestCardForm ref={cardRef} disabled={busy} />}
            {setup.mode === 'stripe' && setup.publishableKey && (
              <Suspense
                fallback={
                  <p className="checkout-loading" role="status">
                    <Spinner /> {t('payments.checkout.loading')}
                  </p>
                }
              >
                <StripeCardForm ref={cardRef} publishableKey={setup.publishableKey} />
              </Suspense>
            )}
            {setup.mode === 'stripe' && !setup.publishableKey && (
              <p className="alert alert-error" role="alert">
                {t('payments.initFailed')}
              </p>
            )}
            {error && (
              <div className="alert alert-error checkout-error" role="alert">
                <strong>{failedTitle}</strong>
                {error !== failedTitle && <span>{error}</span>}
              </div>
            )}
            <div className="confirm-actions">
              <button
                type="button"
                className="button button-outline"
                disabled={busy}
                onClick={onClose}
              >
                {t('payments.checkout.cancel')}
              </button>
              <button
                type="submit"
                className="button button-primary"
                disabled={busy}
                aria-busy={busy || undefined}
              >
                {busy && <Spinner />}
                {busy ? t('payments.checkout.processing') : submitLabel}
              </button>
            </div>
          </form>
        )}
      </Modal>
      {authenticating && (
        <ThreeDSecureDialog
          busy={step === 'confirming'}
          onAnswer={(approve) => void handleAuthentication(approve)}
        />
      )}
    </>
  );
}
