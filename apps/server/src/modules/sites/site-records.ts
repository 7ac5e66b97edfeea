import {
  CLONE_STATUS_TEXTS,
  isMirrorFailureKind,
  RunCounts,
  type ChangeDigest,
  type CloneRecord,
  type EditPlan,
  type FidelitySummary,
  type ImportedFrom,
  type MirrorFailureKind,
  type SiteVersion,
  type VersionEdit,
  versionPreviewLabel,
} from '@mirror/contract';
import { describePlan } from '@mirror/customize';
import type { Config } from '../../config/env.js';
import { inAppEnglish, plainChanges } from '../customize/plain-changes.js';
import { screenshotPath } from '../screenshots/screenshots.service.js';
import type { findSite, listVersions } from './sites.repository.js';

export type SiteRow = NonNullable<Awaited<ReturnType<typeof findSite>>>;
type VersionRow = Awaited<ReturnType<typeof listVersions>>[number];

function parseList(json: string | null): string[] {
  return json ? (JSON.parse(json) as string[]) : [];
}

/** A failed run's category and detail, beside its English `error` (issue 20, item 3). */
function failureOf(row: {
  error: string | null;
  error_kind: string | null;
  error_detail: string | null;
}): { errorKind: MirrorFailureKind | null; errorDetail: string | null } {
  if (row.error === null || !isMirrorFailureKind(row.error_kind))
    return { errorKind: null, errorDetail: null };
  return { errorKind: row.error_kind, errorDetail: row.error_detail };
}

function countsOf(json: string | null): RunCounts | null {
  if (!json) return null;
  const parsed = RunCounts.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : null;
}

/**
 * The applied plan's edits in plain words, one per op: the descriptions written when the version
 * was made, else the plan described now (versions made before they were kept).
 */
function editsOf(version: { plan: string | null; edits: string | null }): VersionEdit[] {
  if (!version.plan) return [];
  const plan = JSON.parse(version.plan) as Partial<EditPlan>;
  const ops = Array.isArray(plan.ops) ? plan.ops : [];
  const stored = version.edits ? (JSON.parse(version.edits) as unknown) : null;
  let lines: string[];
  if (Array.isArray(stored) && stored.length === ops.length) lines = stored as string[];
  else {
    try {
      lines = describePlan({ ops });
    } catch {
      lines = ops.map(() => 'A change to the page');
    }
  }
  return lines.map((description, index) => ({ index, description }));
}

/** Site and version rows as the API shows them, with their addresses on this server. */
export function createSiteRecords(config: Config) {
  const app = new URL(config.appUrl);
  const port = app.port ? `:${app.port}` : '';

  const previewUrlOf = (subdomain: string | null) =>
    subdomain ? `${app.protocol}//${subdomain}.${config.sitesDomain}${port}/` : null;
  const thumbnailUrlOf = (hash: string | null) => (hash ? screenshotPath(hash) : null);

  /** The change the newest report found, if it found one. */
  function lastChangeOf(site: SiteRow): CloneRecord['lastChange'] {
    if (!site.last_change_digest || !site.last_change_at) return null;
    const digest = JSON.parse(site.last_change_digest) as ChangeDigest;
    return digest.unchanged ? null : { at: site.last_change_at, digest };
  }

  function toRecord(site: SiteRow): CloneRecord {
    return {
      id: site.id,
      status: site.status,
      currentStatus: site.current_status ?? CLONE_STATUS_TEXTS.validating,
      previewUrl: previewUrlOf(site.subdomain),
      progress: site.progress,
      estimatedTime: site.estimated_time,
      sourceUrl: site.source_url,
      targetDomain: site.subdomain ? `${site.subdomain}.${config.sitesDomain}` : null,
      aiInstructions: site.ai_instructions,
      customizations: site.customizations
        ? (JSON.parse(site.customizations) as Record<string, unknown>)
        : {},
      isDemo: site.is_demo === 1,
      error: site.error,
      ...failureOf(site),
      counts: countsOf(site.run_counts),
      currentUrl: site.current_url,
      syncSchedule: site.sync_schedule,
      liveVersionId: site.live_version_id,
      ownerPreviewUrl: site.live_version_id
        ? previewUrlOf(versionPreviewLabel(site.live_version_id))
        : null,
      thumbnailUrl: thumbnailUrlOf(site.live_thumbnail_hash),
      title: site.live_title || null,
      createdAt: site.created_at,
      updatedAt: site.updated_at,
      lastChange: lastChangeOf(site),
    };
  }

  function toVersion(
    v: VersionRow,
    liveVersionId: string | null,
    fidelity: FidelitySummary | null,
  ): SiteVersion {
    return {
      fidelity,
      // A completed version that is not live can be looked at on its own preview host.
      previewUrl:
        v.status === 'completed' && v.id !== liveVersionId
          ? previewUrlOf(versionPreviewLabel(v.id))
          : null,
      thumbnailUrl: thumbnailUrlOf(v.thumbnail_hash),
      id: v.id,
      number: v.number,
      status: v.status,
      createdAt: v.created_at,
      finishedAt: v.finished_at,
      pages: v.pages,
      assets: v.assets,
      bytes: v.bytes,
      failedUrls: v.failed_urls,
      isLive: v.id === liveVersionId,
      error: v.error,
      ...failureOf(v),
      kind: v.kind,
      draft: v.draft === 1,
      // Report lines in plain words: never a CSS selector (issue 19, item 6), spelled as the app
      // is, with colour names as the owner wrote them or as words (issue 31, item 5).
      changes: plainChanges(parseList(v.changes), v.plan).map((line) =>
        inAppEnglish(line, v.instructions ?? ''),
      ),
      edits: editsOf(v).map((edit) => ({
        ...edit,
        description: inAppEnglish(edit.description, v.instructions ?? ''),
      })),
      unparsed: parseList(v.unparsed),
      changeDigest: v.change_digest ? (JSON.parse(v.change_digest) as ChangeDigest) : null,
      importedFrom: v.imported_from ? (JSON.parse(v.imported_from) as ImportedFrom) : null,
      checkedUnchangedAt: v.checked_unchanged_at,
      instructions: v.idea
        ? [`Rewrite for: ${v.idea}`, v.instructions].filter(Boolean).join('\n')
        : v.instructions,
    };
  }

  return { previewUrlOf, toRecord, toVersion };
}
