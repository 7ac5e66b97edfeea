import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { PageSource } from '@mirror/contract';
import { Spinner } from '../../../components/ui/spinner';
import { getErrorMessage } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { getPageSource } from '../api/watch-api';
import { pickerDocument, pickOf, type PartPick } from '../utils/part-selector';

export interface PickedPart extends PartPick {
  /** The page's path in the copy (`/about/` for `/about/index.html`). */
  path: string;
}

interface PartPickerProps {
  siteId: string;
  /** The page, as typed in the form. */
  path: string;
  onPick: (part: PickedPart) => void;
  onClose: () => void;
}

/**
 * Picks a watch's part by pointing at it (issue 33): the page of the live copy in a sandboxed
 * frame (scripts of ours only, no access to the app: another origin), where a click or Enter
 * names the element; or, for people who cannot point, a list of the page's texts. The pick is
 * shown before it fills the form.
 */
export function PartPicker({ siteId, path, onPick, onClose }: PartPickerProps) {
  const { t } = useI18n();
  const titleId = useId();
  const frameRef = useRef<HTMLIFrameElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const [source, setSource] = useState<PageSource | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [picked, setPicked] = useState<PartPick | null>(null);

  const loadFailed = t('site.watches.picker.loadFailed');
  useEffect(() => {
    const controller = new AbortController();
    getPageSource(siteId, path, controller.signal).then(setSource, (error: unknown) => {
      if (!controller.signal.aborted) setFailure(getErrorMessage(error, loadFailed));
    });
    return () => controller.abort();
  }, [siteId, path, loadFailed]);

  const page = useMemo(() => (source ? pickerDocument(source.html, source.url) : null), [source]);

  // Only the page's frame may pick, and only in the picker's own words.
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const frame = frameRef.current?.contentWindow;
      if (!frame || event.source !== frame) return;
      const pick = pickOf(event.data);
      if (pick) setPicked(pick);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  useEffect(() => {
    if (picked) confirmRef.current?.focus();
  }, [picked]);

  const handleKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape') return;
    // Closes the picker, not the whole form.
    event.stopPropagation();
    onClose();
  };

  return (
    <section className="part-picker" aria-labelledby={titleId} onKeyDown={handleKeyDown}>
      <div className="part-picker-head">
        <h3 id={titleId} className="part-picker-title">
          {t('site.watches.picker.title')}
        </h3>
        <button type="button" className="button button-outline" onClick={onClose}>
          {t('site.watches.picker.close')}
        </button>
      </div>
      {!source && !failure && (
        <p className="part-picker-status" role="status">
          <Spinner /> {t('site.watches.picker.loading')}
        </p>
      )}
      {failure && (
        <p className="alert alert-error" role="alert">
          {failure}
        </p>
      )}
      {picked && source && (
        <div className="part-picker-picked" data-testid="picked-part">
          <p className="part-picker-label">{t('site.watches.picker.picked')}</p>
          <p className="part-picker-text">{picked.text || t('site.watches.picker.noText')}</p>
          <p className="field-hint">
            {t('site.watches.picker.selector')} <code dir="ltr">{picked.selector}</code>
          </p>
          <div className="part-picker-actions">
            <button
              ref={confirmRef}
              type="button"
              className="button button-primary"
              onClick={() => onPick({ ...picked, path: source.path })}
            >
              {t('site.watches.picker.confirm')}
            </button>
            <button type="button" className="button button-outline" onClick={() => setPicked(null)}>
              {t('site.watches.picker.again')}
            </button>
          </div>
        </div>
      )}
      {source && page && (
        <>
          <p className="field-hint">{t('site.watches.picker.hint', { path: source.path })}</p>
          <iframe
            ref={frameRef}
            className="part-picker-frame"
            title={t('site.watches.picker.frameTitle', { path: source.path })}
            sandbox="allow-scripts"
            srcDoc={page.srcdoc}
          />
          <details className="part-picker-list">
            <summary>{t('site.watches.picker.listTitle')}</summary>
            <p className="field-hint">{t('site.watches.picker.listHint')}</p>
            {page.parts.length === 0 ? (
              <p>{t('site.watches.picker.listEmpty')}</p>
            ) : (
              <ul>
                {page.parts.map((part, index) => (
                  <li key={index}>
                    <button
                      type="button"
                      className="part-picker-item"
                      aria-pressed={picked?.selector === part.selector}
                      onClick={() => setPicked(part)}
                    >
                      {part.text}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </details>
        </>
      )}
    </section>
  );
}
