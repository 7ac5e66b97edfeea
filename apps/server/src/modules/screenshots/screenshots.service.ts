import {
  normalizeSourceUrl,
  SCREENSHOT_FILE_PATTERN,
  SCREENSHOT_MESSAGES,
  type ScreenshotStatusResponse,
} from '@mirror/contract';
import { assertPublicUrl, RefusedAddressError, type BlobStore } from '@mirror/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env.js';
import { AppError, badRequest, notFound, tooManyRequests } from '../../errors.js';
import type { Db } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/schema.js';
import type { RateLimiter, RateLimitRule } from '../../platform/rate-limit/rate-limiter.js';
import { safeLookupOptions, type NetSettings } from '../../platform/sandbox/net-settings.js';
import { SandboxError, SandboxTaskError, type Sandbox } from '../../platform/sandbox/sandbox.js';
import { createSemaphore } from '../../lib/semaphore.js';
import { CAPTURE_DEFAULTS } from './capture-url.js';
import { allowsFraming } from './framing.js';
import {
  findFreshScreenshot,
  findScreenshots,
  isScreenshotHash,
  saveScreenshot,
  type ScreenshotRecord,
} from './screenshots.repository.js';
import { screenshotTask, type ScreenshotInput, type ScreenshotOutput } from './screenshot.task.js';
import { THUMBNAIL } from './thumbnail.js';

export { THUMBNAIL } from './thumbnail.js';

const MINUTE = 60_000;

/** A website's screenshot is reused for this long. */
export const SCREENSHOT_TTL_MS = 24 * 60 * MINUTE;
/** Per signed-in user, counted only when Chromium has to run (cache hits are free). */
export const SCREENSHOT_RATE_LIMIT: RateLimitRule = { limit: 20, windowMs: 10 * MINUTE };
/** Version thumbnails never go stale: a version is immutable. */
const VERSION_TTL_MS = 100 * 365 * 24 * 60 * MINUTE;
/** Screenshots taken at once by this process, each a sandboxed process with its own Chromium. */
export const SCREENSHOT_SLOTS = 2;
/** A screenshot's sandbox lives this much longer than its capture: start-up and Chromium's launch. */
const SANDBOX_GRACE_MS = 15_000;

/**
 * Captures the server starts itself for the references of idea searches (not counted against
 * anyone's rate limit): at most `slots` at once (inside the SCREENSHOT_SLOTS every capture
 * shares), at most `perSearch` started by one search, at most `queued` waiting or running in this
 * process (beyond that a reference waits for the next search to ask again). A site whose capture
 * failed is not tried again for `retryAfterMs`.
 */
export const REFERENCE_CAPTURES = {
  slots: 2,
  perSearch: 10,
  queued: 30,
  retryAfterMs: 30 * MINUTE,
} as const;
export type ReferenceCaptureLimits = { -readonly [K in keyof typeof REFERENCE_CAPTURES]: number };

export interface ScreenshotsServiceDeps {
  db: Db;
  blobs: BlobStore;
  sandbox: Sandbox;
  limiter: RateLimiter;
  config: Config;
  log: FastifyBaseLogger;
  /** TEST-ONLY: names and exempt addresses for the address policy (see NetSettings). */
  net?: Omit<NetSettings, 'allowPrivateNetworks'>;
  /** Default 15 s. */
  timeoutMs?: number;
  /** Tests only: tighter bounds for the reference captures. */
  referenceCaptures?: Partial<ReferenceCaptureLimits>;
}

export interface StoredScreenshot {
  hash: string;
  /** Where the API serves it, e.g. `/api/screenshots/{hash}.jpg`. */
  path: string;
  /** Whether the website lets the app frame it; null when unknown (version thumbnails). */
  frameable: boolean | null;
}

/** What the reference grid gets for one reference URL. */
export interface ReferencePreview {
  /** The stored image, fresh or stale; null while none exists. */
  screenshotUrl: string | null;
  frameable: boolean;
}

/** The API path of a stored thumbnail. */
export function screenshotPath(hash: string): string {
  return `/api/screenshots/${hash}.${THUMBNAIL.extension}`;
}

async function* bytes(buffer: Buffer): AsyncIterable<Uint8Array> {
  yield buffer;
}

function failed(status: 502 | 503 | 504, message: string): AppError {
  return new AppError('screenshot_failed', status, message);
}

