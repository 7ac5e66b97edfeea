import { useId } from 'react';
import {
  COMING_SOON_MONETIZATION,
  MONETIZATION_OPTIONS,
  PARKING_TEMPLATES,
  type Monetization,
  type ParkingTemplate,
} from '@mirror/contract';
import { useI18n } from '../../../lib/i18n';
import '../../../components/ui/panel.css';
import './domains.css';

/** The four parking page templates as radio cards. */
export function TemplateChoices({
  value,
  onChange,
}: {
  value: string;
  onChange: (template: ParkingTemplate) => void;
}) {
  const { t } = useI18n();
  const id = useId();
  return (
    <fieldset className="choice-group park-fieldset">
      <legend className="field-label">{t('domains.park.templateLabel')}</legend>
      <div className="choice-list park-templates">
        {PARKING_TEMPLATES.map((template) => (
          <label key={template} className="choice">
            <input
              type="radio"
              name="template"
              value={template}
              checked={value === template}
              aria-labelledby={`${id}-${template}`}
              aria-describedby={`${id}-${template}-hint`}
              onChange={() => onChange(template)}
            />
            <span className="choice-text">
              <span id={`${id}-${template}`}>{t(`domains.templates.${template}.name`)}</span>
              <span id={`${id}-${template}-hint`} className="choice-hint">
                {t(`domains.templates.${template}.description`)}
              </span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Monetization: none for now; ads and affiliate are shown as coming soon and cannot be picked. */
export function MonetizationChoices({
  value,
  onChange,
}: {
  value: string;
  onChange: (monetization: Monetization) => void;
}) {
  const { t } = useI18n();
  return (
    <fieldset className="choice-group park-fieldset">
      <legend className="field-label">{t('domains.park.monetizationLabel')}</legend>
      <div className="choice-list">
        {MONETIZATION_OPTIONS.map((option) => {
          const comingSoon = COMING_SOON_MONETIZATION.includes(option);
          return (
            <label key={option} className="choice">
              <input
                type="radio"
                name="monetization"
                value={option}
                checked={value === option}
                disabled={comingSoon}
                onChange={() => onChange(option)}
              />
              <span className="choice-text">
                {t(`domains.monetization.${option}`)}
                {comingSoon && <span className="badge">{t('common.comingSoon')}</span>}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
