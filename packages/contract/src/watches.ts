import { z } from 'zod';

/**
 * Watches (issue 33): what of a site's change reports its owner wants to be told about, and how.
 * A watch looks at the whole site, at chosen pages, or at one part of one page (a CSS selector
 * with a text fallback); it can wait for keywords to appear or disappear and for a minimum number
 * of changed words. A version whose report meets it is a hit, sent by email (at once or in a daily
 * digest), to a signed webhook, and listed in the site's Atom feed.
 */

export const WATCH_SCOPES = ['site', 'pages', 'part'] as const;
export const WatchScope = z.enum(WATCH_SCOPES);
export type WatchScope = z.infer<typeof WatchScope>;

export const KEYWORD_WHEN = ['appears', 'disappears', 'either'] as const;
export const KeywordRule = z.object({
  text: z
    .string()
    .trim()
    .min(1, 'Enter a keyword.')
    .max(100, 'A keyword is at most 100 characters.'),
  when: z.enum(KEYWORD_WHEN),
});
export type KeywordRule = z.infer<typeof KeywordRule>;

export const WATCH_EMAIL = ['off', 'each', 'daily'] as const;
export const WatchEmail = z.enum(WATCH_EMAIL);
export type WatchEmail = z.infer<typeof WatchEmail>;

export const WATCH_LIMITS = {
  pages: 20,
  keywords: 10,
  selectorChars: 500,
  fallbackChars: 200,
  nameChars: 80,
  maxMinWords: 100_000,
} as const;

/** A page of the copy, as its path (`/pricing`). */
const PagePath = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .refine((p) => p.startsWith('/'), 'A page is its path in the copy, starting with /.');

export const WatchInput = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'Give the watch a name.')
      .max(WATCH_LIMITS.nameChars, `A name is at most ${WATCH_LIMITS.nameChars} characters.`),
    scope: WatchScope,
    /** `pages`: the pages watched; `part`: the one page holding the part. */
    pages: z.array(PagePath).max(WATCH_LIMITS.pages, `Watch at most ${WATCH_LIMITS.pages} pages.`),
    /** `part`: the part's CSS selector, as picked in the preview. */
    selector: z.string().trim().max(WATCH_LIMITS.selectorChars).nullable(),
    /** `part`: the start of the part's text, to find it again when the selector no longer does. */
    textFallback: z.string().trim().max(WATCH_LIMITS.fallbackChars).nullable(),
    keywords: z
      .array(KeywordRule)
      .max(WATCH_LIMITS.keywords, `Watch at most ${WATCH_LIMITS.keywords} keywords.`),
    /** Changed words (added plus removed) below which a change is not told. */
    minWords: z.number().int().min(0).max(WATCH_LIMITS.maxMinWords),
    email: WatchEmail,
    /** http(s) address that receives each hit as signed JSON; null for none. */
    webhookUrl: z
      .string()
      .trim()
      .max(2000)
      .url('Enter a valid webhook address.')
      .refine((u) => /^https?:\/\//i.test(u), 'A webhook address starts with http:// or https://.')
      .nullable(),
  })
  .superRefine((watch, ctx) => {
    if (watch.scope !== 'site' && watch.pages.length === 0)
      ctx.addIssue({ code: 'custom', path: ['pages'], message: 'Choose the pages to watch.' });
    if (watch.scope === 'part') {
      if (watch.pages.length > 1)
        ctx.addIssue({ code: 'custom', path: ['pages'], message: 'A part is on one page.' });
      if (!watch.selector && !watch.textFallback)
        ctx.addIssue({
          code: 'custom',
          path: ['selector'],
          message: 'Pick the part of the page to watch.',
        });
    }
  });
export type WatchInput = z.infer<typeof WatchInput>;

export const Watch = z.object({
  id: z.string(),
  siteId: z.string(),
  name: z.string(),
  scope: WatchScope,
  pages: z.array(z.string()),
  selector: z.string().nullable(),
  textFallback: z.string().nullable(),
  keywords: z.array(KeywordRule),
  minWords: z.number().int(),
  email: WatchEmail,
  webhookUrl: z.string().nullable(),
  /** Signs webhook bodies (`Mirror-Signature`); shown to the owner only. */
  webhookSecret: z.string(),
  createdAt: z.string(),
  /** When a version last met it. */
  lastHitAt: z.string().nullable(),
});
export type Watch = z.infer<typeof Watch>;

