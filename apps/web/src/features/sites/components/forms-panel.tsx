import {
  useInfiniteQuery,
  useQuery,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  FORM_NOTIFY,
  FormSettingsInput,
  type FormNotify,
  type FormSubmission,
  type FormSubmissionList,
  type SiteFormList,
  type SiteFormSummary,
} from '@mirror/contract';
import { queryKeys } from '../../../api/query-keys';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Panel } from '../../../components/ui/panel';
import { QueryStatus } from '../../../components/ui/query-status';
import { Switch } from '../../../components/ui/switch';
import { paths } from '../../../config/paths';
import { getErrorMessage } from '../../../lib/api-client';
import { countText } from '../../../lib/fidelity';
import { formatAgo, formatBytes, formatDateTime, formatNumber } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { saveBlob } from '../../../lib/save-blob';
import { notify } from '../../../lib/toast';
import {
  deleteSubmission,
  downloadSubmissionFile,
  downloadSubmissionsCsv,
  getForms,
  getSubmissions,
  markSubmission,
  resendRecipientConfirmation,
  updateForm,
  type SubmissionView,
} from '../api/form-api';
import './forms-panel.css';

/** Refusals of login and payment forms: they stay with the original site, whatever the owner sets. */
const NEVER_CAPTURED = new Set(['password', 'card-number', 'payment-service', 'account']);
/** Why a submission was put with spam, each with its sentence under `site.forms.submissions.why`. */
const SPAM_REASONS = new Set(['honeypot', 'too-fast', 'links', 'owner']);

type Translate = ReturnType<typeof useI18n>['t'];

/** What the owner calls a form: its label (its id, or its button's words), else its id. */
const nameOf = (form: SiteFormSummary) =>
  form.label && form.label !== form.kind ? form.label : form.id;

/** "Sends to {action}" with `value` kept left-to-right inside a sentence of any direction. */
function withLtr(text: (marker: string) => string, value: string) {
  const [before = '', after = ''] = text('\u0000').split('\u0000');
  return (
    <>
      {before}
      <bdi dir="ltr">{value}</bdi>
      {after}
    </>
  );
}

/**
 * Forms of a site (issue 34): the forms found on the live copy, which of them the copy takes
 * submissions of and how the owner hears of them, within the plan's submissions a month, and the
 * submissions themselves (inbox and spam).
 */
export function FormsPanel({ siteId }: { siteId: string }) {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const key = queryKeys.sites.forms(siteId);
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => getForms(siteId, signal) });

  const replaceForm = (saved: SiteFormSummary) =>
    queryClient.setQueryData<SiteFormList>(key, (list) =>
      list ? { ...list, forms: list.forms.map((f) => (f.key === saved.key ? saved : f)) } : list,
    );

  const list = query.data;
  const full = list ? list.usage.used >= list.usage.limit : false;
  const foundId = useId();
  return (
    <Panel title={t('site.forms.title')} description={t('site.forms.description')}>
      <QueryStatus query={query} queryKey={key} failed={t('site.forms.loadFailed')} />
      {list && (
        <div className="forms">
          <p className="forms-usage" data-testid="forms-usage">
            {t('site.forms.usage', {
              used: formatNumber(locale, list.usage.used),
              limit: formatNumber(locale, list.usage.limit),
            })}
          </p>
          {full && (
            <p className="field-hint forms-full">
              {t('site.forms.usageFull')}{' '}
              <Link to={paths.billing.getHref()}>{t('site.sync.upgradeLink')}</Link>
            </p>
          )}
          <section className="forms-found" aria-labelledby={foundId}>
            <h3 id={foundId} className="forms-subtitle">
              {t('site.forms.found')}
            </h3>
            {list.forms.length === 0 ? (
              <p className="site-muted">{t('site.forms.empty')}</p>
            ) : (
              <ul className="site-form-list">
                {list.forms.map((form) => (
                  <FormItem key={form.key} siteId={siteId} form={form} onSaved={replaceForm} />
                ))}
              </ul>
            )}
          </section>
          <Submissions siteId={siteId} forms={list.forms} />
        </div>
      )}
    </Panel>
  );
}

