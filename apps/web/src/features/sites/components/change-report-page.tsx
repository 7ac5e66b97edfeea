import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useId, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type {
  ChangedAsset,
  ChangedPage,
  ChangeReport,
  CloneRecord,
  HeadChange,
  ListedPage,
  TextDiffHunk,
  VersionChanges,
  VisualDiffPage,
} from '@mirror/contract';
import { queryKeys } from '../../../api/query-keys';
import { getVersions } from '../../../api/sites';
import { PageLoader } from '../../../components/ui/page-loader';
import { RecordLoadFailed } from '../../../components/ui/record-missing';
import { paths } from '../../../config/paths';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { useDocumentMeta } from '../../../lib/document-meta';
import { formatBytes, formatNumber } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import type { SiteVersionDetail } from '../../../lib/site-versions';
import { notify } from '../../../lib/toast';
import { getSite } from '../api/site-api';
import { getVersionChanges, restorePage } from '../api/watch-api';
import { FIDELITY_POLL_MS, isFidelityActive } from '../hooks/use-fidelity';
import { VisualChange, VisualDiffStatus } from './visual-change';
import './change-report-page.css';

/**
 * What a mirror version changed against the version it replaced (issue 33): pages added, removed
 * and changed (their text as a word diff, their head, links and media), then files.
 */
export function ChangeReportPage() {
  const { t } = useI18n();
  const { id = '', versionId = '' } = useParams();
  const queryClient = useQueryClient();
  const changesKey = queryKeys.sites.changes(id, versionId);
  const changes = useQuery({
    queryKey: changesKey,
    queryFn: ({ signal }) => getVersionChanges(id, versionId, signal),
    // The visual diff is made after the version is live: asked again until it is done.
    refetchInterval: (query) =>
      isFidelityActive(query.state.data?.visual?.state) ? FIDELITY_POLL_MS : false,
  });
  // The version's number and the address its pages can be opened at are the site's to say.
  const site = useQuery({
    queryKey: queryKeys.sites.detail(id),
    queryFn: ({ signal }) => getSite(id, signal),
  });
  const versions = useQuery({
    queryKey: queryKeys.sites.versions(id),
    queryFn: ({ signal }) => getVersions(id, signal),
  });

  useDocumentMeta({ title: t('site.changes.metaTitle'), description: t('meta.site.description') });

  const missing = changes.error instanceof ApiError && changes.error.status === 404;
  if (missing) return <NoReport siteId={id} />;
  const failed = [changes, site, versions].find((query) => query.isError);
  if (failed) {
    return (
      <RecordLoadFailed
        title={t('site.changes.loadFailed')}
        message={getErrorMessage(failed.error, t('site.changes.loadFailed'))}
        onRetry={() => {
          void queryClient.resetQueries({ queryKey: changesKey });
          void queryClient.resetQueries({ queryKey: queryKeys.sites.detail(id), exact: true });
          void queryClient.resetQueries({ queryKey: queryKeys.sites.versions(id) });
        }}
      />
    );
  }
  if (!changes.data || !site.data || !versions.data) {
    return (
      <div className="page container">
        <PageLoader />
      </div>
    );
  }
  return (
    <ReportView siteId={id} changes={changes.data} site={site.data} versions={versions.data} />
  );
}

function BackLink({ siteId }: { siteId: string }) {
  const { t } = useI18n();
  return (
    <Link className="back-link" to={paths.site.getHref(siteId)}>
      <span aria-hidden="true">←</span> {t('site.changes.back')}
    </Link>
  );
}

function NoReport({ siteId }: { siteId: string }) {
  const { t } = useI18n();
  return (
    <div className="page container change-report">
      <BackLink siteId={siteId} />
      <h1 className="page-title">{t('site.changes.title')}</h1>
      <p className="page-lead">{t('site.changes.notFound')}</p>
    </div>
  );
}

