import { useId, useState, type FormEvent } from 'react';
import {
  ASKING_PRICE_MAX_USD,
  LOCALES,
  PARKING_MESSAGE_MAX_LENGTH,
  type LocaleCode,
  type Monetization,
  type ParkedDomain,
  type ParkingTemplate,
  type UpdateParkedDomainBody,
} from '@mirror/contract';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { Switch } from '../../../components/ui/switch';
import { getErrorMessage } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { updateParkedDomain } from '../api/domain-api';
import { validateCustomHtml } from '../utils/park-form';
import { MonetizationChoices, TemplateChoices } from './parking-choices';
import { ParkingPreviews } from './parking-previews';

interface Values {
  template: ParkingTemplate;
  content: string;
  /** '' follows the owner's language setting. */
  language: LocaleCode | '';
  message: string;
  monetization: Monetization;
  forSale: boolean;
  askingPrice: string;
}

type Field = 'content' | 'message' | 'askingPrice';

function valuesOf(record: ParkedDomain): Values {
  return {
    template: record.template,
    content: record.content ?? '',
    language: record.language ?? '',
    message: record.message ?? '',
    monetization: record.monetization,
    forSale: record.forSale,
    askingPrice: record.askingPrice === null ? '' : String(record.askingPrice),
  };
}

/** i18n keys of the failing rules. */
function validate(values: Values): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  const content = validateCustomHtml(values.template, values.content);
  if (content) errors.content = content;
  if (values.message.trim().length > PARKING_MESSAGE_MAX_LENGTH) {
    errors.message = 'domains.validation.messageTooLong';
  }
  if (values.forSale) {
    const price = Number(values.askingPrice);
    if (values.askingPrice.trim() === '') errors.askingPrice = 'domains.validation.priceRequired';
    else if (!Number.isInteger(price) || price < 1 || price > ASKING_PRICE_MAX_USD) {
      errors.askingPrice = 'domains.validation.priceInvalid';
    }
  }
  return errors;
}

function toBody(values: Values): UpdateParkedDomainBody {
  return {
    template: values.template,
    content: values.template === 'custom' ? values.content : null,
    language: values.language === '' ? null : values.language,
    message: values.message.trim() === '' ? null : values.message.trim(),
    monetization: values.monetization,
    forSale: values.forSale,
    askingPrice: values.forSale ? Number(values.askingPrice) : null,
  };
}

/**
 * The parking page of a parked domain: template, custom HTML, language, a short message, and the
 * "for sale" option with its asking price (`PUT /domains/park/{id}`).
 */