/** What the copy does with a form, in a word. */
function stateOf(form: SiteFormSummary): 'captured' | 'off' | 'refused' | 'not-captured' {
  if (form.captured) return form.enabled ? 'captured' : 'off';
  return form.refusal && NEVER_CAPTURED.has(form.refusal) ? 'refused' : 'not-captured';
}

function FormItem({
  siteId,
  form,
  onSaved,
}: {
  siteId: string;
  form: SiteFormSummary;
  onSaved: (saved: SiteFormSummary) => void;
}) {
  const { t, locale } = useI18n();
  const headingId = useId();
  const state = stateOf(form);
  const firstPage = form.pages[0] ?? '/';
  const name = nameOf(form);
  return (
    <li className="site-form" data-testid="site-form" data-state={state}>
      <div className="site-form-head">
        <h4 id={headingId} className="site-form-name">
          {t(`site.forms.kinds.${form.kind}`)} <bdi className="site-form-label">{name}</bdi>
        </h4>
        <span className="badge site-form-state" data-state={state}>
          {t(`site.forms.state.${state}`)}
        </span>
      </div>
      <p className="site-form-meta">
        {name !== form.id && (
          <span className="site-form-id">
            {withLtr((id) => t('site.forms.id', { id }), form.id)}
          </span>
        )}
        <span>
          {withLtr(
            (page) => countText(t, locale, 'site.forms.pages', form.pageCount, { page }),
            firstPage,
          )}
        </span>
      </p>
      {form.captured ? (
        <>
          <p className="site-form-meta">
            <span>
              {t('site.forms.counts', {
                count: formatNumber(locale, form.submissions),
                spam: formatNumber(locale, form.spam),
              })}
            </span>
            {form.lastSubmissionAt && (
              <time
                dateTime={form.lastSubmissionAt}
                title={formatDateTime(locale, form.lastSubmissionAt)}
              >
                {t('site.forms.last', { ago: formatAgo(locale, form.lastSubmissionAt) })}
              </time>
            )}
          </p>
          {form.method === 'GET' && (
            // Taken without `method=post`: the page's own script sends it (docs/forms.md).
            <p className="site-form-reason" data-testid="form-reason">
              {t('site.forms.reason.script')}
            </p>
          )}
          <FormSettings siteId={siteId} form={form} labelledBy={headingId} onSaved={onSaved} />
        </>
      ) : (
        <p className="site-form-reason" data-testid="form-reason">
          {reasonText(t, form)}
        </p>
      )}
    </li>
  );
}

/** Why the copy does not take a form's submissions. */
function reasonText(t: Translate, form: SiteFormSummary) {
  if (form.refusal && NEVER_CAPTURED.has(form.refusal)) return t('site.forms.reason.never');
  if (form.refusal === 'dialog' || !form.action) return t('site.forms.reason.dialog');
  return withLtr((action) => t('site.forms.reason.elsewhere', { action }), form.action);
}