/** Where the version's pages can be opened: the live address, or the version's own preview. */
function pageBaseOf(site: CloneRecord, version: SiteVersionDetail | undefined): string | null {
  if (!version) return null;
  const live = site.liveVersionId !== null ? site.liveVersionId === version.id : version.isLive;
  return live ? site.previewUrl : version.previewUrl;
}

function pageHref(base: string | null, path: string): string | null {
  if (!base) return null;
  try {
    return new URL(path, base).href;
  } catch {
    return null;
  }
}

function ReportView({
  siteId,
  changes,
  site,
  versions,
}: {
  siteId: string;
  changes: VersionChanges;
  site: CloneRecord;
  versions: SiteVersionDetail[];
}) {
  const { t, locale } = useI18n();
  const version = versions.find((v) => v.id === changes.versionId);
  const base = pageBaseOf(site, version);
  const { report } = changes;
  // A page comes back from the version compared with, while it is kept (never on a demo).
  const restore: RestoreFrom | null =
    changes.baseNumber !== null && !site.isDemo ? { siteId, versionId: changes.versionId } : null;
  const compared =
    changes.baseNumber === null
      ? t('site.changes.comparedDeleted', { number: version?.number ?? '?' })
      : t('site.changes.compared', {
          number: version?.number ?? '?',
          base: changes.baseNumber,
        });

  return (
    <div className="page container change-report">
      <BackLink siteId={siteId} />
      <header className="change-report-header">
        <h1 className="page-title">{t('site.changes.title')}</h1>
        <p className="change-report-compared">{compared}</p>
        <p className="change-report-summary">{report.summary}</p>
      </header>

      {report.unchanged && (
        <p className="change-report-unchanged" role="status">
          {t('site.changes.unchanged')}
        </p>
      )}
      {report.noiseOnly > 0 && (
        <p className="site-muted change-report-noise">
          {t('site.changes.noiseOnly', { count: formatNumber(locale, report.noiseOnly) })}
        </p>
      )}

      {report.pages.added.length > 0 && (
        <ReportSection title={t('site.changes.pagesAdded')} count={report.pages.added.length}>
          <PageList pages={report.pages.added} base={base} />
        </ReportSection>
      )}
      {report.pages.removed.length > 0 && (
        <ReportSection title={t('site.changes.pagesRemoved')} count={report.pages.removed.length}>
          {/* Gone from this version: nothing to open. */}
          <PageList pages={report.pages.removed} base={null} restore={restore} />
        </ReportSection>
      )}
      {report.pages.changed.length > 0 && (
        <ReportSection title={t('site.changes.pagesChanged')} count={report.pages.changed.length}>
          <VisualDiffStatus visual={changes.visual} />
          <div className="changed-pages">
            {report.pages.changed.map((page) => (
              <ChangedPageView
                key={page.path}
                page={page}
                href={pageHref(base, page.path)}
                restore={restore}
                visual={changes.visual?.pages.filter((shot) => shot.path === page.path) ?? []}
              />
            ))}
          </div>
        </ReportSection>
      )}
      <RestyledPages changes={changes} base={base} />
      <Files assets={report.assets} />
    </div>
  );
}

/**
 * Pages whose text is the same but that use a stylesheet, image or font that changed: the visual
 * diff renders them too, and those that look different are shown here (docs/changes.md).
 */
function RestyledPages({ changes, base }: { changes: VersionChanges; base: string | null }) {
  const { t } = useI18n();
  const { visual, report } = changes;
  if (!visual) return null;
  const changed = new Set(report.pages.changed.map((page) => page.path));
  const shown = visual.pages.filter((shot) => !changed.has(shot.path));
  const paths = [...new Set(shown.filter((shot) => shot.diffPercent > 0).map((shot) => shot.path))];
  // Said with the changed pages when there are some; else here, while it is made or if it failed.
  const status = report.pages.changed.length === 0 && visual.state !== 'completed';
  if (paths.length === 0 && !status) return null;
  return (
    <ReportSection title={t('site.changes.pagesRestyled')} count={paths.length}>
      {status && <VisualDiffStatus visual={visual} />}
      {paths.length > 0 && <p className="site-muted">{t('site.changes.restyledNote')}</p>}
      <div className="changed-pages">
        {paths.map((path) => (
          <article key={path} className="changed-page" data-testid="restyled-page">
            <h3 className="changed-page-head">
              <PagePath path={path} href={pageHref(base, path)} />
            </h3>
            <VisualChange path={path} pages={shown.filter((shot) => shot.path === path)} />
          </article>
        ))}
      </div>
    </ReportSection>
  );
}

