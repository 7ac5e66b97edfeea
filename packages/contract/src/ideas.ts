import { z } from 'zod';
import { IDEA_SEARCH_LIMIT } from './limits.js';

/** Idea search (SPEC §7 `POST /domains/search-by-idea`): the SPEC reads the limit as 5 or 10. */
export const IDEA_SEARCH_MAX_LIMIT = 10;
export const IDEA_MAX_LENGTH = 1000;

export const IDEA_MESSAGES = {
  ideaRequired: 'Please describe your website idea.',
  ideaTooLong: `Please describe your idea in at most ${IDEA_MAX_LENGTH} characters.`,
  limitInvalid: `Limit must be a whole number from 1 to ${IDEA_SEARCH_MAX_LIMIT}.`,
  searchLimit: 'Too many idea searches. Please wait a few minutes and try again.',
  /** SPEC §8 domain store default when the server gives no message. */
  searchFailed: 'Website search failed',
} as const;

const LimitField = z
  .number({ error: IDEA_MESSAGES.limitInvalid })
  .int({ error: IDEA_MESSAGES.limitInvalid })
  .min(1, { error: IDEA_MESSAGES.limitInvalid })
  .max(IDEA_SEARCH_MAX_LIMIT, { error: IDEA_MESSAGES.limitInvalid });

export const SearchByIdeaBody = z.object({
  idea: z
    .string({ error: IDEA_MESSAGES.ideaRequired })
    .trim()
    .min(1, { error: IDEA_MESSAGES.ideaRequired, abort: true })
    .max(IDEA_MAX_LENGTH, { error: IDEA_MESSAGES.ideaTooLong }),
  limit: LimitField.default(IDEA_SEARCH_LIMIT),
});
export type SearchByIdeaBody = z.input<typeof SearchByIdeaBody>;

/** `catalogue`: the bundled, curated list; `web`: the optional web search provider. */
export const REFERENCE_SOURCES = ['catalogue', 'web'] as const;
export type ReferenceSource = (typeof REFERENCE_SOURCES)[number];

/**
 * One reference website (SPEC §3 without the browser's local flags and clone state).
 * `screenshotUrl` is the server's stored capture of the site (`/api/screenshots/{sha256}.jpg`),
 * possibly older than a day while a fresh one is made in the background; null while none exists
 * yet (one is being made: poll `GET /domains/screenshot?url=`). `screenshot` is SPEC §3's name for
 * the same image and always equals it. `frameable` is true only when the captured page's headers
 * (`X-Frame-Options`, CSP `frame-ancestors`) let the app show it in a frame: the grid then offers a
 * live preview; false when they do not, or while unknown. `previewUrl` is the site itself, for the
 * live frame and the Preview link. `category` is the catalogue category, null for web results.
 */
export const ReferenceWebsite = z.object({
  title: z.string(),
  url: z.string(),
  screenshot: z.string().nullable(),
  screenshotUrl: z.string().nullable(),
  frameable: z.boolean(),
  previewUrl: z.string(),
  description: z.string(),
  category: z.string().nullable(),
  source: z.enum(REFERENCE_SOURCES),
});
export type ReferenceWebsite = z.infer<typeof ReferenceWebsite>;

/** The answer is the list itself, best match first (SPEC §7: "a list of websites with url"). */
export const SearchByIdeaResponse = z.array(ReferenceWebsite);
export type SearchByIdeaResponse = z.infer<typeof SearchByIdeaResponse>;
