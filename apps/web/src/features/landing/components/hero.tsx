import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useI18n } from '../../../lib/i18n';
import { UrlForm } from './url-form';

type Mode = 'url' | 'idea' | 'archive';
const MODE_LABELS = { url: 'hero.modeUrl', idea: 'hero.modeIdea', archive: 'hero.modeArchive' };

interface HeroProps {
  /** The idea mode's panel, composed by the app from the ideas feature. */
  ideaPanel?: ReactNode;
  /** "Host an archive" (issue 35), composed by the app from the archives feature; none without. */
  archivePanel?: ReactNode;
}

export function Hero({ ideaPanel = null, archivePanel = null }: HeroProps) {
  const { t, dir } = useI18n();
  const [mode, setMode] = useState<Mode>('url');
  const MODES: readonly Mode[] = archivePanel ? ['url', 'idea', 'archive'] : ['url', 'idea'];
  const tabRefs = useRef<Record<Mode, HTMLButtonElement | null>>({
    url: null,
    idea: null,
    archive: null,
  });
  const panels: Record<Mode, ReactNode> = {
    url: <UrlForm />,
    idea: ideaPanel,
    archive: archivePanel,
  };

  const handleTabKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const forward = dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
    const backward = dir === 'rtl' ? 'ArrowRight' : 'ArrowLeft';
    const index = MODES.indexOf(mode);
    let next: Mode | undefined;
    if (event.key === forward) next = MODES[(index + 1) % MODES.length];
    else if (event.key === backward) next = MODES[(index - 1 + MODES.length) % MODES.length];
    else if (event.key === 'Home') next = MODES[0];
    else if (event.key === 'End') next = MODES[MODES.length - 1];
    if (!next) return;
    event.preventDefault();
    setMode(next);
    tabRefs.current[next]?.focus();
  };

  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="container hero-inner">
        <p className="hero-badge">
          <span className="hero-badge-dot" aria-hidden="true" />
          {t('hero.badge')}
        </p>
        <h1 id="hero-title" className="hero-title">
          {t('hero.title')}
        </h1>
        <p className="hero-subtitle">{t('hero.subtitle')}</p>

        <div className="hero-card">
          <div role="tablist" aria-label={t('hero.modesLabel')} className="mode-toggle">
            {MODES.map((item) => (
              <button
                key={item}
                ref={(node) => {
                  tabRefs.current[item] = node;
                }}
                type="button"
                role="tab"
                id={`hero-tab-${item}`}
                aria-selected={mode === item}
                aria-controls={`hero-panel-${item}`}
                tabIndex={mode === item ? 0 : -1}
                className="mode-tab"
                onClick={() => setMode(item)}
                onKeyDown={handleTabKeyDown}
              >
                {t(MODE_LABELS[item])}
              </button>
            ))}
          </div>
          {MODES.map((item) => (
            <div
              key={item}
              role="tabpanel"
              id={`hero-panel-${item}`}
              aria-labelledby={`hero-tab-${item}`}
              hidden={mode !== item}
              className="mode-panel"
            >
              {panels[item]}
            </div>
          ))}
        </div>

        <ul className="hero-stats">
          <li>{t('hero.stats.languages')}</li>
          <li>{t('hero.stats.setup')}</li>
          <li>{t('hero.stats.ssl')}</li>
        </ul>
      </div>
    </section>
  );
}