/** A captured form's settings: on or off and how to be told save at once, the address on Save. */
function FormSettings({
  siteId,
  form,
  labelledBy,
  onSaved,
}: {
  siteId: string;
  form: SiteFormSummary;
  labelledBy: string;
  onSaved: (saved: SiteFormSummary) => void;
}) {
  const { t } = useI18n();
  const [redirect, setRedirect] = useState(form.redirectUrl ?? '');
  const [redirectError, setRedirectError] = useState<string | null>(null);
  const [webhook, setWebhook] = useState(form.webhookUrl ?? '');
  const [webhookError, setWebhookError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  /** What is being saved: an address (its button says so) or another setting. */
  const [saving, setSaving] = useState<'redirect' | 'webhook' | 'setting' | null>(null);
  const notifyId = useId();
  const redirectId = useId();
  const webhookId = useId();

  const save = async (
    change: Partial<FormSettingsInput>,
    what: 'redirect' | 'webhook' | 'setting',
  ) => {
    const input: FormSettingsInput = {
      enabled: form.enabled,
      redirectUrl: form.redirectUrl,
      notify: form.notify,
      ...change,
    };
    setSaving(what);
    setFailure(null);
    try {
      const saved = await updateForm(siteId, form.key, input);
      onSaved(saved);
      setRedirect(saved.redirectUrl ?? '');
      setWebhook(saved.webhookUrl ?? '');
      notify.success(t('site.forms.saved', { form: nameOf(form) }));
    } catch (error) {
      setFailure(getErrorMessage(error, t('site.forms.saveFailed')));
    } finally {
      setSaving(null);
    }
  };

  const handleRedirect = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = redirect.trim();
    const checked = FormSettingsInput.shape.redirectUrl.safeParse(value || null);
    if (!checked.success) {
      setRedirectError(t('site.forms.errors.redirect'));
      document.getElementById(redirectId)?.focus();
      return;
    }
    setRedirectError(null);
    void save({ redirectUrl: checked.data }, 'redirect');
  };

  const handleWebhook = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = webhook.trim();
    const checked = FormSettingsInput.shape.webhookUrl.safeParse(value || null);
    if (!checked.success) {
      setWebhookError(t('site.forms.errors.webhook'));
      document.getElementById(webhookId)?.focus();
      return;
    }
    setWebhookError(null);
    void save({ webhookUrl: checked.data ?? null }, 'webhook');
  };
  return (
    <div className="site-form-settings" role="group" aria-labelledby={labelledBy}>
      {failure && (
        <p className="alert alert-error" role="alert">
          {failure}
        </p>
      )}
      <Switch
        label={t('site.forms.enabled')}
        description={t('site.forms.enabledHint')}
        checked={form.enabled}
        disabled={saving !== null}
        onChange={(enabled) => void save({ enabled }, 'setting')}
      />
      <div className="field">
        <label className="field-label" htmlFor={notifyId}>
          {t('site.forms.notify')}
        </label>
        <select
          id={notifyId}
          className="input select"
          value={form.notify}
          disabled={saving !== null}
          onChange={(event) => void save({ notify: event.target.value as FormNotify }, 'setting')}
        >
          {FORM_NOTIFY.map((option) => (
            <option key={option} value={option}>
              {t(`site.forms.notifyOptions.${option}`)}
            </option>
          ))}
        </select>
      </div>
      <Recipient
        siteId={siteId}
        form={form}
        disabled={saving !== null}
        onRemove={() => void save({ recipient: null }, 'setting')}
        onSaved={onSaved}
      />
      <AddressForm
        id={redirectId}
        label={t('site.forms.redirect')}
        hint={t('site.forms.redirectHint')}
        placeholder="/thanks"
        value={redirect}
        error={redirectError}
        saving={saving === 'redirect'}
        disabled={saving !== null}
        button={t('site.forms.saveRedirect')}
        onChange={setRedirect}
        onSubmit={handleRedirect}
      />
      <AddressForm
        id={webhookId}
        label={t('site.forms.webhook')}
        hint={t('site.forms.webhookHint')}
        placeholder="https://"
        value={webhook}
        error={webhookError}
        saving={saving === 'webhook'}
        disabled={saving !== null}
        button={t('site.forms.saveWebhook')}
        onChange={setWebhook}
        onSubmit={handleWebhook}
      />
      {form.webhookSecret && (
        <p className="site-form-secret">
          {t('site.forms.webhookSecret')} <code dir="ltr">{form.webhookSecret}</code>
        </p>
      )}
    </div>
  );
}

/**
 * Where the form's mails go: the owner's address, or the one a published edit gave it ("send the
 * contact form to sales@…"), which gets them only once it confirms. The owner may ask it again
 * or take it back; a new one comes from an instruction, reviewed in a draft like every edit.
 */
