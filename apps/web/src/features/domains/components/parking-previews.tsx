import { useQueries } from '@tanstack/react-query';
import { useId } from 'react';
import { PARKING_TEMPLATES, type ParkedDomain, type ParkingTemplate } from '@mirror/contract';
import { queryKeys } from '../../../api/query-keys';
import { useI18n } from '../../../lib/i18n';
import { getParkingPreview } from '../api/domain-api';
import './domains.css';

/** The custom template has a preview once its HTML is saved. */
function previewedTemplates(hasCustomHtml: boolean): ParkingTemplate[] {
  return PARKING_TEMPLATES.filter((template) => template !== 'custom' || hasCustomHtml);
}

/**
 * Every template of a parked domain's page side by side, as the owner's preview (the domain's DNS
 * need not be active). Each page sits in a sandboxed frame: no script, no form, an opaque origin.
 * The saved page is what is previewed: each save (a new `updatedAt`) asks again.
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
  const templates = previewedTemplates(Boolean(record.content));
  const previews = useQueries({
    queries: templates.map((template) => ({
      queryKey: queryKeys.domains.preview(record.id, template, record.updatedAt),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        getParkingPreview(record.id, template, signal),
    })),
  });

  return (
    <section className="parking-previews" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="parking-previews-title">
        {t('domains.settings.previewTitle')}
      </h3>
      <p className="field-hint">
        {t('domains.settings.previewDescription', { domain: record.domain })}
      </p>
      <ul className="parking-preview-list">
        {templates.map((template, index) => {
          const name = t(`domains.templates.${template}.name`);
          const preview = previews[index];
          return (
            <li key={template} className="parking-preview" data-template={template}>
              <h4 id={`${id}-${template}`} className="parking-preview-name">
                {name}
              </h4>
              {preview?.isSuccess ? (
                <iframe
                  className="parking-preview-frame"
                  title={t('domains.settings.previewFrame', {
                    template: name,
                    domain: record.domain,
                  })}
                  sandbox=""
                  referrerPolicy="no-referrer"
                  srcDoc={preview.data}
                />
              ) : (
                <p
                  className="parking-preview-placeholder"
                  role={preview?.isError ? 'alert' : 'status'}
                >
                  {preview?.isError
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
