import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import type { CloneRecord, CloneStatusResponse, Understanding } from '@mirror/contract';
import { CloneProgress } from '../../../components/mirror/clone-progress';
import { VersionChanges } from '../../../components/mirror/version-changes';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { getErrorMessage } from '../../../lib/api-client';
import { isRunningStatus, isSettledStatus } from '../../../lib/clone-status';
import { formatDateTime } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import type { SiteVersionDetail } from '../../../lib/site-versions';
import { notify } from '../../../lib/toast';
import { customizeSite } from '../../../api/sites';
import { publishVersion } from '../../../api/sites';
import { understandInstructions } from '../api/site-api';
import { DRAFT_REVIEW_ID } from './site-draft-review';

interface CustomizePanelProps {
  site: CloneRecord;
  versions: SiteVersionDetail[] | null;
  /** A customization run started: the page watches it like any run. */
  onStarted: (status: CloneStatusResponse) => void;
  /** A rollback made another version live. */
  onPublished: (record: CloneRecord) => void;
}

const isPlan = (version: SiteVersionDetail) =>
  version.kind === 'customize' || version.kind === 'rewrite';

/**
 * AI customization of the live site (issue 6): instructions become a plan applied as a new version,
 * a draft to review (issue 19: the review, full width, is above the page's panels) before it is
 * published. Shows the run, points to the draft, and the history of plans with a rollback to the
 * version before each live one.
 */
