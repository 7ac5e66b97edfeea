import { useEffect, useRef, useState } from 'react';
import { isPaidUser, useAuth } from '../../../lib/auth-context';
import { useI18n } from '../../../lib/i18n';
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
  /**
   * Whether a user without a paid plan can pay the one-off rewrite price. Card payments arrive
   * with the payments issue; until then only paid plans can rewrite.
   */
  canPay?: boolean;
}

/** The results banner, the reference grid (SPEC §2) and the rewrite of the chosen reference. */
export function IdeaResults({
  idea,
  references,
  onUpdate,
  onNewSearch,
  canPay = false,
}: IdeaResultsProps) {
  const { t, locale } = useI18n();
  const { user } = useAuth();
  const paid = isPaidUser(user);
  // Asked once the user is known: paid plans never see a price.
  const pricing = useRewritePricing(user !== null && !paid);
  const price = formatPrice(locale, pricing.amount, pricing.currency);
  const [rewriteUrl, setRewriteUrl] = useState<string | null>(null);
  const [rewriteBusy, setRewriteBusy] = useState(false);
  const bannerRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    bannerRef.current?.scrollIntoView?.({ behavior: 'smooth', block: 'nearest' });
  }, []);

  const target = references.find((item) => item.url === rewriteUrl && item.cloneId !== null);

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
                paid={paid}
                canPay={canPay}
                price={price}
                rewriteDisabled={rewriteBusy}
                onChange={(patch) => onUpdate(item.url, patch)}
                onRewrite={() => setRewriteUrl(item.url)}
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
    </section>
  );
}
