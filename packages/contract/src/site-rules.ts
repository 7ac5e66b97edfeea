import type { PlanId } from './plans.js';

/** Clone status (SPEC §3, §4). */
export const CLONE_STATUSES = [
  'pending',
  'processing',
  'completing',
  'completed',
  'failed',
] as const;
export type CloneStatus = (typeof CLONE_STATUSES)[number];

/** `currentStatus` texts in the order a run goes through them (SPEC §4). */
export const CLONE_STATUS_TEXTS = {
  validating: 'validating URL',
  starting: 'starting mirror process',
  cloning: 'cloning website',
  processing: 'processing website',
  finalizing: 'finalizing mirror',
  generating: 'generating mirror',
  completed: 'mirror created successfully',
  failed: 'mirror failed',
} as const;

/** `currentStatus` texts of a customization or rewrite run, in order. */
export const CUSTOMIZE_STATUS_TEXTS = {
  queued: 'preparing customization',
  planning: 'planning changes',
  applying: 'applying changes',
  saving: 'saving new version',
  customized: 'customization applied',
  draftReady: 'rewrite draft ready for review',
  /** A customization is a draft until its owner publishes it (issue 19). */
  editsReady: 'draft ready for review',
  /** The draft went live (issue 31: the status card stops asking for a review). */
  published: 'draft published',
  /** The draft was thrown away; the live site did not change. */
  discarded: 'draft discarded',
  failed: 'customization failed',
} as const;

export const SITE_MESSAGES = {
  urlInvalid: 'Please enter a valid website URL (http or https).',
  privateAddress:
    'This address points to a private or local network and cannot be mirrored. Please use a public website.',
  subdomainInvalid:
    'Subdomains use 1-63 lowercase letters, digits and hyphens, and cannot start or end with a hyphen.',
  subdomainReserved: 'This subdomain is reserved. Please choose another one.',
  subdomainTaken: 'This subdomain is already taken. Please choose another one.',
  paidSubdomain: 'Custom subdomains are available on Mirror Pro and Mirror Agency.',
  paidInstructions: 'AI instructions are available on Mirror Pro and Mirror Agency.',
  mirrorLimit: "You have reached your plan's mirror limit. Upgrade to mirror more websites.",
  runRateLimited: 'Too many mirror runs from this account. Please wait a while and try again.',
  demoLimit:
    'Too many demo mirrors from this address. Please wait a while or create a free account.',
  notFound: 'Site not found.',
  busy: 'This site is already being mirrored. Please wait for the current run to finish.',
} as const;

/** Answers of "Host an archive" (issue 35): an uploaded WACZ or WARC made into a copy. */
export const ARCHIVE_MESSAGES = {
  noFile: 'Please choose a web archive file (.wacz, .warc or .warc.gz) to upload.',
  wrongType: 'Please upload a web archive: a .wacz, .warc or .warc.gz file.',
  tooLarge: (limit: string) =>
    `This archive is larger than your plan allows (${limit}). Upgrade to host larger archives.`,
  urlNotInArchive: 'The page you picked is not in this archive. Please pick one of its pages.',
  unreadable: 'This archive could not be read. Please check the file and try again.',
} as const;

/** The archive file names "Host an archive" takes. */
export const ARCHIVE_FILE_PATTERN = /\.(wacz|warc|warc\.gz)$/i;

/** Names never given out as subdomains. */
export const RESERVED_SUBDOMAINS: readonly string[] = [
  'www',
  'api',
  'admin',
  'mail',
  'app',
  'dashboard',
  'static',
  'assets',
  'cdn',
  'docs',
  'help',
  'support',
  'status',
  'blog',
  'billing',
  'smtp',
  'imap',
  'pop',
  'ftp',
  'ns1',
  'ns2',
  'mx',
  'webmail',
  'root',
  'login',
  'auth',
  'sites',
  'mirror',
  'internal',
  'localhost',
];

export const SUBDOMAIN_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The sites-host label of a version's preview: `v-` and the version id's 32 hex digits. Such
 * labels are never given out as subdomains.
 */
export const VERSION_PREVIEW_LABEL = /^v-([0-9a-f]{32})$/;

/** The preview label of a version id (a UUID). */
export function versionPreviewLabel(versionId: string): string {
  return `v-${versionId.replaceAll('-', '').toLowerCase()}`;
}

