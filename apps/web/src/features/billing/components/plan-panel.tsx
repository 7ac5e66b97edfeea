import { useState } from 'react';
import { Link } from 'react-router';
import {
  PLAN_IDS,
  SALES_EMAIL,
  SALES_SUBJECT,
  getPlan,
  type BillingView,
  type PaidPlanId,
  type PlanId,
} from '@mirror/contract';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { useRewritePricing } from '../../../hooks/use-rewrite-pricing';
import { getErrorMessage } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { cancelSubscription, changePlan, reactivateSubscription } from '../../../api/payments';
import { notify } from '../../../lib/toast';
import { formatUnixDate } from '../utils/format-billing';
import { DowngradeDialog } from './downgrade-dialog';

const SALES_HREF = `mailto:${SALES_EMAIL}?subject=${encodeURIComponent(SALES_SUBJECT)}`;

interface PlanPanelProps {
  view: BillingView;
  /** Opens the checkout for a plan (Pro; Agency goes through sales, SPEC §2). */
  onSubscribe: (planId: PaidPlanId) => void;
  /** A change was made: the page fetches the billing view, usage and invoices again. */
  onChanged: () => Promise<void>;
}

type Action = 'cancel' | 'reactivate' | 'change';

/** A move to a bigger plan: nothing is taken away, so no list of consequences is needed. */
const isUpgrade = (from: PlanId, to: PlanId) => PLAN_IDS.indexOf(to) > PLAN_IDS.indexOf(from);

/**
 * Current plan and subscription (SPEC §2 Billing, §4 subscription flow): subscribers manage, cancel
 * at period end or reactivate; others see the plan name, the upgrade link and the plans to buy.
 */
