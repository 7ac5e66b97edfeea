import { lazy, Suspense, useId, useRef, useState, type FormEvent } from 'react';
import {
  KEYWORD_WHEN,
  WATCH_EMAIL,
  WATCH_LIMITS,
  WATCH_SCOPES,
  type KeywordRule,
  type Watch,
  type WatchInput,
} from '@mirror/contract';
import { FormField } from '../../../components/ui/form-field';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { getErrorMessage } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import {
  EMPTY_WATCH_VALUES,
  validateWatch,
  valuesOf,
  type KeywordRow,
  type WatchField,
} from '../utils/watch-form';
import type { PickedPart } from './part-picker';

// The part picker comes with its first use: most watches are not of a part.
const PartPicker = lazy(async () => ({ default: (await import('./part-picker')).PartPicker }));

interface WatchFormDialogProps {
  /** The site watched: its live copy's pages are where a part is picked. */
  siteId: string;
  /** The watch to edit; absent to add one. */
  watch?: Watch;
  /** Saves the checked input; a rejection (a 400, the plan's 403) is shown in the form. */
  onSave: (input: WatchInput) => Promise<void>;
  onClose: () => void;
}

/**
 * Adds or edits a watch (issue 33): what to watch (the whole site, chosen pages, or one part of a
 * page), keywords, a minimum of changed words, and how to be told. Checked with the contract's
 * WatchInput, the server's own rules, before anything is sent.
 */