function ReportSection({
  title,
  count,
  children,
}: {
  title: string;
  count: number;
  children: ReactNode;
}) {
  const { locale } = useI18n();
  const headingId = useId();
  return (
    <section className="change-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="change-section-title">
        {title} <span className="change-count">({formatNumber(locale, count)})</span>
      </h2>
      {children}
    </section>
  );
}

function PagePath({ path, href }: { path: string; href: string | null }) {
  return href ? (
    <a className="change-path" href={href} target="_blank" rel="noopener noreferrer" dir="ltr">
      {path}
    </a>
  ) : (
    <span className="change-path" dir="ltr">
      {path}
    </span>
  );
}

/** The report a page can be restored from: its version, and the site. */
interface RestoreFrom {
  siteId: string;
  versionId: string;
}

/**
 * "Restore this page from the previous version" (issue 33): makes a draft, so it asks nothing
 * first; the site page then shows the draft's review when it is ready.
 */
function RestorePage({ from, path }: { from: RestoreFrom; path: string }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const handleRestore = async () => {
    setPending(true);
    setError(null);
    try {
      const status = await restorePage(from.siteId, from.versionId, path);
      // The site page opens on the run making the draft, and shows the draft when it is ready.
      queryClient.setQueryData<CloneRecord>(queryKeys.sites.detail(from.siteId), (current) =>
        current ? { ...current, ...status } : current,
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.sites.versions(from.siteId) });
      notify.info(t('site.changes.restoreStarted'));
      void navigate(paths.site.getHref(from.siteId), { state: { draftComing: true } });
    } catch (failure) {
      setError(getErrorMessage(failure, t('site.changes.restoreFailed')));
      setPending(false);
    }
  };
  return (
    <div className="change-restore">
      <button
        type="button"
        className="button button-outline"
        disabled={pending}
        onClick={() => void handleRestore()}
      >
        {pending ? t('site.changes.restoring') : t('site.changes.restore')}
      </button>
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function PageList({
  pages,
  base,
  restore = null,
}: {
  pages: ListedPage[];
  base: string | null;
  restore?: RestoreFrom | null;
}) {
  return (
    <ul className="change-page-list">
      {pages.map((page) => (
        <li key={page.path}>
          <PagePath path={page.path} href={pageHref(base, page.path)} />
          {page.title && <span className="change-page-title">{page.title}</span>}
          {restore && <RestorePage from={restore} path={page.path} />}
        </li>
      ))}
    </ul>
  );
}

function ChangedPageView({
  page,
  href,
  restore,
  visual,
}: {
  page: ChangedPage;
  href: string | null;
  restore: RestoreFrom | null;
  /** How the page looks before and after, at each width (none until the visual diff is done). */
  visual: VisualDiffPage[];
}) {
  const { t, locale } = useI18n();
  return (
    <article className="changed-page" data-testid="changed-page">
      <h3 className="changed-page-head">
        <PagePath path={page.path} href={href} />
      </h3>
      {page.title && <p className="change-page-title">{page.title}</p>}
      {restore && <RestorePage from={restore} path={page.path} />}
      <p className="changed-page-words">
        {t('site.changes.words', {
          added: formatNumber(locale, page.wordsAdded),
          removed: formatNumber(locale, page.wordsRemoved),
        })}
      </p>
      {page.hunks.length > 0 && (
        <ol className="change-hunks">
          {page.hunks.map((hunk, i) => (
            <li key={i}>
              <Hunk hunk={hunk} />
            </li>
          ))}
        </ol>
      )}
      {page.moreHunks && <p className="site-muted change-more">{t('site.changes.moreHunks')}</p>}
      {visual.length > 0 && <VisualChange path={page.path} pages={visual} />}
      {page.head.length > 0 && <HeadChanges changes={page.head} />}
      <UrlList title={t('site.changes.linksAdded')} urls={page.linksAdded} />
      <UrlList title={t('site.changes.linksRemoved')} urls={page.linksRemoved} />
      <UrlList title={t('site.changes.mediaAdded')} urls={page.mediaAdded} />
      <UrlList title={t('site.changes.mediaRemoved')} urls={page.mediaRemoved} />
    </article>
  );
}

/**
 * One place of the text diff: added words in <ins>, removed in <del>, each also said in words to
 * screen readers (which do not announce the elements) and marked by more than colour on screen.
 */
function Hunk({ hunk }: { hunk: TextDiffHunk }) {
  return (
    <p className="change-hunk">
      {hunk.map((part, i) => (
        // Parts are runs of words: a space between them, outside the marks.
        <Fragment key={i}>
          {i > 0 && ' '}
          <HunkPart part={part} />
        </Fragment>
      ))}
    </p>
  );
}

function HunkPart({ part }: { part: TextDiffHunk[number] }) {
  const { t } = useI18n();
  if (part.op === 'added') {
    return (
      <ins>
        <span className="visually-hidden">{t('site.changes.addedMark')} </span>
        {part.text}
      </ins>
    );
  }
  if (part.op === 'removed') {
    return (
      <del>
        <span className="visually-hidden">{t('site.changes.removedMark')} </span>
        {part.text}
      </del>
    );
  }
  return <span>{part.text}</span>;
}

function HeadChanges({ changes }: { changes: HeadChange[] }) {
  const { t } = useI18n();
  const none = t('site.changes.none');
  return (
    <div className="head-changes">
      <h4 className="change-subtitle">{t('site.changes.head')}</h4>
      <dl>
        {changes.map((change) => (
          <div key={change.field} className="head-change">
            <dt dir="ltr">{change.field}</dt>
            <dd>
              <span className="head-before">{change.before ?? none}</span>{' '}
              <span aria-label={t('site.changes.becomes')} role="img">
                →
              </span>{' '}
              <span className="head-after">{change.after ?? none}</span>
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function UrlList({ title, urls }: { title: string; urls: string[] }) {
  const { locale } = useI18n();
  if (urls.length === 0) return null;
  return (
    <details className="change-details">
      <summary>
        {title} ({formatNumber(locale, urls.length)})
      </summary>
      <ul className="change-url-list">
        {urls.map((url) => (
          <li key={url} dir="ltr">
            {url}
          </li>
        ))}
      </ul>
    </details>
  );
}

function Files({ assets }: { assets: ChangeReport['assets'] }) {
  const { t, locale } = useI18n();
  const size = (bytes: number | null) => (bytes === null ? '' : formatBytes(locale, bytes));
  const groups: [title: string, files: ChangedAsset[], sizeOf: (file: ChangedAsset) => string][] = [
    [t('site.changes.filesAdded'), assets.added, (file) => size(file.sizeAfter)],
    [t('site.changes.filesRemoved'), assets.removed, (file) => size(file.sizeBefore)],
    [
      t('site.changes.filesChanged'),
      assets.changed,
      (file) =>
        t('site.changes.sizeChange', {
          before: size(file.sizeBefore),
          after: size(file.sizeAfter),
        }),
    ],
  ];
  return (
    <>
      {groups.map(([title, files, sizeOf]) =>
        files.length === 0 ? null : (
          <ReportSection key={title} title={title} count={files.length}>
            <ul className="change-file-list">
              {files.map((file) => (
                <li key={file.path}>
                  <span className="change-path" dir="ltr">
                    {file.path}
                  </span>
                  <span className="change-file-meta">
                    {file.contentType} · {sizeOf(file)}
                  </span>
                </li>
              ))}
            </ul>
          </ReportSection>
        ),
      )}
    </>
  );
}
