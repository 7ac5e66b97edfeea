import { useEffect, useRef, useState } from 'react';
import { CheckoutDialog } from '../../../components/payments/checkout-dialog';
import { isPaidUser, useAuth } from '../../../lib/auth-context';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { payRewrite } from '../api/pay-rewrite';
import { useRewritePricing } from '../hooks/use-rewrite-pricing';
import { formatPrice, type ReferenceItem } from '../utils/reference-item';
import { ReferenceCard } from './reference-card';
import { RewritePanel } from './rewrite-panel';
import './ideas.css';

interface IdeaResultsProps {
  idea: string;
  references: ReferenceItem[];
  onUpdate: (url: string, patch: Partial<ReferenceItem>) => void;
  /** 'New Search': resets the results and scrolls up. */
  onNewSearch: () => void;
  /** Whether a signed-in user without a paid plan can pay the one-off rewrite price by card. */
  canPay?: boolean;
}

/** The results banner, the reference grid (SPEC §2) and the rewrite of the chosen reference. */
export function IdeaResults({
  idea,
  references,
  onUpdate,
  onNewSearch,
  canPay = true,
}: IdeaResultsProps) {
  const { t, locale } = useI18n();
  const { user } = useAuth();
  const paid = isPaidUser(user);
  // Asked once the user is known: paid plans never see a price.
  const pricing = useRewritePricing(user !== null && !paid);
  const price = formatPrice(locale, pricing.amount, pricing.currency);
  const [rewriteUrl, setRewriteUrl] = useState<string | null>(null);
  const [rewriteBusy, setRewriteBusy] = useState(false);
  /** Sites whose one-off rewrite was paid on this page: they rewrite like a paid plan. */
  const [paidSites, setPaidSites] = useState<ReadonlySet<string>>(new Set());
  /** The reference whose rewrite is at the checkout; once paid, its rewrite starts at once. */
  const [checkoutUrl, setCheckoutUrl] = useState<string | null>(null);
  const [autoStartUrl, setAutoStartUrl] = useState<string | null>(null);
  const bannerRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    bannerRef.current?.scrollIntoView?.({ behavior: 'smooth', block: 'nearest' });
  }, []);

  const target = references.find((item) => item.url === rewriteUrl && item.cloneId !== null);
  const checkoutItem = references.find((item) => item.url === checkoutUrl && item.cloneId !== null);
  const mayRewriteFree = (item: ReferenceItem) =>
    paid || (item.cloneId !== null && paidSites.has(item.cloneId));

  const handleRewrite = (item: ReferenceItem) => {
    if (mayRewriteFree(item)) {
      setAutoStartUrl(null);
      setRewriteUrl(item.url);
    } else if (user !== null && canPay) {
      setCheckoutUrl(item.url);
    }
  };

  const handlePaid = (item: ReferenceItem & { cloneId: string }) => {
    setPaidSites((current) => new Set(current).add(item.cloneId));
    setCheckoutUrl(null);
    notify.success(t('ideas.payment.paid'));
    setAutoStartUrl(item.url);
    setRewriteUrl(item.url);
  };

  return (
    <section className="idea-results" aria-label={t('ideas.resultsLabel')}>
      <div ref={bannerRef} className="idea-banner" role="status">
        <p className="idea-banner-text">
          {references.length > 0
            ? t('ideas.found', { count: references.length })
            : t('ideas.noneFound')}
        </p>
        <button type="button" className="button button-outline" onClick={onNewSearch}>
          {t('ideas.newSearch')}
        </button>
      </div>

      {references.length > 0 && (
        <ul className="reference-grid">
          {references.map((item) => (
            <li key={item.url}>
              <ReferenceCard
                item={item}
                paid={mayRewriteFree(item)}
                canPay={user !== null && canPay}
                price={price}
                rewriteDisabled={rewriteBusy}
                onChange={(patch) => onUpdate(item.url, patch)}
                onRewrite={() => handleRewrite(item)}
              />
            </li>
          ))}
        </ul>
      )}

      {target?.cloneId && (
        <RewritePanel
          key={target.url}
          reference={target}
          cloneId={target.cloneId}
          idea={idea}
          autoStart={autoStartUrl === target.url}
          onBusyChange={setRewriteBusy}
        />
      )}

      {checkoutItem?.cloneId && (
        <CheckoutDialog
          title={t('ideas.payment.title')}
          description={t('ideas.payment.description', { price, title: checkoutItem.title })}
          submitLabel={t('ideas.payment.pay', { price })}
          onPay={(paymentMethodId) => payRewrite(checkoutItem.cloneId!, paymentMethodId)}
          onSuccess={() => handlePaid({ ...checkoutItem, cloneId: checkoutItem.cloneId! })}
          onClose={() => setCheckoutUrl(null)}
        />
      )}
    </section>
  );
}
