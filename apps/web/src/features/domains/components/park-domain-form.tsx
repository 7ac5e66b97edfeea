import { useId, useState, type FormEvent } from 'react';
import type { ParkedDomain } from '@mirror/contract';
import { FormField } from '../../../components/ui/form-field';
import { Spinner } from '../../../components/ui/spinner';
import { hasErrors, useValidatedForm } from '../../../hooks/use-validated-form';
import { getErrorMessage } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { parkDomain } from '../api/domain-api';
import { EXAMPLE_DOMAIN } from '../../../lib/domain-name';
import { INITIAL_PARK_VALUES, toParkBody, validatePark } from '../utils/park-form';
import { MonetizationChoices, TemplateChoices } from './parking-choices';

/**
 * SPEC §2 park-domain form: domain name, parking page template, custom HTML (custom template only)
 * and monetization (ads and affiliate coming soon). Submit stays disabled while the form is invalid
 * or the call is running (SPEC §5).
 */
export function ParkDomainForm({ onParked }: { onParked: (record: ParkedDomain) => void }) {
  const { t } = useI18n();
  const form = useValidatedForm(INITIAL_PARK_VALUES, validatePark);
  const { values, errors } = form;
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const contentId = useId();
  const isCustom = values.template === 'custom';
  const invalid = hasErrors(form.allErrors);

  const set = (name: 'template' | 'content' | 'monetization', value: string) =>
    form.setValues((current) => ({ ...current, [name]: value }));

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    form.touchAll();
    if (invalid || submitting) return;
    setSubmitting(true);
    setFailure(null);
    try {
      const record = await parkDomain(toParkBody(values));
      notify.success(t('domains.park.success', { domain: record.domain }));
      onParked(record);
    } catch (error) {
      const message = getErrorMessage(error, t('domains.park.failed'));
      setFailure(message);
      notify.error(message);
    } finally {
      setSubmitting(false);
    }
  };

  const contentError = errors.content && t(errors.content);

  return (
    <form className="park-form" noValidate onSubmit={(event) => void handleSubmit(event)}>
      {failure && (
        <p className="alert alert-error" role="alert">
          {failure}
        </p>
      )}
      <FormField
        {...form.field('domain')}
        error={errors.domain && t(errors.domain, { host: EXAMPLE_DOMAIN })}
        label={t('domains.park.domainLabel')}
        placeholder={EXAMPLE_DOMAIN}
        hint={t('domains.park.domainHint')}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        inputMode="url"
        dir="ltr"
        required
      />

      <TemplateChoices value={values.template} onChange={(value) => set('template', value)} />

      {isCustom && (
        <div className="field">
          <label className="field-label" htmlFor={contentId}>
            {t('domains.park.contentLabel')}
          </label>
          <textarea
            id={contentId}
            name="content"
            className="input textarea park-html"
            rows={8}
            dir="ltr"
            spellCheck={false}
            placeholder={t('domains.park.contentPlaceholder')}
            value={values.content}
            aria-invalid={contentError ? true : undefined}
            aria-describedby={contentError ? `${contentId}-error` : `${contentId}-hint`}
            onChange={(event) => set('content', event.target.value)}
            onBlur={() => form.touch('content')}
          />
          {contentError ? (
            <p id={`${contentId}-error`} className="field-error">
              {contentError}
            </p>
          ) : (
            <p id={`${contentId}-hint`} className="field-hint">
              {t('domains.park.contentHint')}
            </p>
          )}
        </div>
      )}

      <MonetizationChoices
        value={values.monetization}
        onChange={(value) => set('monetization', value)}
      />

      <div className="form-actions">
        <button
          type="submit"
          className="button button-primary"
          disabled={invalid || submitting}
          aria-busy={submitting || undefined}
        >
          {submitting && <Spinner />}
          {submitting ? t('domains.park.submitting') : t('domains.park.submit')}
        </button>
      </div>
    </form>
  );
}
