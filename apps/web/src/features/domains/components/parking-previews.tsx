import { useEffect, useId, useState } from 'react';
import { PARKING_TEMPLATES, type ParkedDomain, type ParkingTemplate } from '@mirror/contract';
import { useI18n } from '../../../lib/i18n';
import { getParkingPreview } from '../api/domain-api';
import './domains.css';

type Preview = { html: string } | { failed: true } | undefined;

/** The custom template has a preview once its HTML is saved. */
function previewedTemplates(hasCustomHtml: boolean): ParkingTemplate[] {
  return PARKING_TEMPLATES.filter((template) => template !== 'custom' || hasCustomHtml);
}

/**
 * Every template of a parked domain's page side by side, as the owner's preview (the domain's DNS
 * need not be active). Each page sits in a sandboxed frame: no script, no form, an opaque origin.
 * The saved page is what is previewed: the parent gives it a new key after each save.
 */
export function ParkingPreviews({
  record,
  chosen,
  onChoose,
}: {
  record: ParkedDomain;
  chosen: ParkingTemplate;
  onChoose: (template: ParkingTemplate) => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const [previews, setPreviews] = useState<Partial<Record<ParkingTemplate, Preview>>>({});
  const hasCustomHtml = Boolean(record.content);
  const templates = previewedTemplates(hasCustomHtml);
  useEffect(() => {
    const controller = new AbortController();
    for (const template of previewedTemplates(hasCustomHtml)) {
      getParkingPreview(record.id, template, controller.signal).then(
        (html) => setPreviews((current) => ({ ...current, [template]: { html } })),
        () => {
          if (!controller.signal.aborted) {
            setPreviews((current) => ({ ...current, [template]: { failed: true } }));
          }
        },
      );
    }
    return () => controller.abort();
  }, [record.id, hasCustomHtml]);

  return (
    <section className="parking-previews" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="parking-previews-title">
        {t('domains.settings.previewTitle')}
      </h3>
      <p className="field-hint">
        {t('domains.settings.previewDescription', { domain: record.domain })}
      </p>
      <ul className="parking-preview-list">
        {templates.map((template) => {
          const name = t(`domains.templates.${template}.name`);
          const preview = previews[template];
          return (
            <li key={template} className="parking-preview" data-template={template}>
              <h4 id={`${id}-${template}`} className="parking-preview-name">
                {name}
              </h4>
              {preview && 'html' in preview ? (
                <iframe
                  className="parking-preview-frame"
                  title={t('domains.settings.previewFrame', {
                    template: name,
                    domain: record.domain,
                  })}
                  sandbox=""
                  referrerPolicy="no-referrer"
                  srcDoc={preview.html}
                />
              ) : (
                <p className="parking-preview-placeholder" role={preview ? 'alert' : 'status'}>
                  {preview
                    ? t('domains.settings.previewFailed')
                    : t('domains.settings.previewLoading')}
                </p>
              )}
              <button
                type="button"
                className="button button-outline"
                aria-describedby={`${id}-${template}`}
                disabled={chosen === template}
                onClick={() => onChoose(template)}
              >
                {chosen === template
                  ? t('domains.settings.previewChosen')
                  : t('domains.settings.previewUse')}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