export function ParkingSettings({
  record,
  onSaved,
}: {
  record: ParkedDomain;
  onSaved: (record: ParkedDomain) => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const [values, setValues] = useState<Values>(() => valuesOf(record));
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [saving, setSaving] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const allErrors = validate(values);
  const invalid = Object.keys(allErrors).length > 0;
  const errorOf = (field: Field) => {
    const key = touched[field] ? allErrors[field] : undefined;
    return key ? t(key, { max: PARKING_MESSAGE_MAX_LENGTH }) : undefined;
  };
  const touch = (field: Field) => setTouched((current) => ({ ...current, [field]: true }));
  const set = <K extends keyof Values>(name: K, value: Values[K]) =>
    setValues((current) => ({ ...current, [name]: value }));

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched({ content: true, message: true, askingPrice: true });
    if (invalid || saving) return;
    setSaving(true);
    try {
      const saved = await updateParkedDomain(record.id, toBody(values));
      onSaved(saved);
      setValues(valuesOf(saved));
      notify.success(t('domains.settings.saved'));
    } catch (error) {
      notify.error(getErrorMessage(error, t('domains.settings.failed')));
    } finally {
      setSaving(false);
    }
  };

  const contentError = errorOf('content');
  const messageError = errorOf('message');
  const priceError = errorOf('askingPrice');

  return (
    <Panel title={t('domains.settings.title')} description={t('domains.settings.description')}>
      <form className="park-form" noValidate onSubmit={(event) => void handleSubmit(event)}>
        <TemplateChoices value={values.template} onChange={(value) => set('template', value)} />
        <div>
          <button
            type="button"
            className="button button-outline"
            aria-expanded={previewing}
            onClick={() => setPreviewing((open) => !open)}
          >
            {t('domains.settings.previewOpen')}
          </button>
        </div>
        {previewing && (
          <ParkingPreviews
            key={record.updatedAt}
            record={record}
            chosen={values.template}
            onChoose={(template) => set('template', template)}
          />
        )}

        {values.template === 'custom' && (
          <div className="field">
            <label className="field-label" htmlFor={`${id}-content`}>
              {t('domains.park.contentLabel')}
            </label>
            <textarea
              id={`${id}-content`}
              className="input textarea park-html"
              rows={10}
              dir="ltr"
              spellCheck={false}
              value={values.content}
              aria-invalid={contentError ? true : undefined}
              aria-describedby={contentError ? `${id}-content-error` : `${id}-content-hint`}
              onChange={(event) => set('content', event.target.value)}
              onBlur={() => touch('content')}
            />
            {contentError ? (
              <p id={`${id}-content-error`} className="field-error">
                {contentError}
              </p>
            ) : (
              <p id={`${id}-content-hint`} className="field-hint">
                {t('domains.park.contentHint')}
              </p>
            )}
          </div>
        )}

        {values.template !== 'custom' && (
          <div className="field-grid">
            <div className="field">
              <label className="field-label" htmlFor={`${id}-language`}>
                {t('domains.settings.language')}
              </label>
              <select
                id={`${id}-language`}
                className="input select"
                value={values.language}
                onChange={(event) => set('language', event.target.value as Values['language'])}
              >
                <option value="">{t('domains.settings.languageOwner')}</option>
                {LOCALES.map((locale) => (
                  <option key={locale.code} value={locale.code}>
                    {locale.nativeName}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label className="field-label" htmlFor={`${id}-message`}>
                {t('domains.settings.message')}
              </label>
              <input
                id={`${id}-message`}
                className="input"
                value={values.message}
                maxLength={PARKING_MESSAGE_MAX_LENGTH}
                placeholder={t('domains.settings.messagePlaceholder')}
                aria-invalid={messageError ? true : undefined}
                aria-describedby={messageError ? `${id}-message-error` : undefined}
                onChange={(event) => set('message', event.target.value)}
                onBlur={() => touch('message')}
              />
              {messageError && (
                <p id={`${id}-message-error`} className="field-error">
                  {messageError}
                </p>
              )}
            </div>
          </div>
        )}

        <MonetizationChoices
          value={values.monetization}
          onChange={(value) => set('monetization', value)}
        />

        <Switch
          label={t('domains.settings.forSale')}
          description={t('domains.settings.forSaleHint')}
          checked={values.forSale}
          onChange={(on) => set('forSale', on)}
        />
        {values.forSale && (
          <div className="field park-price">
            <label className="field-label" htmlFor={`${id}-price`}>
              {t('domains.settings.askingPrice')}
            </label>
            <input
              id={`${id}-price`}
              className="input"
              type="number"
              inputMode="numeric"
              min={1}
              max={ASKING_PRICE_MAX_USD}
              step={1}
              value={values.askingPrice}
              aria-invalid={priceError ? true : undefined}
              aria-describedby={priceError ? `${id}-price-error` : undefined}
              onChange={(event) => set('askingPrice', event.target.value)}
              onBlur={() => touch('askingPrice')}
            />
            {priceError && (
              <p id={`${id}-price-error`} className="field-error">
                {priceError}
              </p>
            )}
          </div>
        )}

        <div className="form-actions">
          <button
            type="submit"
            className="button button-primary"
            disabled={invalid || saving}
            aria-busy={saving || undefined}
          >
            {saving && <Spinner />}
            {saving ? t('domains.settings.saving') : t('domains.settings.save')}
          </button>
        </div>
      </form>
    </Panel>
  );
}
