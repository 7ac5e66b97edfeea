import { useEffect, useRef, useState } from 'react';
import { getPlan, type CloneRecord } from '@mirror/contract';
import { CheckoutDialog } from '../../../components/payments/checkout-dialog';
import { isPaidUser, useAuth } from '../../../lib/auth-context';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { getDomainsOverview } from '../../../api/domains';
import { deleteSite } from '../../../api/sites';
import { payRewrite } from '../api/pay-rewrite';
import { useRewritePricing } from '../../../hooks/use-rewrite-pricing';
import { formatPrice } from '../../../lib/format';
import type { ReferenceItem } from '../utils/reference-item';
import { MirrorSlotsDialog } from './mirror-slots-dialog';
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
  // Asked once the user is known: paid plans never see a price, but everyone learns whether the
  // server can rewrite at all (without an AI model it cannot, and nothing is offered for money).
  const pricing = useRewritePricing(user !== null);
  const price = formatPrice(locale, pricing.amount, pricing.currency);
  /** Every mirror slot of the plan is in use: the choice shown instead of a failed selection. */
  const [slots, setSlots] = useState<{
    title: string;
    limit: number;
    sites: CloneRecord[];
    resolve: (go: boolean) => void;
  } | null>(null);
  const [rewriteUrl, setRewriteUrl] = useState<string | null>(null);
  const [rewriteBusy, setRewriteBusy] = useState(false);
  /** Sites whose one-off rewrite was paid on this page: they rewrite like a paid plan. */
  const [paidSites, setPaidSites] = useState<ReadonlySet<string>>(new Set());
  /** The reference whose rewrite is at the checkout; once paid, its rewrite starts at once. */
  const [checkoutUrl, setCheckoutUrl] = useState<string | null>(null);
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
      setRewriteUrl(item.url);
    } else if (user !== null && canPay) {
      setCheckoutUrl(item.url);
    }
  };

  const handlePaid = (item: ReferenceItem & { cloneId: string }) => {
    setPaidSites((current) => new Set(current).add(item.cloneId));
    setCheckoutUrl(null);
    // The rewrite panel opens with its instructions field: the owner's instructions go with it.
    notify.success(t('ideas.payment.paidReady'));
    setRewriteUrl(item.url);
  };

  /**
   * Before a reference is mirrored into the account: with every slot of the plan in use, the user
   * chooses to replace one of their sites or to upgrade, instead of a selection that fails.
   */
  const beforeSelect = async (item: ReferenceItem): Promise<boolean> => {
    if (!user) return true;
    const limit = getPlan(user.plan).limits.mirrors;
    if (limit === null) return true;
    let sites: CloneRecord[];
    try {
      sites = (await getDomainsOverview()).sites;
    } catch {
      return true; // The server still checks the limit.
    }
    if (sites.length < limit) return true;
    return new Promise<boolean>((resolve) =>
      setSlots({ title: item.title, limit, sites, resolve }),
    );
  };

  const closeSlots = (go: boolean) => {
    slots?.resolve(go);
    setSlots(null);
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
                idea={idea}
                paid={mayRewriteFree(item)}
                canPay={user !== null && canPay}
                price={price}
                rewriteDisabled={rewriteBusy}
                rewriteAvailable={pricing.available}
                beforeSelect={() => beforeSelect(item)}
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
          onBusyChange={setRewriteBusy}
        />
      )}

      {slots && (
        <MirrorSlotsDialog
          title={slots.title}
          limit={slots.limit}
          sites={slots.sites}
          onReplace={async (site) => {
            await deleteSite(site.id);
            closeSlots(true);
          }}
          onClose={() => closeSlots(false)}
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
