import { useState } from 'react';
import { useI18n } from '../../lib/i18n';
import { Spinner } from '../ui/spinner';
import './mirror.css';

/** What a mirrored page may do inside the app: run its scripts, forms and popups (SPEC §2). */
export const PREVIEW_SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups';

/**
 * The live preview of a mirror, sandboxed. `url` is the address shown; `src`, when given, is what
 * the frame loads (the owner's site page loads the live version from its preview host, so the
 * owner's looks are not counted as visits).
 */
export function SiteFrame({ url, src = url }: { url: string; src?: string }) {
  const { t } = useI18n();
  // Until the page has loaded, the frame says so instead of staying blank (issue 31, item 10).
  const [loaded, setLoaded] = useState<string | null>(null);
  const loading = loaded !== src;
  return (
    <div className="site-frame" aria-busy={loading || undefined}>
      <div className="site-frame-bar" aria-hidden="true">
        <span className="site-frame-dots">
          <span />
          <span />
          <span />
        </span>
        <span className="site-frame-url" dir="ltr">
          {url}
        </span>
      </div>
      <div className="site-frame-body">
        <iframe
          className="site-frame-iframe"
          src={src}
          title={t('mirror.frameTitle', { url })}
          sandbox={PREVIEW_SANDBOX}
          loading="lazy"
          referrerPolicy="no-referrer"
          onLoad={() => setLoaded(src)}
        />
        {loading && (
          <p className="site-frame-loading" role="status" data-testid="site-frame-loading">
            <Spinner /> {t('mirror.frameLoading')}
          </p>
        )}
      </div>
    </div>
  );
}
