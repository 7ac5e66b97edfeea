import { z } from 'zod';
import { ChangeDigest } from './changes.js';
import { FidelitySummary } from './fidelity.js';
import { MIRROR_FAILURE_KINDS } from './mirror-failures.js';
import { ANALYTICS_PERIODS, CLONE_STATUSES, SITE_MESSAGES, SYNC_SCHEDULES } from './site-rules.js';

export const CloneStatusField = z.enum(CLONE_STATUSES);

/** POST /domains/clone (SPEC §3 clone request). */
export const CloneRequestBody = z.object({
  sourceUrl: z
    .string({ error: SITE_MESSAGES.urlInvalid })
    .trim()
    .min(1, SITE_MESSAGES.urlInvalid)
    .max(2000),
  /** A subdomain (`shop`) or the full host (`shop.{SITES_DOMAIN}`); blank for a random one. */
  targetDomain: z.string().trim().max(253).optional(),
  aiInstructions: z.string().trim().max(5000).optional(),
  customizations: z.record(z.string(), z.unknown()).optional(),
  isDemo: z.boolean().optional(),
});
export type CloneRequestBody = z.input<typeof CloneRequestBody>;

/** Files of one kind in a running mirror: copied (or given up on) out of those found so far. */
export const RunCount = z.object({ done: z.number().int().min(0), found: z.number().int().min(0) });
export const RunCounts = z.object({ pages: RunCount, files: RunCount });
export type RunCounts = z.infer<typeof RunCounts>;

export const CloneRecord = z.object({
  id: z.string(),
  status: CloneStatusField,
  currentStatus: z.string(),
  previewUrl: z.string().nullable(),
  progress: z.number().min(0).max(1),
  /**
   * Seconds left, measured from the run's own pace; while running, 0 means almost done and null
   * that there is no trustworthy estimate yet.
   */
  estimatedTime: z.number().int().nullable(),
  sourceUrl: z.string(),
  targetDomain: z.string().nullable(),
  aiInstructions: z.string().nullable(),
  customizations: z.record(z.string(), z.unknown()),
  isDemo: z.boolean(),
  error: z.string().nullable(),
  /**
   * Why the last run failed, as a category the app words in the reader's language (`error` is the
   * English sentence). Optional fields here and below: older servers do not send them.
   */
  errorKind: z.enum(MIRROR_FAILURE_KINDS).nullable().optional(),
  /** The failure's technical detail (address, error code and message), behind a Details toggle. */
  errorDetail: z.string().nullable().optional(),
  /** While a mirror runs: pages and other files done out of those found so far. */
  counts: RunCounts.nullable().optional(),
  /** While a mirror runs: the address of the page being copied. */
  currentUrl: z.string().nullable().optional(),
  syncSchedule: z.enum(SYNC_SCHEDULES),
  liveVersionId: z.string().nullable(),
  /**
   * The live version on its own preview host: what the owner's pages frame, so that the owner's
   * looks are never counted as visits. Null without a live version.
   */
  ownerPreviewUrl: z.string().nullable(),
  /** A thumbnail of the live version (site cards), once one has been made. */
  thumbnailUrl: z.string().nullable(),
  /**
   * The site's name: its live home page's `<title>` (`cleanSiteTitle`); null when it has none or
   * nothing is live yet, and the site is named by its host (shown beneath a title).
   */
  title: z.string().nullable().optional(),
  /** The live version's fidelity check (issue 21): null until one is queued. */
  fidelity: FidelitySummary.nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /**
   * The last change a mirror of the site found (issue 33): when that version was made and its
   * digest. Null before a re-mirror or sync found one (or when the newest found nothing).
   */
  lastChange: z.object({ at: z.string(), digest: ChangeDigest }).nullable().optional(),
});
export type CloneRecord = z.infer<typeof CloneRecord>;

export const CloneStatusResponse = CloneRecord.pick({
  id: true,
  status: true,
  currentStatus: true,
  previewUrl: true,
  progress: true,
  estimatedTime: true,
  error: true,
  errorKind: true,
  errorDetail: true,
  counts: true,
  currentUrl: true,
  fidelity: true,
});
export type CloneStatusResponse = z.infer<typeof CloneStatusResponse>;

/** What made a version: a mirror run, a customization of the live version, or a full rewrite. */
export const VERSION_KINDS = ['mirror', 'customize', 'rewrite'] as const;
export type VersionKind = (typeof VERSION_KINDS)[number];

/** One applied edit of a version, described for its owner. */
export const VersionEdit = z.object({
  index: z.number().int().min(0),
  description: z.string(),
});
export type VersionEdit = z.infer<typeof VersionEdit>;

/**
 * A copy made from an uploaded web archive (issue 35), not from the live site: the file's name,
 * its format, the software that wrote it (when it says) and the responses it held.
 */
export const ImportedFrom = z.object({
  name: z.string(),
  format: z.enum(['warc', 'wacz']),
  software: z.string().optional(),
  responses: z.number().int(),
});
export type ImportedFrom = z.infer<typeof ImportedFrom>;

