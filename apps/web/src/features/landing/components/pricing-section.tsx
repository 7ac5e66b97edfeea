import { useNavigate } from 'react-router';
import { PLANS, type Plan } from '@mirror/contract';
import { useRewritePricing } from '../../../hooks/use-rewrite-pricing';
import { useAuth } from '../../../lib/auth-context';
import { useDialogs } from '../../../lib/dialogs';
import { formatPrice } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { getPlanAction } from '../utils/plan-action';
import { SectionHeader } from './section-header';

const BUTTON_CLASS: Record<Plan['buttonVariant'], string> = {
  outline: 'button-outline',
  primary: 'button-primary',
  secondary: 'button-secondary',
};

export function PricingSection() {
  const { t, locale } = useI18n();
  const { isLoggedIn } = useAuth();
  const { openDialog } = useDialogs();
  const navigate = useNavigate();
  // AI rewrites are offered only once the server says it can run them (an AI model is connected).
  const pricing = useRewritePricing(true);
  const rewrites = pricing.known && pricing.available;
  const rewritePrice = formatPrice(locale, pricing.amount, pricing.currency);

  const handleChoosePlan = (plan: Plan) => {
    const action = getPlanAction(plan, isLoggedIn);
    if (action.kind === 'login') openDialog('login');
    else if (action.kind === 'mailto') window.location.assign(action.href);
    // A paid plan's card opens the billing screen's checkout for that plan.
    else if (plan.action === 'billing') void navigate(`${action.to}?plan=${plan.id}`);
    else void navigate(action.to);
  };

  return (
    <section id="pricing" className="section" aria-labelledby="pricing-title">
      <div className="container">
        <SectionHeader
          id="pricing-title"
          eyebrow={t('pricing.eyebrow')}
          title={t('pricing.title')}
          subtitle={t('pricing.subtitle')}
        />
        <ul className="pricing-grid">
          {PLANS.map((plan) => (
            <li
              key={plan.id}
              className={plan.popular ? 'card plan-card plan-popular' : 'card plan-card'}
              aria-labelledby={`plan-${plan.id}-name`}
            >
              {plan.popular && <p className="plan-badge">{t('pricing.popular')}</p>}
              <h3 id={`plan-${plan.id}-name`} className="plan-name" lang="en">
                {plan.name}
              </h3>
              <p className="plan-price">
                <span className="plan-amount" dir="ltr">
                  ${plan.priceUsd}
                </span>{' '}
                <span className="plan-period">{t(`pricing.period.${plan.period}`)}</span>
              </p>
              <p className="plan-description">{t(`pricing.plans.${plan.id}.description`)}</p>
              <ul className="plan-features">
                {plan.features
                  .filter((feature) => rewrites || !feature.needsModel)
                  .map((feature) => (
                    <li
                      key={feature.key}
                      className={
                        feature.included ? 'plan-feature' : 'plan-feature plan-feature-excluded'
                      }
                    >
                      <span className="plan-feature-icon" aria-hidden="true">
                        {feature.included ? '✓' : '✗'}
                      </span>
                      <span className="visually-hidden">
                        {feature.included ? t('pricing.included') : t('pricing.excluded')}
                      </span>
                      <span>{t(`pricing.features.${feature.key}`, { price: rewritePrice })}</span>
                    </li>
                  ))}
              </ul>
              <button
                type="button"
                className={`button button-block ${BUTTON_CLASS[plan.buttonVariant]}`}
                onClick={() => handleChoosePlan(plan)}
              >
                {t(`pricing.plans.${plan.id}.button`)}
              </button>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