export function createScreenshotsService(deps: ScreenshotsServiceDeps) {
  const { db, blobs, sandbox, limiter, config, log } = deps;
  const net: NetSettings = {
    allowPrivateNetworks: config.mirror.allowPrivateNetworks,
    ...deps.net,
  };
  const slots = createSemaphore(SCREENSHOT_SLOTS);
  const timeoutMs = deps.timeoutMs ?? CAPTURE_DEFAULTS.timeoutMs;

  const referenceLimits: ReferenceCaptureLimits = {
    ...REFERENCE_CAPTURES,
    ...deps.referenceCaptures,
  };
  const referenceSlots = createSemaphore(referenceLimits.slots);
  /** Reference captures waiting or running in this process. */
  let referenceQueued = 0;
  /** When this process last failed to capture a URL (reference captures are not retried soon). */
  const failedAt = new Map<string, number>();

  /** Runs a capture in the sandbox: the JPEG's bytes and the page's framing headers. */
  async function shoot(input: ScreenshotInput): Promise<{ image: Buffer } & ScreenshotOutput> {
    const release = await slots.acquire();
    try {
      const { output } = await sandbox.run(screenshotTask, input, {
        timeoutMs: timeoutMs + SANDBOX_GRACE_MS,
        log,
      });
      const image = output.image;
      return {
        image: Buffer.from(image.buffer, image.byteOffset, image.byteLength),
        framing: output.framing,
      };
    } finally {
      release();
    }
  }
  /** Captures under way in this process, by URL: concurrent requests share one. */
  const inFlight = new Map<string, Promise<StoredScreenshot>>();

  /** SPEC §5's URL rules: the key of a website in the cache, or null when it is no http(s) URL. */
  function cacheKey(input: string): string | null {
    const normalized = normalizeSourceUrl(input);
    if (normalized === null) return null;
    const url = new URL(normalized);
    url.hash = '';
    return url.href;
  }

  /** SPEC §5's URL rules, then the address policy, before Chromium is involved at all. */
  async function checkUrl(input: string): Promise<string> {
    const key = cacheKey(input);
    if (key === null) throw badRequest(SCREENSHOT_MESSAGES.urlInvalid);
    const url = new URL(key);
    try {
      await assertPublicUrl(url, safeLookupOptions(net));
    } catch (error) {
      if (error instanceof RefusedAddressError) throw badRequest(SCREENSHOT_MESSAGES.refused);
      const code = (error as { code?: unknown }).code;
      if (code === 'EBADSCHEME') throw badRequest(SCREENSHOT_MESSAGES.urlInvalid);
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') {
        throw badRequest(SCREENSHOT_MESSAGES.notFound);
      }
      throw error;
    }
    return url.href;
  }

  async function store(
    url: string,
    image: Buffer,
    ttlMs: number,
    frameable: boolean | null,
  ): Promise<StoredScreenshot> {
    const { hash } = await blobs.put(bytes(image));
    const now = Date.now();
    const record: ScreenshotRecord = {
      url,
      hash,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + ttlMs).toISOString(),
      frameable,
    };
    await saveScreenshot(db, record);
    return { hash, path: screenshotPath(hash), frameable };
  }

  /** Stores a version's thumbnail (taken here, or by its fidelity check in the check's Chromium). */
  function saveVersionThumbnail(versionId: string, image: Buffer): Promise<StoredScreenshot> {
    return store(`version:${versionId}`, image, VERSION_TTL_MS, null);
  }

  function stored(record: ScreenshotRecord): StoredScreenshot {
    return {
      hash: record.hash,
      path: screenshotPath(record.hash),
      frameable: record.frameable ?? null,
    };
  }

  async function capture(url: string): Promise<StoredScreenshot> {
    let shot: { image: Buffer } & ScreenshotOutput;
    try {
      shot = await shoot({
        kind: 'url',
        url,
        net,
        timeoutMs,
        chromiumPath: config.mirror.chromiumPath,
      });
    } catch (error) {
      const name = error instanceof SandboxTaskError ? error.taskErrorName : undefined;
      const timedOut =
        name === 'CaptureTimeoutError' ||
        (error instanceof SandboxError && error.reason === 'timeout');
      if (timedOut) {
        log.info({ url }, 'screenshot timed out');
        throw failed(504, SCREENSHOT_MESSAGES.timedOut);
      }
      if (name === 'CaptureFailedError') {
        // The page redirected to an address the policy refuses: the same answer as asking for it.
        if ((error as SandboxTaskError).causeCode === 'EREFUSEDADDRESS')
          throw badRequest(SCREENSHOT_MESSAGES.refused);
        log.info({ url, reason: (error as Error).message }, 'screenshot failed');
        throw failed(502, SCREENSHOT_MESSAGES.failed);
      }
      const message = error instanceof Error ? error.message : String(error);
      if (/executable|launch|browserType/i.test(message)) {
        log.error({ err: error }, 'chromium could not be started for a screenshot');
        throw failed(503, SCREENSHOT_MESSAGES.unavailable);
      }
      log.warn({ err: error, url }, 'screenshot failed');
      throw failed(502, SCREENSHOT_MESSAGES.failed);
    }
    const frameable = shot.framing ? allowsFraming(shot.framing, config.appUrl) : null;
    return store(url, shot.image, SCREENSHOT_TTL_MS, frameable);
  }

  /**
   * A capture the server decides on (a reference of an idea search): no rate limit, shared with
   * requests for the same URL, bounded by REFERENCE_CAPTURES. Failures are logged and remembered.
   */
  function captureInBackground(key: string): boolean {
    if (inFlight.has(key)) return true;
    const failed = failedAt.get(key);
    if (failed !== undefined && Date.now() - failed < referenceLimits.retryAfterMs) return false;
    if (referenceQueued >= referenceLimits.queued) return false;
    referenceQueued++;
    const promise = (async () => {
      const release = await referenceSlots.acquire();
      try {
        // Another process may have captured it meanwhile.
        const fresh = await findFreshScreenshot(db, key, new Date().toISOString());
        if (fresh) return stored(fresh);
        return await capture(await checkUrl(key));
      } finally {
        release();
      }
    })();
    inFlight.set(key, promise);
    promise
      .then(
        () => failedAt.delete(key),
        (err: unknown) => {
          if (failedAt.size > 1_000) failedAt.clear();
          failedAt.set(key, Date.now());
          log.info({ url: key, reason: (err as Error).message }, 'reference screenshot failed');
        },
      )
      .finally(() => {
        referenceQueued--;
        inFlight.delete(key);
      })
      .catch(() => undefined);
    return true;
  }

  return {
    /**
     * SPEC §7 `POST /domains/screenshot`: a thumbnail of a public website, from the cache when one
     * was made in the last 24 hours.
     */
    async screenshot(user: UserRow, input: string): Promise<StoredScreenshot> {
      const url = await checkUrl(input);
      const cached = await findFreshScreenshot(db, url, new Date().toISOString());
      if (cached) return stored(cached);
      const running = inFlight.get(url);
      if (running) return running;
      const hit = await limiter.hit(`screenshot:user:${user.id}`, SCREENSHOT_RATE_LIMIT);
      if (!hit.allowed)
        throw tooManyRequests(hit.retryAfterSeconds, SCREENSHOT_MESSAGES.rateLimited);
      // Checked again: another request may have started the same capture while we counted.
      const started = inFlight.get(url);
      if (started) return started;
      const promise = capture(url).finally(() => inFlight.delete(url));
      inFlight.set(url, promise);
      return promise;
    },

    /**
     * The screenshots of an idea search's references, by the URL asked for: the stored one, fresh
     * or stale, at once. With `capture`, the ones without a fresh screenshot are captured in the
     * background (bounded by REFERENCE_CAPTURES; no one's rate limit).
     */
    async referencePreviews(
      urls: readonly string[],
      options: { capture: boolean },
    ): Promise<Map<string, ReferencePreview>> {
      const keys = new Map<string, string>();
      for (const url of urls) {
        const key = cacheKey(url);
        if (key !== null) keys.set(url, key);
      }
      const rows = await findScreenshots(db, [...new Set(keys.values())]);
      const now = new Date().toISOString();
      const previews = new Map<string, ReferencePreview>();
      let started = 0;
      for (const [url, key] of keys) {
        const row = rows.get(key);
        previews.set(url, {
          screenshotUrl: row ? screenshotPath(row.hash) : null,
          frameable: row?.frameable === true,
        });
        const fresh = row !== undefined && row.expiresAt > now;
        if (options.capture && !fresh && started < referenceLimits.perSearch) {
          if (captureInBackground(key)) started++;
        }
      }
      return previews;
    },

    /** `GET /domains/screenshot`: where a website's screenshot stands, from the cache alone. */
    async status(input: string): Promise<ScreenshotStatusResponse> {
      const key = cacheKey(input);
      if (key === null) throw badRequest(SCREENSHOT_MESSAGES.urlInvalid);
      const row = (await findScreenshots(db, [key])).get(key);
      if (row) {
        return {
          status: 'ready',
          screenshot: screenshotPath(row.hash),
          frameable: row.frameable === true,
        };
      }
      const failed = failedAt.get(key);
      const recentlyFailed =
        !inFlight.has(key) &&
        failed !== undefined &&
        Date.now() - failed < referenceLimits.retryAfterMs;
      return { status: recentlyFailed ? 'failed' : 'pending', screenshot: null, frameable: false };
    },

    /**
     * A thumbnail of a mirrored version (site cards, dashboard), made from its manifest without
     * any network, stored and recorded so GET /screenshots serves it.
     */
    async versionThumbnail(versionId: string, manifestHash: string): Promise<StoredScreenshot> {
      const { image } = await shoot({
        kind: 'version',
        manifestHash,
        chromiumPath: config.mirror.chromiumPath,
      });
      return saveVersionThumbnail(versionId, image);
    },

    saveVersionThumbnail,

    /** The stored image behind a file name, or a 404 for anything that is not a screenshot. */
    async open(file: string): Promise<{ body: AsyncIterable<Uint8Array>; contentType: string }> {
      const hash = SCREENSHOT_FILE_PATTERN.exec(file)?.[1];
      if (!hash || !(await isScreenshotHash(db, hash)) || !(await blobs.has(hash))) {
        throw notFound(SCREENSHOT_MESSAGES.notFoundFile);
      }
      return { body: blobs.read(hash), contentType: THUMBNAIL.contentType };
    },
  };
}

export type ScreenshotsService = ReturnType<typeof createScreenshotsService>;
