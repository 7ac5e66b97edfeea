import { z } from 'zod';
import { FIDELITY_STATES, FIDELITY_VIEWPORTS } from './fidelity.js';

/**
 * What changed between two versions of a mirrored site (issue 33): the change report made for
 * every new mirror version (a re-mirror, a scheduled sync, a repair) against the version it
 * replaces. Noise does not count: dates, counters, rotating banners, nonce and hash attributes,
 * reordered query strings and tracking parameters.
 */

/** A run of words in a page's text diff: kept for context, added or removed. */
export const TextDiffPart = z.object({
  op: z.enum(['same', 'added', 'removed']),
  text: z.string(),
});
export type TextDiffPart = z.infer<typeof TextDiffPart>;

/** One place in a page where its text changed, with a few words around it. */
export const TextDiffHunk = z.array(TextDiffPart);
export type TextDiffHunk = z.infer<typeof TextDiffHunk>;

/** A changed value of the page's head: its title or one of its meta descriptions. */
export const HeadChange = z.object({
  /** `title`, or the meta's name (`description`, `og:title`, …). */
  field: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});
export type HeadChange = z.infer<typeof HeadChange>;

export const ChangedPage = z.object({
  /** The page's path in the copy, e.g. `/pricing`. */
  path: z.string(),
  /** Its title in the new version (or the old one's, when it has none). */
  title: z.string(),
  wordsAdded: z.number().int(),
  wordsRemoved: z.number().int(),
  /** The text diff in context (at most `CHANGE_REPORT_LIMITS.hunksPerPage` places). */
  hunks: z.array(TextDiffHunk),
  /** There were more places than the hunks shown. */
  moreHunks: z.boolean(),
  head: z.array(HeadChange),
  /** Links (absolute, normalized) the page has now and did not have, and the reverse. */
  linksAdded: z.array(z.string()),
  linksRemoved: z.array(z.string()),
  /** Images, videos and sounds it shows now and did not show, and the reverse. */
  mediaAdded: z.array(z.string()),
  mediaRemoved: z.array(z.string()),
});
export type ChangedPage = z.infer<typeof ChangedPage>;

export const ListedPage = z.object({ path: z.string(), title: z.string() });
export type ListedPage = z.infer<typeof ListedPage>;

export const ChangedAsset = z.object({
  path: z.string(),
  contentType: z.string(),
  /** Bytes in the old version (null: the file is new). */
  sizeBefore: z.number().int().nullable(),
  /** Bytes in the new version (null: the file is gone). */
  sizeAfter: z.number().int().nullable(),
});
export type ChangedAsset = z.infer<typeof ChangedAsset>;

export const ChangeReport = z.object({
  /** "No changes", or e.g. "3 pages changed, 1 added: /pricing (Pro now $12), /blog/new-post, …". */
  summary: z.string(),
  /** Nothing a visitor would notice changed (noise aside). */
  unchanged: z.boolean(),
  pages: z.object({
    added: z.array(ListedPage),
    removed: z.array(ListedPage),
    changed: z.array(ChangedPage),
  }),
  assets: z.object({
    added: z.array(ChangedAsset),
    removed: z.array(ChangedAsset),
    changed: z.array(ChangedAsset),
  }),
  /** Pages compared whose differences were all noise (dates, counters, rotating parts, …). */
  noiseOnly: z.number().int(),
});
export type ChangeReport = z.infer<typeof ChangeReport>;

/** One changed page at one width, as the previous and the new version render it. */
export const VisualDiffPage = z.object({
  /** The page's path in the copy, as in the report's changed pages. */
  path: z.string(),
  viewport: z.enum(FIDELITY_VIEWPORTS),
  /** Pixels that differ, in per cent, noise left out (0: the page looks the same). */
  diffPercent: z.number(),
  /** Pixels that differ between two renders of the new version (a rotating banner): not counted. */
  noisePercent: z.number(),
  /** Why the page could not be rendered (nothing was measured); null when it was. */
  unmeasured: z.string().nullable(),
  /**
   * Small PNG screenshots (320 px wide), owner only (sent with the bearer token): the previous
   * version, the new one, and their difference (the new one in grey, changes red, noise blue).
   */
  beforeShot: z.string(),
  afterShot: z.string(),
  diffShot: z.string(),
});
export type VisualDiffPage = z.infer<typeof VisualDiffPage>;

/**
 * The visual diff of a report's changed pages (the fidelity check's renderer, noise handling and
 * heatmaps), made after the version is live: queued, running, then completed or failed.
 */
export const VisualDiff = z.object({
  state: z.enum(FIDELITY_STATES),
  /** Why it failed (state `failed`). */
  error: z.string().nullable(),
  checkedAt: z.string().nullable(),
  /** Page by page in the report's order, each at desktop then phone width. */
  pages: z.array(VisualDiffPage),
});
export type VisualDiff = z.infer<typeof VisualDiff>;

/** `GET /domains/clone/{id}/versions/{versionId}/changes`: the report, and what it compared. */
export const VersionChanges = z.object({
  versionId: z.string(),
  /** The version it was compared with, and its number (null: that version was deleted since). */
  baseVersionId: z.string(),
  baseNumber: z.number().int().nullable(),
  report: ChangeReport,
  /**
   * How the changed pages look before and after; null when none is made (no page changed, visual
   * diffs are off, or the report is older). Optional: older servers do not send it.
   */
  visual: VisualDiff.nullable().optional(),
});
export type VersionChanges = z.infer<typeof VersionChanges>;

/** A change report in a few numbers, as the version history shows it (in the app's language). */
export const ChangeDigest = z.object({
  /** The report's one-line summary, in English (feeds, mail subjects, the API). */
  summary: z.string(),
  unchanged: z.boolean(),
  pagesChanged: z.number().int(),
  pagesAdded: z.number().int(),
  pagesRemoved: z.number().int(),
  filesChanged: z.number().int(),
  /** The first pages changed, added or removed (at most `CHANGE_REPORT_LIMITS.summaryPages`). */
  paths: z.array(z.string()),
});
export type ChangeDigest = z.infer<typeof ChangeDigest>;

export function changeDigest(report: ChangeReport): ChangeDigest {
  const { pages, assets } = report;
  return {
    summary: report.summary,
    unchanged: report.unchanged,
    pagesChanged: pages.changed.length,
    pagesAdded: pages.added.length,
    pagesRemoved: pages.removed.length,
    filesChanged: assets.added.length + assets.removed.length + assets.changed.length,
    paths: [...pages.changed, ...pages.added, ...pages.removed]
      .slice(0, CHANGE_REPORT_LIMITS.summaryPages)
      .map((page) => page.path),
  };
}

/** A screenshot of a visual diff: `GET …/versions/{versionId}/changes/shots/{file}` (`<sha256>.png`). */
export const ChangeShotParams = z.object({
  id: z.string().min(1).max(64),
  versionId: z.string().min(1).max(64),
  file: z.string().regex(/^[0-9a-f]{64}\.png$/, 'Not a screenshot of a change report.'),
});

export const CHANGE_REPORT_LIMITS = {
  /** Places shown per changed page. */
  hunksPerPage: 10,
  /** Changed pages shown with their text diff; those beyond are listed with their counts. */
  pagesDetailed: 100,
  /** Words of context either side of a change. */
  contextWords: 8,
  /** Links listed per page, each way. */
  linksPerPage: 50,
  /** Pages named in the one-line summary. */
  summaryPages: 3,
} as const;