export function WatchFormDialog({ siteId, watch, onSave, onClose }: WatchFormDialogProps) {
  const { t } = useI18n();
  const formId = useId();
  const selectorId = useId();
  const pickerId = useId();
  const [picking, setPicking] = useState(false);
  const nextKey = useRef(watch?.keywords.length ?? 0);
  const [keywords, setKeywords] = useState<KeywordRow[]>(
    () => watch?.keywords.map((rule, key) => ({ ...rule, key })) ?? [],
  );
  const [keywordsTouched, setKeywordsTouched] = useState<ReadonlySet<number>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useValidatedForm<WatchField>(
    watch ? valuesOf(watch) : EMPTY_WATCH_VALUES,
    (current) => validateWatch(current, keywords, t).errors.fields,
  );
  const { values, errors } = form;
  const checked = validateWatch(values, keywords, t);
  const keywordErrors = checked.errors.keywords;

  const set = (name: WatchField, value: string) => {
    form.setValues((current) => ({ ...current, [name]: value }));
    setFailure(null);
  };

  const addKeyword = () => {
    setKeywords((rows) => [...rows, { key: nextKey.current++, text: '', when: 'appears' }]);
  };
  const changeKeyword = (key: number, change: Partial<KeywordRule>) => {
    setKeywords((rows) => rows.map((row) => (row.key === key ? { ...row, ...change } : row)));
    setFailure(null);
  };

  const pickerPath = values.pages.trim() || '/';
  const handlePick = (part: PickedPart) => {
    form.setValues((current) => ({
      ...current,
      pages: part.path,
      selector: part.selector,
      textFallback: part.text.slice(0, WATCH_LIMITS.fallbackChars),
    }));
    form.touch('selector');
    setFailure(null);
    setPicking(false);
    // Back to the field the pick filled (it stays in the form while the picker closes).
    document.getElementById(selectorId)?.focus();
  };

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    form.touchAll();
    setSubmitted(true);
    const { input } = checked;
    if (!input || saving) return;
    setSaving(true);
    setFailure(null);
    try {
      await onSave(input);
    } catch (error) {
      setFailure(getErrorMessage(error, t('site.watches.saveFailed')));
      setSaving(false);
    }
  };

  const scope = values.scope;
  return (
    <Modal
      title={watch ? t('site.watches.form.editTitle') : t('site.watches.form.addTitle')}
      description={t('site.watches.form.description')}
      onClose={onClose}
      footer={
        <div className="confirm-actions">
          <button type="button" className="button button-outline" onClick={onClose}>
            {t('site.watches.form.cancel')}
          </button>
          <button
            type="submit"
            form={formId}
            className="button button-primary"
            disabled={saving}
            aria-busy={saving || undefined}
          >
            {saving && <Spinner />}
            {saving ? t('site.watches.form.saving') : t('site.watches.form.save')}
          </button>
        </div>
      }
    >
      <form
        id={formId}
        className="watch-form"
        noValidate
        onSubmit={(event) => void handleSubmit(event)}
      >
        {failure && (
          <p className="alert alert-error" role="alert">
            {failure}
          </p>
        )}
        <FormField
          {...form.field('name')}
          label={t('site.watches.form.name')}
          placeholder={t('site.watches.form.namePlaceholder')}
          maxLength={WATCH_LIMITS.nameChars}
          autoComplete="off"
        />

        <fieldset className="choice-group field">
          <legend className="field-label">{t('site.watches.form.scope')}</legend>
          <div className="watch-scope-list">
            {WATCH_SCOPES.map((option) => (
              <label key={option} className="choice">
                <input
                  type="radio"
                  name="scope"
                  value={option}
                  checked={scope === option}
                  onChange={() => set('scope', option)}
                />
                <span className="choice-text">{t(`site.watches.scopes.${option}`)}</span>
              </label>
            ))}
          </div>
        </fieldset>

        {scope === 'pages' && (
          <TextAreaField
            name="pages"
            label={t('site.watches.form.pages')}
            hint={t('site.watches.form.pagesHint', { max: WATCH_LIMITS.pages })}
            value={values.pages}
            error={errors.pages}
            onChange={(value) => set('pages', value)}
            onBlur={() => form.touch('pages')}
          />
        )}
        {scope === 'part' && (
          <>
            <FormField
              {...form.field('pages')}
              label={t('site.watches.form.page')}
              hint={t('site.watches.form.pageHint')}
              placeholder="/pricing"
              dir="ltr"
              autoCapitalize="none"
              spellCheck={false}
              onChange={(event) => set('pages', event.target.value)}
            />
            <div className="watch-selector-row">
              <FormField
                {...form.field('selector')}
                id={selectorId}
                className="watch-selector"
                label={t('site.watches.form.selector')}
                hint={t('site.watches.form.selectorHint')}
                placeholder=".plan-pro .price"
                maxLength={WATCH_LIMITS.selectorChars}
                dir="ltr"
                autoCapitalize="none"
                spellCheck={false}
              />
              <button
                type="button"
                className="button button-outline watch-pick"
                aria-expanded={picking}
                aria-controls={picking ? pickerId : undefined}
                onClick={() => setPicking((open) => !open)}
              >
                {t('site.watches.picker.open')}
              </button>
            </div>
            {picking && (
              <div id={pickerId}>
                <Suspense
                  fallback={
                    <p className="part-picker-status" role="status">
                      <Spinner /> {t('site.watches.picker.loading')}
                    </p>
                  }
                >
                  <PartPicker
                    siteId={siteId}
                    path={pickerPath}
                    onPick={handlePick}
                    onClose={() => setPicking(false)}
                  />
                </Suspense>
              </div>
            )}
            <FormField
              {...form.field('textFallback')}
              label={t('site.watches.form.textFallback')}
              hint={t('site.watches.form.textFallbackHint')}
              maxLength={WATCH_LIMITS.fallbackChars}
            />
          </>
        )}

        <fieldset className="choice-group field watch-keywords">
          <legend className="field-label">{t('site.watches.form.keywords')}</legend>
          <p className="field-hint">
            {t('site.watches.form.keywordsHint', { max: WATCH_LIMITS.keywords })}
          </p>
          {keywords.map((row, index) => {
            const number = index + 1;
            const error =
              submitted || keywordsTouched.has(row.key) ? keywordErrors[index] : undefined;
            return (
              <div key={row.key} className="watch-keyword-row" data-testid="keyword-row">
                <FormField
                  className="watch-keyword-text"
                  label={t('site.watches.form.keyword', { number })}
                  value={row.text}
                  error={error}
                  maxLength={100}
                  autoComplete="off"
                  onChange={(event) => changeKeyword(row.key, { text: event.target.value })}
                  onBlur={() => setKeywordsTouched((touched) => new Set(touched).add(row.key))}
                />
                <SelectField
                  className="watch-keyword-when"
                  label={t('site.watches.form.when', { number })}
                  value={row.when}
                  options={KEYWORD_WHEN.map((when) => [when, t(`site.watches.when.${when}`)])}
                  onChange={(when) => changeKeyword(row.key, { when: when as KeywordRule['when'] })}
                />
                <button
                  type="button"
                  className="button button-outline watch-keyword-remove"
                  aria-label={t('site.watches.form.removeKeywordLabel', { number })}
                  onClick={() => setKeywords((rows) => rows.filter((r) => r.key !== row.key))}
                >
                  {t('site.watches.form.removeKeyword')}
                </button>
              </div>
            );
          })}
          <button
            type="button"
            className="button button-outline watch-add-keyword"
            disabled={keywords.length >= WATCH_LIMITS.keywords}
            onClick={addKeyword}
          >
            {t('site.watches.form.addKeyword')}
          </button>
        </fieldset>

        <FormField
          {...form.field('minWords')}
          type="number"
          inputMode="numeric"
          min={0}
          max={WATCH_LIMITS.maxMinWords}
          step={1}
          label={t('site.watches.form.minWords')}
          hint={t('site.watches.form.minWordsHint')}
        />
        <SelectField
          label={t('site.watches.form.email')}
          value={values.email}
          options={WATCH_EMAIL.map((email) => [email, t(`site.watches.email.${email}`)])}
          onChange={(email) => set('email', email)}
        />
        <FormField
          {...form.field('webhookUrl')}
          type="url"
          inputMode="url"
          label={t('site.watches.form.webhook')}
          hint={t('site.watches.form.webhookHint')}
          placeholder="https://hooks.example.com/mirror"
          dir="ltr"
          autoCapitalize="none"
          spellCheck={false}
        />
      </form>
    </Modal>
  );
}

function TextAreaField({
  name,
  label,
  hint,
  value,
  error,
  onChange,
  onBlur,
}: {
  name: string;
  label: string;
  hint: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
  onBlur: () => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        name={name}
        className="input textarea"
        rows={4}
        dir="ltr"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={'/pricing\n/blog'}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
      />
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
    </div>
  );
}

function SelectField({
  label,
  value,
  options,
  className,
  onChange,
}: {
  label: string;
  value: string;
  options: [value: string, label: string][];
  className?: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className={['field', className].filter(Boolean).join(' ')}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="input select"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
