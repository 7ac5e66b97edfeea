import { z } from 'zod';
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

export const CloneRecord = z.object({
  id: z.string(),
  status: CloneStatusField,
  currentStatus: z.string(),
  previewUrl: z.string().nullable(),
  progress: z.number().min(0).max(1),
  estimatedTime: z.number().int().nullable(),
  sourceUrl: z.string(),
  targetDomain: z.string().nullable(),
  aiInstructions: z.string().nullable(),
  customizations: z.record(z.string(), z.unknown()),
  isDemo: z.boolean(),
  error: z.string().nullable(),
  syncSchedule: z.enum(SYNC_SCHEDULES),
  liveVersionId: z.string().nullable(),
  /** A thumbnail of the live version (site cards), once one has been made. */
  thumbnailUrl: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
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
export const AnalyticsResponse = z.object({
  period: z.enum(ANALYTICS_PERIODS),
  days: z.array(
    z.object({ date: z.string(), visits: z.number().int(), pageViews: z.number().int() }),
  ),
  totals: z.object({ visits: z.number().int(), pageViews: z.number().int() }),
});
export type AnalyticsResponse = z.infer<typeof AnalyticsResponse>;