/** Why a version met a watch: one line each, in English (mail, webhook, feed). */
export const WatchReason = z.object({
  kind: z.enum([
    'page-changed',
    'page-added',
    'page-removed',
    'part-changed',
    'part-missing',
    'keyword-appeared',
    'keyword-disappeared',
  ]),
  path: z.string(),
  /** The keyword, for keyword reasons. */
  keyword: z.string().optional(),
  /** Changed words, for changes. */
  words: z.number().int().optional(),
  /** The watched part's text before and after (shortened), for part changes. */
  before: z.string().optional(),
  after: z.string().optional(),
});
export type WatchReason = z.infer<typeof WatchReason>;

/** What a mirror run tells of each watch its report met. */
export const WatchHit = z.object({
  watchId: z.string(),
  reasons: z.array(WatchReason),
});
export type WatchHit = z.infer<typeof WatchHit>;

/** The rules a run evaluates (a watch without its notification settings). */
export type WatchRule = Pick<
  Watch,
  'id' | 'scope' | 'pages' | 'selector' | 'textFallback' | 'keywords' | 'minWords'
>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const WebhookDelivery = z.object({
  id: z.string(),
  watchId: z.string(),
  versionId: z.string(),
  url: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** The receiver's last HTTP status, or null when it could not be reached. */
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  /** Delivered (2xx), or given up, at. */
  finishedAt: z.string().nullable(),
  /** The next try, while pending. */
  nextAttemptAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/** The JSON body of a webhook delivery (`type: "site.changed"`). */
export interface WatchWebhookBody {
  type: 'site.changed';
  deliveryId: string;
  site: { id: string; name: string };
  watch: { id: string; name: string };
  version: { id: string; number: number };
  summary: string;
  reasons: WatchReason[];
  /** The change report in the app. */
  reportUrl: string;
  createdAt: string;
}

/** Tries of a webhook delivery, and the pause before each try after the first. */
export const WEBHOOK_RETRY_DELAYS_MS = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  6 * 3_600_000,
] as const;

/** `GET /domains/clone/{id}/watches`. */
export const WatchList = z.object({
  watches: z.array(Watch),
  /** Watches the owner's plan allows across all their sites, and how many they have. */
  limit: z.number().int(),
  used: z.number().int(),
  /** The site's Atom feed of change reports (a private address: it carries a token). */
  feedUrl: z.string(),
});
export type WatchList = z.infer<typeof WatchList>;

/** `GET /domains/clone/{id}/webhook-deliveries`: the newest first. */
export const WebhookDeliveryList = z.object({ deliveries: z.array(WebhookDelivery) });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;

export const WatchParams = z.object({
  id: z.string().min(1).max(64),
  watchId: z.string().min(1).max(64),
});
export const FeedQuery = z.object({ token: z.string().min(1).max(200) });

/** The part picker shows a page of at most this many bytes of HTML. */
export const PAGE_SOURCE_MAX_BYTES = 2 * 1024 * 1024;

export const PAGE_SOURCE_MESSAGES = {
  notInCopy: 'This page is not in the copy.',
  tooLarge: 'This page is larger than 2 MB: type the CSS selector of its part instead.',
} as const;

/** `GET /domains/clone/{id}/page-source?path=/pricing`: the page to pick a watched part on. */
export const PageSourceQuery = z.object({ path: PagePath.default('/') });
export type PageSourceQuery = z.infer<typeof PageSourceQuery>;

export const PageSource = z.object({
  /** The page's path in the copy (`/about/` for `/about/index.html`): what a watch names. */
  path: z.string(),
  /** Its absolute address on the live version's preview host (the base of its references). */
  url: z.string(),
  /** The live version's hosted HTML of the page (references rewritten to the copy). */
  html: z.string(),
});
export type PageSource = z.infer<typeof PageSource>;