/** The version id (a UUID) behind a preview label, or null when the label is not one. */
export function versionIdOfPreviewLabel(label: string): string | null {
  const hex = VERSION_PREVIEW_LABEL.exec(label)?.[1];
  if (!hex) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Engine limits per plan (SPEC §9 leaves them open): pages, files, bytes, time per run. */
export interface MirrorLimits {
  maxPages: number;
  /** Files of every kind (pages, assets, redirects): bounds the copy's manifest. */
  maxFiles: number;
  maxBytes: number;
  maxTimeMs: number;
  maxFileBytes: number;
}

const MiB = 1024 * 1024;

export const DEMO_MIRROR_LIMITS: MirrorLimits = {
  maxPages: 10,
  maxFiles: 2_000,
  maxBytes: 50 * MiB,
  maxTimeMs: 2 * 60_000,
  maxFileBytes: 10 * MiB,
};

export const PLAN_MIRROR_LIMITS: Readonly<Record<PlanId, MirrorLimits>> = {
  free: {
    maxPages: 50,
    maxFiles: 5_000,
    maxBytes: 200 * MiB,
    maxTimeMs: 5 * 60_000,
    maxFileBytes: 20 * MiB,
  },
  pro: {
    maxPages: 500,
    maxFiles: 50_000,
    maxBytes: 2048 * MiB,
    maxTimeMs: 20 * 60_000,
    maxFileBytes: 100 * MiB,
  },
  agency: {
    maxPages: 5000,
    maxFiles: 200_000,
    maxBytes: 10240 * MiB,
    maxTimeMs: 60 * 60_000,
    maxFileBytes: 200 * MiB,
  },
};

const GiB = 1024 * MiB;

/**
 * Storage an account's sites may hold, all versions together; a body two versions (or two sites)
 * share is counted once. Runs are refused once it is used up, and a run whose copy would go over it
 * fails without publishing.
 */
export const PLAN_STORAGE_BYTES: Readonly<Record<PlanId, number>> = {
  free: 1 * GiB,
  pro: 20 * GiB,
  agency: 200 * GiB,
};

/** Sizes in the storage messages: "512 MB", "1.5 GB" (powers of 1024, as the limits). */
export function describeStorageBytes(bytes: number): string {
  if (bytes >= GiB) return `${Number((bytes / GiB).toFixed(1))} GB`;
  return `${Math.ceil(bytes / MiB)} MB`;
}

export const STORAGE_MESSAGES = {
  /** Before a run, when the account's storage is used up. */
  full: (used: number, limit: number) =>
    `Your sites use ${describeStorageBytes(used)} of the ${describeStorageBytes(limit)} of storage your plan includes. Delete sites or older versions, or upgrade your plan, to make room.`,
  /** A finished copy that would go over the limit: it is not published. */
  wouldExceed: (needed: number, limit: number) =>
    `This copy was not published: with it, your sites would use ${describeStorageBytes(needed)}, more than the ${describeStorageBytes(limit)} of storage your plan includes. Delete sites or older versions, or upgrade your plan, and try again.`,
} as const;

/** A site is named by its home page's title, cut to this many characters (an ellipsis marks a cut). */
export const SITE_TITLE_MAX_LENGTH = 100;

/**
 * A page title as a site's name: whitespace collapsed and trimmed, at most `SITE_TITLE_MAX_LENGTH`
 * characters (whole characters, never half of an emoji); null when nothing is left, and the site
 * is then named by its host.
 */
export function cleanSiteTitle(title: string | null | undefined): string | null {
  const text = (title ?? '').replace(/\s+/g, ' ').trim();
  if (text === '') return null;
  const chars = Array.from(text);
  if (chars.length <= SITE_TITLE_MAX_LENGTH) return text;
  return `${chars
    .slice(0, SITE_TITLE_MAX_LENGTH - 1)
    .join('')
    .trimEnd()}…`;
}

/** Demo sites not claimed within this time are deleted. */
export const DEMO_RETENTION_DAYS = 7;
export const ANALYTICS_PERIODS = ['7d', '30d', '90d'] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];
/** The days a parked domain's visit counts cover (today included). */
export const PARKED_VISITS_DAYS = 30;
/** How often a site is mirrored again by itself: paid plans, hourly on Agency only. */
export const SYNC_SCHEDULES = ['off', 'hourly', 'daily', 'weekly'] as const;
export type SyncSchedule = (typeof SYNC_SCHEDULES)[number];
