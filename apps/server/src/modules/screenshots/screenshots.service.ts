import { normalizeSourceUrl, SCREENSHOT_FILE_PATTERN, SCREENSHOT_MESSAGES } from '@mirror/contract';
import { assertPublicUrl, RefusedAddressError, type BlobStore } from '@mirror/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env.js';
import { AppError, badRequest, notFound, tooManyRequests } from '../../http/app-error.js';
import type { Db } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/schema.js';
import type { RateLimiter, RateLimitRule } from '../../platform/rate-limit/rate-limiter.js';
import { safeLookupOptions, type NetSettings } from '../../platform/sandbox/net-settings.js';
import { SandboxError, SandboxTaskError, type Sandbox } from '../../platform/sandbox/sandbox.js';
import { createSemaphore } from '../../lib/semaphore.js';
import { CAPTURE_DEFAULTS } from './capture-url.js';
import {
  findFreshScreenshot,
  isScreenshotHash,
  saveScreenshot,
  type ScreenshotRecord,
} from './screenshots.repository.js';
import { screenshotTask, type ScreenshotInput } from './screenshot.task.js';
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
}

export interface StoredScreenshot {
  hash: string;
  /** Where the API serves it, e.g. `/api/screenshots/{hash}.jpg`. */
  path: string;
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

  /** Runs a capture in the sandbox; the JPEG's bytes. */
  async function shoot(input: ScreenshotInput): Promise<Buffer> {
    const release = await slots.acquire();
    try {
      const { output } = await sandbox.run(screenshotTask, input, {
        timeoutMs: timeoutMs + SANDBOX_GRACE_MS,
        log,
      });
      return Buffer.from(output.buffer, output.byteOffset, output.byteLength);
    } finally {
      release();
    }
  }
  /** Captures under way in this process, by URL: concurrent requests share one. */
  const inFlight = new Map<string, Promise<StoredScreenshot>>();

  /** SPEC §5's URL rules, then the address policy, before Chromium is involved at all. */
  async function checkUrl(input: string): Promise<string> {
    const normalized = normalizeSourceUrl(input);
    if (normalized === null) throw badRequest(SCREENSHOT_MESSAGES.urlInvalid);
    const url = new URL(normalized);
    url.hash = '';
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

  async function store(url: string, image: Buffer, ttlMs: number): Promise<StoredScreenshot> {
    const { hash } = await blobs.put(bytes(image));
    const now = Date.now();
    const record: ScreenshotRecord = {
      url,
      hash,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + ttlMs).toISOString(),
    };
    await saveScreenshot(db, record);
    return { hash, path: screenshotPath(hash) };
  }

  async function capture(url: string): Promise<StoredScreenshot> {
    let image: Buffer;
    try {
      image = await shoot({
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
    return store(url, image, SCREENSHOT_TTL_MS);
  }

  return {
    /**
     * SPEC §7 `POST /domains/screenshot`: a thumbnail of a public website, from the cache when one
     * was made in the last 24 hours.
     */
    async screenshot(user: UserRow, input: string): Promise<StoredScreenshot> {
      const url = await checkUrl(input);
      const cached = await findFreshScreenshot(db, url, new Date().toISOString());
      if (cached) return { hash: cached.hash, path: screenshotPath(cached.hash) };
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
     * A thumbnail of a mirrored version (site cards, dashboard), made from its manifest without
     * any network, stored and recorded so GET /screenshots serves it.
     */
    async versionThumbnail(versionId: string, manifestHash: string): Promise<StoredScreenshot> {
      const image = await shoot({
        kind: 'version',
        manifestHash,
        chromiumPath: config.mirror.chromiumPath,
      });
      return store(`version:${versionId}`, image, VERSION_TTL_MS);
    },

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