export function PlanPanel({ view, onSubscribe, onChanged }: PlanPanelProps) {
  const { t, locale } = useI18n();
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  /** A plan the user asked to switch to, waiting for their confirmation. */
  const [confirmingSwitch, setConfirmingSwitch] = useState<PaidPlanId | null>(null);
  const [managing, setManaging] = useState(false);
  const [running, setRunning] = useState<Action | null>(null);
  const plan = getPlan(view.currentPlan);
  const subscription = view.subscription;
  const subscribed = (view.isSubscribed || view.isTrialing) && subscription !== null;
  // Free AI rewrites are a reason to upgrade only where an AI model can run them.
  const pricing = useRewritePricing(!subscribed);
  const rewrites = pricing.known && pricing.available;

  const run = async (
    action: Action,
    work: () => Promise<unknown>,
    success: string,
    fallback: string,
  ) => {
    setRunning(action);
    try {
      await work();
      notify.success(success);
      await onChanged();
    } catch (error) {
      notify.error(getErrorMessage(error, fallback));
    } finally {
      setRunning(null);
    }
  };

  const handleCancel = () => {
    setConfirmingCancel(false);
    void run(
      'cancel',
      () => cancelSubscription(false),
      t('billing.plan.cancelled'),
      t('billing.plan.cancelFailed'),
    );
  };

  const handleReactivate = () =>
    void run(
      'reactivate',
      reactivateSubscription,
      t('billing.plan.reactivated'),
      t('billing.plan.reactivateFailed'),
    );

  const handleChange = (planId: PaidPlanId) => {
    setConfirmingSwitch(null);
    void run(
      'change',
      () => changePlan(planId),
      t('billing.plan.changed', { plan: getPlan(planId).name }),
      t('billing.plan.changeFailed'),
    );
  };

  return (
    <Panel title={t('billing.plan.title')}>
      <p className="billing-plan">
        <span className="billing-plan-name" data-testid="current-plan" lang="en">
          {plan.name}
        </span>
        {subscribed && (
          <span className="badge billing-status" data-status={subscription.status}>
            {t(`billing.plan.statuses.${subscription.status}`)}
          </span>
        )}
      </p>

      {subscribed ? (
        <>
          <p className="billing-plan-period">
            {view.isTrialing && view.trialEndsAt !== null
              ? t('billing.plan.trialEnds', { date: formatUnixDate(locale, view.trialEndsAt) })
              : view.cancel_at_period_end
                ? t('billing.plan.endsOn', {
                    date: formatUnixDate(locale, subscription.current_period_end),
                  })
                : t('billing.plan.renews', {
                    date: formatUnixDate(locale, subscription.current_period_end),
                  })}
          </p>
          <div className="panel-actions">
            {view.cancel_at_period_end ? (
              <button
                type="button"
                className="button button-primary"
                disabled={running !== null}
                onClick={handleReactivate}
              >
                {running === 'reactivate' && <Spinner />}
                {t('billing.plan.reactivate')}
              </button>
            ) : (
              <button
                type="button"
                className="button button-outline-danger"
                disabled={running !== null}
                onClick={() => setConfirmingCancel(true)}
              >
                {running === 'cancel' && <Spinner />}
                {t('billing.plan.cancel')}
              </button>
            )}
            <button
              type="button"
              className="button button-outline"
              aria-expanded={managing}
              onClick={() => setManaging((open) => !open)}
            >
              {t('billing.plan.manage')}
            </button>
          </div>
          {managing && (
            <div className="billing-manage">
              <p className="panel-description">{t('billing.plan.manageHint')}</p>
              {/* The plan change the payments module makes (PUT /payments/subscription), prorated. */}
              {(['pro', 'agency'] as const)
                .filter((id) => id !== subscription.plan)
                .map((id) => (
                  <button
                    key={id}
                    type="button"
                    className="button button-outline"
                    disabled={running !== null}
                    onClick={() => setConfirmingSwitch(id)}
                  >
                    {running === 'change' && <Spinner />}
                    {t('billing.plan.switchTo', { plan: getPlan(id).name })}
                  </button>
                ))}
              {subscription.plan !== 'agency' && (
                <a className="button button-ghost" href={SALES_HREF}>
                  {t('billing.plan.agencySales', { plan: getPlan('agency').name })}
                </a>
              )}
            </div>
          )}
        </>
      ) : (
        <>
          <p className="billing-plan-period">
            {t(rewrites ? 'billing.plan.notSubscribed' : 'billing.plan.notSubscribedNoAi')}
          </p>
          <p>
            <Link to="/#pricing">{t('billing.plan.upgrade')}</Link>
          </p>
          <ul className="billing-offers">
            {(['pro', 'agency'] as const).map((id) => {
              const offer = getPlan(id);
              return (
                <li key={id} className="billing-offer">
                  <span className="billing-offer-name" lang="en">
                    {offer.name}
                  </span>
                  <span className="billing-offer-price">
                    {t('billing.plan.perMonth', { price: `$${offer.priceUsd}` })}
                  </span>
                  {offer.action === 'contact-sales' ? (
                    <a className="button button-outline" href={SALES_HREF}>
                      {t('billing.plan.contactSales')}
                    </a>
                  ) : (
                    <button
                      type="button"
                      className="button button-primary"
                      onClick={() => onSubscribe(id)}
                    >
                      {t('billing.plan.subscribe', { plan: offer.name })}
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      )}

      {confirmingCancel && (
        <DowngradeDialog
          plan="free"
          at="period_end"
          current={view.currentPlan}
          title={t('billing.plan.cancelTitle')}
          message={t('billing.plan.cancelConfirm')}
          confirmLabel={t('billing.plan.cancelYes')}
          cancelLabel={t('billing.plan.cancelKeep')}
          onConfirm={handleCancel}
          onCancel={() => setConfirmingCancel(false)}
        />
      )}
      {confirmingSwitch && isUpgrade(view.currentPlan, confirmingSwitch) && (
        <ConfirmDialog
          title={t('billing.plan.switchTitle', { plan: getPlan(confirmingSwitch).name })}
          message={t('billing.plan.upgradeConfirm', {
            plan: getPlan(confirmingSwitch).name,
            price: `$${getPlan(confirmingSwitch).priceUsd}`,
          })}
          confirmLabel={t('billing.plan.switchTo', { plan: getPlan(confirmingSwitch).name })}
          cancelLabel={t('billing.plan.switchKeep', { plan: plan.name })}
          onConfirm={() => handleChange(confirmingSwitch)}
          onCancel={() => setConfirmingSwitch(null)}
        />
      )}
      {confirmingSwitch && !isUpgrade(view.currentPlan, confirmingSwitch) && (
        <DowngradeDialog
          plan={confirmingSwitch}
          at="now"
          current={view.currentPlan}
          title={t('billing.plan.switchTitle', { plan: getPlan(confirmingSwitch).name })}
          message={t('billing.plan.switchConfirm')}
          confirmLabel={t('billing.plan.switchTo', { plan: getPlan(confirmingSwitch).name })}
          cancelLabel={t('billing.plan.switchKeep', { plan: plan.name })}
          onConfirm={() => handleChange(confirmingSwitch)}
          onCancel={() => setConfirmingSwitch(null)}
        />
      )}
    </Panel>
  );
}