export function CustomizePanel({ site, versions, onStarted, onPublished }: CustomizePanelProps) {
  const { t, locale } = useI18n();
  const fieldId = useId();
  // An idea carried from the reference grid (where no AI model can rewrite) starts the field.
  const carried = (useLocation().state as { instructions?: unknown } | null)?.instructions;
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  const [instructions, setInstructions] = useState(typeof carried === 'string' ? carried : '');
  const [touched, setTouched] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [rollingBack, setRollingBack] = useState<string | null>(null);
  /** What the instructions as last checked will do ("I will: …"); editing them forgets it. */
  const [understood, setUnderstood] = useState<{ text: string; result: Understanding } | null>(
    null,
  );
  /** The newest version number when the last customization started; its result comes after. */
  const [awaitingAfter, setAwaitingAfter] = useState<number | null>(null);

  const running = isRunningStatus(site.status);
  const hasLive = site.liveVersionId !== null;
  const error = touched && instructions.trim() === '' ? t('site.customize.required') : null;
  const newest = versions?.reduce((max, version) => Math.max(max, version.number), 0) ?? 0;
  const result =
    awaitingAfter === null
      ? undefined
      : versions?.find(
          (version) => version.number > awaitingAfter && isSettledStatus(version.status),
        );
  // A run under way is shown above as it goes; a draft is reviewed in one place (issue 31).
  const history = versions?.filter((v) => isPlan(v) && !isRunningStatus(v.status)) ?? [];

  useEffect(() => {
    if (typeof carried !== 'string' || carried === '') return;
    fieldRef.current?.scrollIntoView?.({ block: 'center' });
    fieldRef.current?.focus({ preventScroll: true });
    // Only when the page opens with it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    const text = instructions.trim();
    // The result is the first version after the newest one known now: wait for the list.
    if (text === '' || submitting || running || versions === null) return;
    setSubmitting(true);
    try {
      // First say what will happen; the draft is made once the owner confirms what was understood.
      const checked = understood?.text === text ? understood.result : null;
      if (!checked) {
        const result = await understandInstructions(site.id, text);
        if (!result.byModel) {
          setUnderstood({ text, result });
          return;
        }
      } else if (checked.willDo.length === 0) {
        return;
      }
      // What was understood becomes the draft; the rest is listed on it as not understood.
      const partial = (checked?.notUnderstood.length ?? 0) > 0;
      const status = await customizeSite(site.id, {
        instructions: text,
        ...(partial ? { partial: true } : {}),
      });
      setUnderstood(null);
      setAwaitingAfter(newest);
      onStarted(status);
      setInstructions('');
      setTouched(false);
    } catch (failure) {
      notify.error(getErrorMessage(failure, t('site.customize.failed')));
    } finally {
      setSubmitting(false);
    }
  };

  /** Makes the completed, non-draft version before `version` live again. */
  const handleRollback = async (version: SiteVersionDetail) => {
    const previous = versions?.find(
      (other) => other.number < version.number && other.status === 'completed' && !other.draft,
    );
    if (!previous) return;
    setRollingBack(version.id);
    try {
      onPublished(await publishVersion(site.id, previous.id));
      notify.success(t('site.versions.published', { number: previous.number }));
    } catch (failure) {
      notify.error(getErrorMessage(failure, t('site.versions.publishFailed')));
    } finally {
      setRollingBack(null);
    }
  };

  return (
    <Panel title={t('site.customize.title')} description={t('site.customize.description')}>
      <form className="customize-form" noValidate onSubmit={(event) => void handleSubmit(event)}>
        <label className="field-label" htmlFor={fieldId}>
          {t('site.customize.label')}
        </label>
        <textarea
          ref={fieldRef}
          id={fieldId}
          name="instructions"
          className="input textarea"
          rows={4}
          placeholder={t('site.customize.placeholder')}
          value={instructions}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${fieldId}-error` : `${fieldId}-hint`}
          onChange={(event) => {
            setInstructions(event.target.value);
            setUnderstood(null);
          }}
          onBlur={() => setTouched(true)}
        />
        {error ? (
          <p id={`${fieldId}-error`} className="field-error">
            {error}
          </p>
        ) : (
          <p id={`${fieldId}-hint`} className="field-hint">
            {hasLive ? t('site.customize.hint') : t('site.customize.needsLive')}
          </p>
        )}
        {understood && (
          <UnderstoodInstructions
            result={understood.result}
            onUseSuggestion={(part, suggestion) => {
              const next = instructions.replace(part, suggestion);
              setInstructions(next);
              setUnderstood(null);
            }}
          />
        )}
        <button
          type="submit"
          className="button button-primary"
          disabled={
            submitting ||
            running ||
            !hasLive ||
            versions === null ||
            (understood !== null && understood.result.willDo.length === 0)
          }
          aria-busy={submitting || undefined}
        >
          {submitting && <Spinner />}
          {!understood
            ? t('site.customize.apply')
            : understood.result.notUnderstood.length > 0 && understood.result.willDo.length > 0
              ? t('site.customize.confirmPartial')
              : t('site.customize.confirm')}
        </button>
      </form>

      {awaitingAfter !== null && running && (
        <div className="customize-result" role="status">
          <CloneProgress
            status={site.status}
            currentStatus={site.currentStatus}
            progress={site.progress}
            estimatedTime={site.estimatedTime}
          />
        </div>
      )}

      {result && !running && (
        <div className="customize-result" data-testid="customize-result">
          <h3 className="customize-subtitle">{t('site.customize.resultTitle')}</h3>
          {result.status === 'failed' ? (
            <p className="alert alert-error" role="alert">
              {result.error || t('site.customize.failed')}
            </p>
          ) : result.draft ? (
            <p className="customize-draft" role="status">
              {t('site.customize.draftReady')}{' '}
              <a href={`#${DRAFT_REVIEW_ID}`}>{t('site.customize.reviewLink')}</a>
            </p>
          ) : (
            <VersionChanges changes={result.changes} unparsed={result.unparsed} />
          )}
        </div>
      )}

      <h3 className="customize-subtitle">{t('site.customize.historyTitle')}</h3>
      {history.length === 0 ? (
        <p className="site-muted">{t('site.customize.historyEmpty')}</p>
      ) : (
        <ol className="customize-history">
          {history.map((version) => {
            const isLive = version.isLive || version.id === site.liveVersionId;
            const label = t('site.versions.version', { number: version.number });
            return (
              <li key={version.id} className="customize-entry" data-testid="plan-row">
                <div className="version-title">
                  <strong>{label}</strong>
                  <span className="kind-badge">{t(`site.versions.kinds.${version.kind}`)}</span>
                  {version.draft && <span className="draft-badge">{t('site.versions.draft')}</span>}
                  {isLive && <span className="live-badge">{t('site.versions.live')}</span>}
                </div>
                <p className="version-meta">
                  <time dateTime={version.createdAt}>
                    {formatDateTime(locale, version.createdAt)}
                  </time>
                </p>
                {version.draft ? (
                  <p className="version-draft-note">
                    {t('site.versions.draftWaiting')}{' '}
                    <a href={`#${DRAFT_REVIEW_ID}`}>{t('site.customize.reviewLink')}</a>
                  </p>
                ) : (
                  version.instructions && (
                    <p className="customize-instructions">
                      {t('site.customize.instructionsWere', { text: version.instructions })}
                    </p>
                  )
                )}
                {version.draft ? null : version.status === 'failed' ? (
                  version.error && <p className="version-error">{version.error}</p>
                ) : (
                  <VersionChanges changes={version.changes} unparsed={version.unparsed} />
                )}
                {isLive && (
                  <button
                    type="button"
                    className="button button-outline"
                    disabled={rollingBack !== null || running}
                    aria-label={t('site.customize.rollbackLabel', { number: version.number })}
                    onClick={() => void handleRollback(version)}
                  >
                    {rollingBack === version.id && <Spinner />}
                    {t('site.customize.rollback')}
                  </button>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </Panel>
  );
}

/** "I will: …" and the parts not understood, each with a phrasing that would be. */
function UnderstoodInstructions({
  result,
  onUseSuggestion,
}: {
  result: Understanding;
  onUseSuggestion: (part: string, suggestion: string) => void;
}) {
  const { t } = useI18n();
  return (
    <div className="customize-understood" data-testid="customize-understood" role="status">
      {result.willDo.length > 0 && (
        <>
          <p className="customize-subtitle">{t('site.customize.willDo')}</p>
          <ul>
            {result.willDo.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        </>
      )}
      {result.notUnderstood.length > 0 && (
        <div className="alert alert-error">
          <p>
            {result.willDo.length > 0
              ? t('site.customize.notUnderstoodPartial')
              : t('site.customize.notUnderstood')}
          </p>
          <ul>
            {result.notUnderstood.map(({ part, suggestion, alternatives = [] }) => {
              // The nearest things the engine can do, best first ("make it pop": a colour…).
              const options = [...(suggestion ? [suggestion] : []), ...alternatives];
              return (
                <li key={part}>
                  “{part}”
                  {options.length > 0 && (
                    <>
                      {' '}
                      {t('site.customize.tryInstead')}{' '}
                      {options.map((option, index) => (
                        <span key={option}>
                          {index > 0 && ` ${t('site.customize.or')} `}
                          <button
                            type="button"
                            className="button-link"
                            onClick={() => onUseSuggestion(part, option)}
                          >
                            “{option}”
                          </button>
                        </span>
                      ))}
                    </>
                  )}
                </li>
              );
            })}
          </ul>
          <p className="customize-can-do">{t('site.customize.canDo')}</p>
        </div>
      )}
      {result.willDo.length === 0 && result.notUnderstood.length === 0 && (
        <p>{t('site.customize.nothingUnderstood')}</p>
      )}
    </div>
  );
}
