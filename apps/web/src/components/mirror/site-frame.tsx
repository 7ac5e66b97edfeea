import { useI18n } from '../../lib/i18n';
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
  return (
    <div className="site-frame">
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
      <iframe
        className="site-frame-iframe"
        src={src}
        title={t('mirror.frameTitle', { url })}
        sandbox={PREVIEW_SANDBOX}
        loading="lazy"
        referrerPolicy="no-referrer"
      />
    </div>
  );
}