function Recipient({
  siteId,
  form,
  disabled,
  onRemove,
  onSaved,
}: {
  siteId: string;
  form: SiteFormSummary;
  disabled: boolean;
  onRemove: () => void;
  onSaved: (saved: SiteFormSummary) => void;
}) {
  const { t } = useI18n();
  const [sending, setSending] = useState(false);
  const recipient = form.recipient;
  if (!recipient)
    return <p className="field-hint site-form-recipient">{t('site.forms.recipient.none')}</p>;

  const handleResend = async () => {
    setSending(true);
    try {
      onSaved(await resendRecipientConfirmation(siteId, form.key));
      notify.success(t('site.forms.recipient.resent', { email: recipient.email }));
    } catch (error) {
      notify.error(getErrorMessage(error, t('site.forms.recipient.resendFailed')));
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="site-form-recipient" data-status={recipient.status}>
      <p className="field-label">{t('site.forms.recipient.title')}</p>
      <p>
        {withLtr(
          (email) => t(`site.forms.recipient.${recipient.status}`, { email }),
          recipient.email,
        )}
      </p>
      <div className="site-form-recipient-actions">
        {recipient.status === 'pending' && (
          <button
            type="button"
            className="button button-outline"
            disabled={disabled || sending}
            aria-busy={sending || undefined}
            onClick={() => void handleResend()}
          >
            {sending ? t('site.forms.recipient.resending') : t('site.forms.recipient.resend')}
          </button>
        )}
        <button
          type="button"
          className="button button-outline"
          disabled={disabled || sending}
          onClick={onRemove}
        >
          {t('site.forms.recipient.remove')}
        </button>
      </div>
    </div>
  );
}

/** An address of a form's settings (where visitors go after, the webhook), saved on Save. */
function AddressForm({
  id,
  label,
  hint,
  placeholder,
  value,
  error,
  saving,
  disabled,
  button,
  onChange,
  onSubmit,
}: {
  id: string;
  label: string;
  hint: string;
  placeholder: string;
  value: string;
  error: string | null;
  saving: boolean;
  disabled: boolean;
  button: string;
  onChange: (value: string) => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  const { t } = useI18n();
  return (
    <form className="site-form-redirect" noValidate onSubmit={onSubmit}>
      <div className="field">
        <label className="field-label" htmlFor={id}>
          {label}
        </label>
        <div className="site-form-redirect-row">
          <input
            id={id}
            className="input"
            type="text"
            inputMode="url"
            dir="ltr"
            autoCapitalize="none"
            autoComplete="off"
            spellCheck={false}
            placeholder={placeholder}
            maxLength={2000}
            value={value}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : `${id}-hint`}
            onChange={(event) => onChange(event.target.value)}
          />
          <button
            type="submit"
            className="button button-outline"
            disabled={disabled}
            aria-busy={saving || undefined}
          >
            {saving ? t('site.forms.saving') : button}
          </button>
        </div>
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
    </form>
  );
}

type Pages = InfiniteData<FormSubmissionList, string | null>;

/** The submissions of the site's forms, the newest first: filtered, searched, inbox or spam. */
function Submissions({ siteId, forms }: { siteId: string; forms: SiteFormSummary[] }) {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const [form, setForm] = useState('');
  const [draft, setDraft] = useState('');
  const [q, setQ] = useState('');
  const [spam, setSpam] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const [deleting, setDeleting] = useState<FormSubmission | null>(null);
  const view: SubmissionView = { form, q, spam };
  const key = queryKeys.sites.formSubmissions(siteId, view);
  const query = useInfiniteQuery({
    queryKey: key,
    queryFn: ({ signal, pageParam }) => getSubmissions(siteId, view, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextBefore,
  });
  const headingId = useId();
  const formSelectId = useId();
  const searchId = useId();

  /** Takes a submission out of this view; the forms' counts and the month's usage are read again. */
  const removeShown = (id: string) => {
    queryClient.setQueryData<Pages>(key, (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              submissions: page.submissions.filter((s) => s.id !== id),
            })),
          }
        : data,
    );
    // The other box (inbox or spam) shows it, or no longer does, when it is opened again.
    void queryClient.invalidateQueries({
      queryKey: queryKeys.sites.formSubmissionsAll(siteId),
      refetchType: 'none',
    });
    void queryClient.invalidateQueries({ queryKey: queryKeys.sites.forms(siteId) });
  };

  const handleMove = async (submission: FormSubmission) => {
    setBusy(submission.id);
    try {
      await markSubmission(siteId, submission.id, !submission.spam);
      removeShown(submission.id);
      notify.success(
        t(
          submission.spam
            ? 'site.forms.submissions.movedToInbox'
            : 'site.forms.submissions.movedToSpam',
        ),
      );
    } catch (error) {
      notify.error(getErrorMessage(error, t('site.forms.submissions.moveFailed')));
    } finally {
      setBusy(null);
    }
  };

  const handleDelete = async (submission: FormSubmission) => {
    setDeleting(null);
    setBusy(submission.id);
    try {
      await deleteSubmission(siteId, submission.id);
      removeShown(submission.id);
      notify.success(t('site.forms.submissions.deleted'));
    } catch (error) {
      notify.error(getErrorMessage(error, t('site.forms.submissions.deleteFailed')));
    } finally {
      setBusy(null);
    }
  };

  const handleExport = async () => {
    setExporting(true);
    try {
      const name = `form-submissions-${siteId}${spam ? '-spam' : ''}.csv`;
      saveBlob(await downloadSubmissionsCsv(siteId, { form, spam }), name);
    } catch (error) {
      notify.error(getErrorMessage(error, t('site.forms.submissions.exportFailed')));
    } finally {
      setExporting(false);
    }
  };

  const handleSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setQ(draft.trim());
  };

  // Forms that take submissions, and any other that has some (taken before it changed).
  const choices = forms.filter((f) => f.captured || f.submissions + f.spam > 0);
  const names = new Map(forms.map((f) => [f.key, nameOf(f)]));
  const submissions = query.data?.pages.flatMap((page) => page.submissions) ?? [];
  const emptyText =
    q || form
      ? t('site.forms.submissions.noMatch')
      : spam
        ? t('site.forms.submissions.emptySpam')
        : t('site.forms.submissions.empty');
  return (
    <section className="form-submissions" aria-labelledby={headingId}>
      <div className="forms-head">
        <h3 id={headingId} className="forms-subtitle">
          {t('site.forms.submissions.title')}
        </h3>
        <button
          type="button"
          className="button button-outline"
          disabled={exporting}
          aria-busy={exporting || undefined}
          onClick={() => void handleExport()}
        >
          {exporting ? t('site.forms.submissions.exporting') : t('site.forms.submissions.export')}
        </button>
      </div>
      <div className="submission-filters">
        <div className="field submission-filter-form">
          <label className="field-label" htmlFor={formSelectId}>
            {t('site.forms.submissions.form')}
          </label>
          <select
            id={formSelectId}
            className="input select"
            value={form}
            onChange={(event) => setForm(event.target.value)}
          >
            <option value="">{t('site.forms.submissions.allForms')}</option>
            {choices.map((choice) => (
              <option key={choice.key} value={choice.key}>
                {t('site.forms.submissions.formOption', {
                  kind: t(`site.forms.kinds.${choice.kind}`),
                  name: nameOf(choice),
                })}
              </option>
            ))}
          </select>
        </div>
        <form className="field submission-search" role="search" onSubmit={handleSearch}>
          <label className="field-label" htmlFor={searchId}>
            {t('site.forms.submissions.search')}
          </label>
          <div className="submission-search-row">
            <input
              id={searchId}
              className="input"
              type="search"
              maxLength={200}
              value={draft}
              onChange={(event) => {
                setDraft(event.target.value);
                // Emptied (the search field's own clear button): every submission again.
                if (!event.target.value) setQ('');
              }}
            />
            <button type="submit" className="button button-outline">
              {t('site.forms.submissions.searchButton')}
            </button>
          </div>
        </form>
        <div
          className="segmented submission-box"
          role="group"
          aria-label={t('site.forms.submissions.box')}
        >
          {[false, true].map((option) => (
            <button
              key={String(option)}
              type="button"
              className="segmented-option"
              aria-pressed={spam === option}
              onClick={() => setSpam(option)}
            >
              {option ? t('site.forms.submissions.spam') : t('site.forms.submissions.inbox')}
            </button>
          ))}
        </div>
      </div>
      <QueryStatus query={query} queryKey={key} failed={t('site.forms.submissions.loadFailed')} />
      {query.isSuccess && submissions.length === 0 && <p className="site-muted">{emptyText}</p>}
      {submissions.length > 0 && (
        <ol className="submission-list">
          {submissions.map((submission) => (
            <SubmissionItem
              key={submission.id}
              siteId={siteId}
              submission={submission}
              formName={names.get(submission.formKey) ?? submission.formLabel}
              busy={busy === submission.id}
              onMove={() => void handleMove(submission)}
              onDelete={() => setDeleting(submission)}
            />
          ))}
        </ol>
      )}
      {query.hasNextPage && (
        <button
          type="button"
          className="button button-outline submission-more"
          disabled={query.isFetchingNextPage}
          aria-busy={query.isFetchingNextPage || undefined}
          onClick={() => void query.fetchNextPage()}
        >
          {query.isFetchingNextPage
            ? t('site.forms.submissions.loadingMore')
            : t('site.forms.submissions.loadMore')}
        </button>
      )}
      {deleting && (
        <ConfirmDialog
          danger
          title={t('site.forms.submissions.confirmTitle')}
          message={t('site.forms.submissions.confirmMessage', {
            date: formatDateTime(locale, deleting.createdAt),
          })}
          confirmLabel={t('site.forms.submissions.confirm')}
          cancelLabel={t('site.forms.submissions.keep')}
          onConfirm={() => void handleDelete(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </section>
  );
}

function SubmissionItem({
  siteId,
  submission,
  formName,
  busy,
  onMove,
  onDelete,
}: {
  siteId: string;
  submission: FormSubmission;
  formName: string;
  busy: boolean;
  onMove: () => void;
  onDelete: () => void;
}) {
  const { t, locale } = useI18n();
  const date = formatDateTime(locale, submission.createdAt);
  const reason =
    submission.spam && submission.spamReason && SPAM_REASONS.has(submission.spamReason)
      ? t(`site.forms.submissions.why.${submission.spamReason}`)
      : null;

  const handleFile = async (index: number, name: string) => {
    try {
      saveBlob(await downloadSubmissionFile(siteId, submission.id, index), name);
    } catch (error) {
      notify.error(getErrorMessage(error, t('site.forms.submissions.fileFailed')));
    }
  };

  return (
    <li className="submission" data-testid="submission">
      <div className="submission-head">
        <time dateTime={submission.createdAt}>{date}</time>
        <span className="submission-meta">
          <span>{withLtr((form) => t('site.forms.submissions.fromForm', { form }), formName)}</span>
          {submission.page && (
            <span>
              {withLtr((page) => t('site.forms.submissions.fromPage', { page }), submission.page)}
            </span>
          )}
        </span>
      </div>
      {reason && <p className="submission-why">{reason}</p>}
      {submission.fields.length > 0 && (
        <dl className="submission-fields">
          {submission.fields.map((field, i) => (
            <div key={i}>
              <dt dir="auto">{field.name}</dt>
              <dd dir="auto">
                {field.value === '' ? (
                  <span className="site-muted">{t('site.forms.submissions.emptyValue')}</span>
                ) : (
                  field.value
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {submission.files.length > 0 && (
        <ul className="submission-files" aria-label={t('site.forms.submissions.files')}>
          {submission.files.map((file, index) => (
            <li key={index}>
              <button
                type="button"
                className="link-button"
                aria-label={t('site.forms.submissions.fileLabel', { name: file.name })}
                onClick={() => void handleFile(index, file.name)}
              >
                <bdi>{file.name}</bdi>
              </button>{' '}
              <span className="submission-file-size">{formatBytes(locale, file.size)}</span>
            </li>
          ))}
        </ul>
      )}
      <div className="submission-actions">
        <button
          type="button"
          className="button button-outline"
          disabled={busy}
          aria-label={t(
            submission.spam
              ? 'site.forms.submissions.notSpamLabel'
              : 'site.forms.submissions.markSpamLabel',
            { date },
          )}
          onClick={onMove}
        >
          {submission.spam
            ? t('site.forms.submissions.notSpam')
            : t('site.forms.submissions.markSpam')}
        </button>
        <button
          type="button"
          className="button button-outline-danger"
          disabled={busy}
          aria-label={t('site.forms.submissions.deleteLabel', { date })}
          onClick={onDelete}
        >
          {t('site.forms.submissions.delete')}
        </button>
      </div>
    </li>
  );
}
