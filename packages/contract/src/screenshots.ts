import { z } from 'zod';
import { SITE_MESSAGES } from './site-rules.js';

/** Thumbnails of websites (SPEC §2 reference grid 'Try to Get Screenshot', §7 `POST /domains/screenshot`). */
export const SCREENSHOT_MESSAGES = {
  urlInvalid: SITE_MESSAGES.urlInvalid,
  refused:
    'This address points to a private or local network and cannot be captured. Please use a public website.',
  /**
   * The site's name does not resolve. Said to whoever pressed 'Try to Get Screenshot' on a
   * reference they never typed: nothing in it asks them to check an address.
   */
  notFound: 'This website could not be reached right now, so no screenshot was taken.',
  /** SPEC §8 domain store default: the answer to every capture that did not produce an image. */
  failed: 'Failed to generate screenshot',
  timedOut: 'Failed to generate screenshot: the website took too long to load.',
  unavailable: 'Screenshots are unavailable right now. Please try again later.',
  rateLimited: 'Too many screenshot requests. Please wait a few minutes and try again.',
  notFoundFile: 'Screenshot not found.',
} as const;

/** Same bound as a clone's source URL. */
export const SCREENSHOT_URL_MAX_LENGTH = 2000;

/** The file name of a stored screenshot: its sha256 and the image type. */
export const SCREENSHOT_FILE_PATTERN = /^([a-f0-9]{64})\.jpg$/;

export const ScreenshotBody = z.object({
  url: z
    .string({ error: SCREENSHOT_MESSAGES.urlInvalid })
    .trim()
    .min(1, { error: SCREENSHOT_MESSAGES.urlInvalid })
    .max(SCREENSHOT_URL_MAX_LENGTH, { error: SCREENSHOT_MESSAGES.urlInvalid }),
});
export type ScreenshotBody = z.input<typeof ScreenshotBody>;

/**
 * `screenshot` is a path on the API (`/api/screenshots/{sha256}.jpg`), a JPEG about 640 px wide of
 * the page's first 1280×800 screen. A capture that fails is an error answer (`{ message }`, 502 or
 * 504), never `success: false`, so the client has one failure path.
 */
export const ScreenshotResponse = z.object({
  success: z.literal(true),
  screenshot: z.string(),
});
export type ScreenshotResponse = z.infer<typeof ScreenshotResponse>;

export const ScreenshotFileParams = z.object({ file: z.string().max(80) });
export type ScreenshotFileParams = z.infer<typeof ScreenshotFileParams>;

/** `GET /domains/screenshot?url=`: where a reference's screenshot stands; never starts a capture. */
export const ScreenshotStatusQuery = z.object({
  url: z
    .string({ error: SCREENSHOT_MESSAGES.urlInvalid })
    .trim()
    .min(1, { error: SCREENSHOT_MESSAGES.urlInvalid })
    .max(SCREENSHOT_URL_MAX_LENGTH, { error: SCREENSHOT_MESSAGES.urlInvalid }),
});
export type ScreenshotStatusQuery = z.input<typeof ScreenshotStatusQuery>;

/**
 * `ready`: `screenshot` is the stored image (perhaps older than a day, a fresh one on its way);
 * `pending`: none yet, a capture may still come (the reference grid keeps polling for a while);
 * `failed`: this server's last capture of the site failed recently (the grid stops waiting).
 * `frameable` as on a reference: true only when the site lets the app frame it.
 */
export const SCREENSHOT_STATES = ['ready', 'pending', 'failed'] as const;
export type ScreenshotState = (typeof SCREENSHOT_STATES)[number];

export const ScreenshotStatusResponse = z.object({
  status: z.enum(SCREENSHOT_STATES),
  screenshot: z.string().nullable(),
  frameable: z.boolean(),
});
export type ScreenshotStatusResponse = z.infer<typeof ScreenshotStatusResponse>;