/** POST /domains/clone/archive: what the uploaded archive held (answered with the new site). */
export const ArchiveImportResponse = z.object({
  site: CloneRecord,
  archive: z.object({
    format: z.enum(['warc', 'warc.gz', 'wacz']),
    software: z.string().nullable(),
    title: z.string().nullable(),
    responses: z.number().int(),
    pages: z.number().int(),
    /** The page the copy starts from: the one asked for, else the archive's first. */
    startUrl: z.string(),
  }),
});
export type ArchiveImportResponse = z.infer<typeof ArchiveImportResponse>;

export const SiteVersion = z.object({
  id: z.string(),
  number: z.number().int(),
  status: CloneStatusField,
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  pages: z.number().int(),
  assets: z.number().int(),
  bytes: z.number().int(),
  failedUrls: z.number().int(),
  isLive: z.boolean(),
  error: z.string().nullable(),
  /** As the site's: the category and technical detail of a failed run (optional, newer servers). */
  errorKind: z.enum(MIRROR_FAILURE_KINDS).nullable().optional(),
  errorDetail: z.string().nullable().optional(),
  kind: z.enum(VERSION_KINDS),
  /** A completed customization or rewrite not published yet: it waits for review. */
  draft: z.boolean(),
  /** What the version's plan changed, one line per operation (the diff summary). */
  changes: z.array(z.string()),
  /**
   * Each edit of the applied plan in plain words (no selectors), `index` into the plan's ops: what
   * `POST …/versions/{versionId}/undo` takes. Empty for a mirror.
   */
  edits: z.array(VersionEdit),
  /** Parts of the instructions that were not understood or could not be used. */
  unparsed: z.array(z.string()),
  instructions: z.string().nullable(),
  /**
   * Where a completed version that is not live can be looked at before it is published (a draft,
   * or an older version before a rollback); null for the live version and unfinished runs.
   */
  previewUrl: z.string().nullable(),
  /** A thumbnail of the version's entry page, once one has been made. */
  thumbnailUrl: z.string().nullable(),
  /** The version's fidelity check; null for versions never checked (customizations, older ones). */
  fidelity: FidelitySummary.nullable().optional(),
  /**
   * What a mirror version changed against the version it replaced, in a few numbers; null for a
   * first mirror, an edit, older versions. The whole report: `GET …/versions/{versionId}/changes`.
   */
  changeDigest: ChangeDigest.nullable().optional(),
  /** A mirror made from an uploaded web archive: which one (null for a copy of a live site). */
  importedFrom: ImportedFrom.nullable().optional(),
  /**
   * When the last scheduled sync found the site unchanged while this version was live: such a sync
   * makes no version. Null when none did.
   */
  checkedUnchangedAt: z.string().nullable().optional(),
});
export type SiteVersion = z.infer<typeof SiteVersion>;

export const SiteIdParams = z.object({ id: z.string().min(1).max(64) });
export const VersionParams = z.object({
  id: z.string().min(1).max(64),
  versionId: z.string().min(1).max(64),
});

/** PUT /domains/clone/{id}: the sync schedule, or a new subdomain (blank: a new random one). */
export const UpdateSiteBody = z
  .object({
    syncSchedule: z.enum(SYNC_SCHEDULES).optional(),
    targetDomain: z.string().trim().max(253).optional(),
  })
  .refine((body) => body.syncSchedule !== undefined || body.targetDomain !== undefined, {
    message: 'Nothing to change: send syncSchedule or targetDomain.',
  });

export const AnalyticsQuery = z.object({ period: z.enum(ANALYTICS_PERIODS).default('7d') });

/**
 * What a site's audience did on one UTC day (or over the period, for totals). Bots, monitors and
 * the owner's own previews are left out of every count but `bytes` (bots' downloads cost bandwidth
 * too; previews on a version's preview host are not counted at all).
 */
const AnalyticsCounts = z.object({
  /** Arrivals from outside the site (no Referer, or another site's): sessions, roughly. */
  visits: z.number().int(),
  /** HTML pages served to people (a page revalidated with 304 counts too). */
  pageViews: z.number().int(),
  /**
   * Distinct people per day, told apart by a salted hash of address and browser that changes
   * every day (no cookies). Over a period: the sum of the days.
   */
  uniqueVisitors: z.number().int(),
  /** Body bytes sent for pages and files (a 304 sends none). */
  bytes: z.number().int(),
});

export const AnalyticsResponse = z.object({
  period: z.enum(ANALYTICS_PERIODS),
  days: z.array(AnalyticsCounts.extend({ date: z.string() })),
  totals: AnalyticsCounts.extend({
    /** Page loads by crawlers, monitors, scripts and headless browsers, left out above. */
    botViews: z.number().int(),
  }),
  /** The most viewed paths (no query) of the period, most first, at most 10. */
  topPages: z.array(z.object({ path: z.string(), views: z.number().int() })),
  /** Other sites' hosts that sent visits in the period, most first, at most 10. */
  topReferrers: z.array(z.object({ host: z.string(), visits: z.number().int() })),
});
export type AnalyticsResponse = z.infer<typeof AnalyticsResponse>;
