import { hashKey, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router';
import { TEST_CARDS, getPlan, type PaidPlanId } from '@mirror/contract';
import { CheckoutDialog } from '../../../components/payments/checkout-dialog';
import { DnsSetupModal } from '../../../components/payments/dns-setup-modal';
import { groupCardNumber } from '../../../components/payments/test-card-form';
import { Page } from '../../../components/ui/page';
import { PageLoader } from '../../../components/ui/page-loader';
import { useAuth } from '../../../lib/auth-context';
import { getMe } from '../../../lib/auth-provider';
import { useDialogs } from '../../../lib/dialogs';
import { useI18n } from '../../../lib/i18n';
import { subscribe } from '../../../api/payments';
import { queryKeys } from '../../../api/query-keys';
import { formatCents } from '../../../lib/payments';
import { notify } from '../../../lib/toast';
import { useBillingView } from '../hooks/use-billing-view';
import { InvoicesPanel } from './invoices-panel';
import { PaymentMethodsPanel } from './payment-methods-panel';
import { PlanPanel } from './plan-panel';
import { UsagePanel } from './usage-panel';
import './billing.css';

/** `/billing?plan=pro` (the Pro pricing card) opens the checkout for Pro. */
const PLAN_PARAM = 'plan';

/**
 * SPEC §2 Billing: current plan, usage, payment methods with the billing portal, invoice history;
 * subscribing opens the checkout, and a successful subscription shows the DNS setup modal.
 */
export function BillingPage() {
  const { t, locale } = useI18n();
  const { load, retry } = useBillingView();
  const queryClient = useQueryClient();
  const { updateUser } = useAuth();
  const { open, openDialog, closeDialog } = useDialogs();
  const [searchParams, setSearchParams] = useSearchParams();
  const [chosenPlan, setChosenPlan] = useState<PaidPlanId | null>(null);

  const view = load.state === 'ready' ? load.view : null;
  const subscribed = view !== null && (view.isSubscribed || view.isTrialing);
  const requested = searchParams.get(PLAN_PARAM) === 'pro' ? 'pro' : null;
  const checkoutPlan = view && !subscribed ? (chosenPlan ?? requested) : null;

  const closeCheckout = useCallback(() => {
    setChosenPlan(null);
    if (searchParams.has(PLAN_PARAM)) {
      setSearchParams(
        (current) => {
          current.delete(PLAN_PARAM);
          return current;
        },
        { replace: true },
      );
    }
  }, [searchParams, setSearchParams]);

  const handleChanged = useCallback(async () => {
    // The view first (the plan panel answers the action), then usage, payment methods, invoices.
    await queryClient.invalidateQueries({ queryKey: queryKeys.billing.view() });
    void queryClient.invalidateQueries({
      queryKey: queryKeys.billing.all,
      predicate: (query) => query.queryHash !== hashKey(queryKeys.billing.view()),
    });
    // The plan is part of the signed-in user too (navbar, idea mode, dashboard).
    try {
      updateUser((await getMe()).user);
    } catch (error) {
      console.error('Could not refresh the current user', error);
    }
  }, [queryClient, updateUser]);

  const handleSubscribed = async (planId: PaidPlanId) => {
    closeCheckout();
    notify.success(t('billing.plan.subscribed', { plan: getPlan(planId).name }));
    await handleChanged();
    openDialog('dns');
  };

  return (
    <Page
      className="account-page billing-page"
      meta={{ title: t('meta.billing.title'), description: t('meta.billing.description') }}
      title={t('billing.title')}
      lead={t('billing.lead')}
    >
      {load.state === 'loading' && <PageLoader />}
      {load.state === 'error' && (
        <div className="alert alert-error billing-error" role="alert">
          <p>
            <strong>{t('billing.loadFailed')}</strong>
          </p>
          <p>{t('billing.loadDetail', { error: load.message })}</p>
          <button type="button" className="button button-outline" onClick={retry}>
            {t('billing.retry')}
          </button>
        </div>
      )}
      {view && (
        <>
          {view.mode === 'off' && (
            <p className="alert alert-error" role="note">
              {t('billing.notConfigured')}
            </p>
          )}
          {view.mode === 'test' && (
            <p className="billing-test-mode" role="note">
              {t('billing.testMode', { card: groupCardNumber(TEST_CARDS.succeeds) })}
              {searchParams.get('portal') === 'test' && ` ${t('billing.portalTest')}`}
            </p>
          )}
          <PlanPanel view={view} onSubscribe={setChosenPlan} onChanged={handleChanged} />
          <UsagePanel />
          <PaymentMethodsPanel setup={view} />
          <InvoicesPanel />
        </>
      )}
      {view && checkoutPlan && (
        <CheckoutDialog
          title={t('payments.checkout.subscribeTitle', { plan: getPlan(checkoutPlan).name })}
          description={t('payments.checkout.subscribeDescription', {
            price: formatCents(locale, getPlan(checkoutPlan).priceUsd * 100, 'usd', {
              whole: true,
            }),
          })}
          submitLabel={t('payments.checkout.subscribe')}
          setup={view}
          onPay={(paymentMethodId) => subscribe(checkoutPlan, paymentMethodId)}
          onSuccess={() => void handleSubscribed(checkoutPlan)}
          onClose={closeCheckout}
        />
      )}
      {open === 'dns' && <DnsSetupModal onClose={closeDialog} />}
    </Page>
  );
}
