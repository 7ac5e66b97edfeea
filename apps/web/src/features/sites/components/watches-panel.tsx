import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { Watch, WatchInput, WatchList, WebhookDelivery } from '@mirror/contract';
import { queryKeys } from '../../../api/query-keys';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Panel } from '../../../components/ui/panel';
import { QueryStatus } from '../../../components/ui/query-status';
import { paths } from '../../../config/paths';
import { getErrorMessage } from '../../../lib/api-client';
import { copyWithToast } from '../../../lib/clipboard';
import { countText } from '../../../lib/fidelity';
import { formatAgo, formatDateTime, formatNumber } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import {
  createWatch,
  deleteWatch,
  getWatches,
  getWebhookDeliveries,
  updateWatch,
} from '../api/watch-api';
import { WatchFormDialog } from './watch-form-dialog';
import './watches-panel.css';

/** The form open: a new watch, or the one being edited. */
type Editing = { watch?: Watch } | null;

/**
 * Watches of a site (issue 33): what of its change reports to be told about and how (email, a
 * signed webhook, the site's Atom feed), within the plan's number of watches, and the webhook
 * deliveries with their state.
 */
export function WatchesPanel({ siteId }: { siteId: string }) {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const key = queryKeys.sites.watches(siteId);
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => getWatches(siteId, signal) });
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Watch | null>(null);

  const update = (change: (list: WatchList) => WatchList) =>
    queryClient.setQueryData<WatchList>(key, (list) => (list ? change(list) : list));
  const refreshDeliveries = () =>
    queryClient.invalidateQueries({ queryKey: queryKeys.sites.webhookDeliveries(siteId) });

  const handleSave = async (input: WatchInput) => {
    const edited = editing?.watch;
    if (edited) {
      const saved = await updateWatch(siteId, edited.id, input);
      update((list) => ({
        ...list,
        watches: list.watches.map((w) => (w.id === saved.id ? saved : w)),
      }));
    } else {
      const saved = await createWatch(siteId, input);
      update((list) => ({ ...list, watches: [...list.watches, saved], used: list.used + 1 }));
    }
    setEditing(null);
    notify.success(t('site.watches.saved', { name: input.name }));
    void refreshDeliveries();
  };

  const handleDelete = async (watch: Watch) => {
    setDeleting(null);
    try {
      await deleteWatch(siteId, watch.id);
      update((list) => ({
        ...list,
        watches: list.watches.filter((w) => w.id !== watch.id),
        used: Math.max(0, list.used - 1),
      }));
      notify.success(t('site.watches.deleted', { name: watch.name }));
    } catch (error) {
      notify.error(getErrorMessage(error, t('site.watches.deleteFailed')));
    }
  };

  const list = query.data;
  const atLimit = list ? list.used >= list.limit : false;
  const limitHintId = useId();
  return (
    <Panel title={t('site.watches.title')} description={t('site.watches.description')}>
      <QueryStatus query={query} queryKey={key} failed={t('site.watches.loadFailed')} />
      {list && (
        <div className="watches">
          <div className="watches-head">
            <p className="watches-usage" data-testid="watches-usage">
              {t('site.watches.usage', {
                used: formatNumber(locale, list.used),
                limit: formatNumber(locale, list.limit),
              })}
            </p>
            <button
              type="button"
              className="button button-primary"
              disabled={atLimit}
              aria-describedby={atLimit ? limitHintId : undefined}
              onClick={() => setEditing({})}
            >
              {t('site.watches.add')}
            </button>
          </div>
          {atLimit && (
            <p id={limitHintId} className="field-hint watches-limit">
              {countText(t, locale, 'site.watches.limitReached', list.limit)}{' '}
              <Link to={paths.billing.getHref()}>{t('site.sync.upgradeLink')}</Link>
            </p>
          )}
          {list.watches.length === 0 ? (
            <p className="site-muted">{t('site.watches.empty')}</p>
          ) : (
            <ul className="watch-list">
              {list.watches.map((watch) => (
                <WatchItem
                  key={watch.id}
                  watch={watch}
                  onEdit={() => setEditing({ watch })}
                  onDelete={() => setDeleting(watch)}
                />
              ))}
            </ul>
          )}
          <CopyValue
            label={t('site.watches.feed')}
            hint={t('site.watches.feedHint')}
            value={list.feedUrl}
            copyLabel={t('site.watches.copyFeed')}
            copied={t('site.watches.feedCopied')}
          />
          {list.watches.some((watch) => watch.webhookUrl) && (
            <WebhookDeliveries siteId={siteId} watches={list.watches} />
          )}
        </div>
      )}
      {editing && (
        <WatchFormDialog
          siteId={siteId}
          watch={editing.watch}
          onSave={handleSave}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          danger
          title={t('site.watches.confirmTitle')}
          message={t('site.watches.confirmMessage', { name: deleting.name })}
          confirmLabel={t('site.watches.confirm')}
          cancelLabel={t('site.watches.keep')}
          onConfirm={() => void handleDelete(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </Panel>
  );
}

function WatchItem({
  watch,
  onEdit,
  onDelete,
}: {
  watch: Watch;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t, locale } = useI18n();
  return (
    <li className="watch" data-testid="watch">
      <div className="watch-head">
        <h3 className="watch-name">{watch.name}</h3>
        <p className="watch-told">
          {watch.lastHitAt ? (
            <time dateTime={watch.lastHitAt} title={formatDateTime(locale, watch.lastHitAt)}>
              {t('site.watches.lastTold', { ago: formatAgo(locale, watch.lastHitAt) })}
            </time>
          ) : (
            t('site.watches.neverTold')
          )}
        </p>
      </div>
      <dl className="watch-details">
        <div>
          <dt>{t('site.watches.details.watching')}</dt>
          <dd>
            <WatchScopeText watch={watch} />
          </dd>
        </div>
        {watch.keywords.length > 0 && (
          <div>
            <dt>{t('site.watches.details.keywords')}</dt>
            <dd>
              <ul className="watch-keywords">
                {watch.keywords.map((rule, i) => (
                  <li key={i}>
                    {t('site.watches.keywordRule', {
                      text: rule.text,
                      when: t(`site.watches.when.${rule.when}`),
                    })}
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        )}
        <div>
          <dt>{t('site.watches.details.minWords')}</dt>
          <dd>{formatNumber(locale, watch.minWords)}</dd>
        </div>
        <div>
          <dt>{t('site.watches.details.email')}</dt>
          <dd>{t(`site.watches.email.${watch.email}`)}</dd>
        </div>
        <div>
          <dt>{t('site.watches.details.webhook')}</dt>
          <dd className="watch-url" dir={watch.webhookUrl ? 'ltr' : undefined}>
            {watch.webhookUrl ?? t('site.watches.noWebhook')}
          </dd>
        </div>
      </dl>
      {watch.webhookUrl && (
        <div className="watch-secret">
          <CopyValue
            label={t('site.watches.secret')}
            value={watch.webhookSecret}
            copyLabel={t('site.watches.copySecret', { name: watch.name })}
            copied={t('site.watches.secretCopied')}
          />
          <p className="field-hint watch-signature">{t('site.watches.signature')}</p>
        </div>
      )}
      <div className="watch-actions">
        <button
          type="button"
          className="button button-outline"
          aria-label={t('site.watches.editLabel', { name: watch.name })}
          onClick={onEdit}
        >
          {t('site.watches.edit')}
        </button>
        <button
          type="button"
          className="button button-outline-danger"
          aria-label={t('site.watches.deleteLabel', { name: watch.name })}
          onClick={onDelete}
        >
          {t('site.watches.delete')}
        </button>
      </div>
    </li>
  );
}

/** "Whole site", the pages, or "Part of /pricing: .plan-pro .price". */
function WatchScopeText({ watch }: { watch: Watch }) {
  const { t } = useI18n();
  if (watch.scope === 'site') return <>{t('site.watches.scopeText.site')}</>;
  if (watch.scope === 'pages') {
    return (
      <ul className="watch-pages">
        {watch.pages.map((page) => (
          <li key={page} dir="ltr">
            {page}
          </li>
        ))}
      </ul>
    );
  }
  const part = watch.selector
    ? watch.selector
    : t('site.watches.scopeText.startsWith', { text: watch.textFallback ?? '' });
  return (
    <span className="watch-part">
      {t('site.watches.scopeText.part', { page: watch.pages[0] ?? '/', part })}
    </span>
  );
}

/** A read-only value (the feed's address, a webhook secret) with a button that copies it. */
function CopyValue({
  label,
  hint,
  value,
  copyLabel,
  copied,
}: {
  label: string;
  hint?: string;
  value: string;
  copyLabel: string;
  copied: string;
}) {
  const { t } = useI18n();
  const inputId = useId();
  return (
    <div className="field watch-copy">
      <label className="field-label" htmlFor={inputId}>
        {label}
      </label>
      <div className="copy-row">
        <input
          id={inputId}
          className="input copy-input"
          value={value}
          readOnly
          dir="ltr"
          aria-describedby={hint ? `${inputId}-hint` : undefined}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button
          type="button"
          className="button button-outline"
          aria-label={copyLabel}
          onClick={() =>
            void copyWithToast(value, { copied, failed: t('site.watches.copyFailed') })
          }
        >
          {t('site.address.copy')}
        </button>
      </div>
      {hint && (
        <p id={`${inputId}-hint`} className="field-hint">
          {hint}
        </p>
      )}
    </div>
  );
}

/** The webhook deliveries of the site's watches, the newest first. */
function WebhookDeliveries({ siteId, watches }: { siteId: string; watches: Watch[] }) {
  const { t, locale } = useI18n();
  const query = useQuery({
    queryKey: queryKeys.sites.webhookDeliveries(siteId),
    queryFn: ({ signal }) => getWebhookDeliveries(siteId, signal),
  });
  const names = new Map(watches.map((watch) => [watch.id, watch.name]));
  const headingId = useId();
  return (
    <section className="webhook-deliveries" aria-labelledby={headingId}>
      <h3 id={headingId} className="watches-subtitle">
        {t('site.watches.deliveries.title')}
      </h3>
      {query.isPending && <p className="site-muted">{t('common.loading')}</p>}
      {query.isError && (
        <p className="alert alert-error" role="alert">
          {getErrorMessage(query.error, t('site.watches.deliveries.loadFailed'))}
        </p>
      )}
      {query.data?.deliveries.length === 0 && (
        <p className="site-muted">{t('site.watches.deliveries.empty')}</p>
      )}
      {query.data && query.data.deliveries.length > 0 && (
        <ol className="delivery-list">
          {query.data.deliveries.map((delivery) => (
            <DeliveryItem
              key={delivery.id}
              delivery={delivery}
              watchName={names.get(delivery.watchId) ?? null}
              locale={locale}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

function DeliveryItem({
  delivery,
  watchName,
  locale,
}: {
  delivery: WebhookDelivery;
  watchName: string | null;
  locale: string;
}) {
  const { t } = useI18n();
  const outcome =
    delivery.lastStatusCode !== null
      ? t('site.watches.deliveries.httpStatus', { code: delivery.lastStatusCode })
      : delivery.lastError;
  return (
    <li className="delivery" data-testid="delivery" data-status={delivery.status}>
      <div className="delivery-head">
        <time dateTime={delivery.createdAt}>{formatDateTime(locale, delivery.createdAt)}</time>
        <span className="badge delivery-status" data-status={delivery.status}>
          {t(`site.watches.deliveries.status.${delivery.status}`)}
        </span>
      </div>
      <p className="delivery-meta">
        {watchName && <span>{watchName}</span>}
        <span className="watch-url" dir="ltr">
          {delivery.url}
        </span>
      </p>
      <p className="delivery-meta">
        <span>
          {t('site.watches.deliveries.attempts', {
            count: formatNumber(locale, delivery.attempts),
          })}
        </span>
        {outcome && <span className="delivery-outcome">{outcome}</span>}
        {delivery.status === 'pending' && delivery.nextAttemptAt && (
          <span>
            {t('site.watches.deliveries.nextTry', {
              time: formatDateTime(locale, delivery.nextAttemptAt),
            })}
          </span>
        )}
      </p>
    </li>
  );
}
