import type { IncomingMessage, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { JobQueue } from '../jobs/job.js';
import type { Platform } from '../../services.js';

/** What `/api/ready` answers: each dependency's check, `ok` or what went wrong. */
export interface ReadyReport {
  status: 'ready' | 'unavailable';
  checks: Record<string, string>;
}

export interface Probes {
  /** Liveness: throws when the database does not answer. */
  health(): Promise<void>;
  /** Readiness: the database, the job queue's backend (Redis) and the blob store, each in time. */
  ready(): Promise<ReadyReport>;
  /** From now on `ready` says unavailable, so a load balancer stops sending work (shutdown). */
  drain(): void;
  /** True when the bearer token (if METRICS_TOKEN is set) lets the caller read `/metrics` and `/api/internal/*`. */
  mayReadMetrics(authorization: string | undefined): boolean;
}

/** What the probes answer when they refuse, in every role (the API's routes say the same). */
export const PROBE_MESSAGES = {
  databaseUnavailable: 'Database unavailable.',
  metricsToken: 'A valid metrics token is required.',
  internalToken: 'A valid internal token is required.',
} as const;

const CHECK_TIMEOUT_MS = 2_000;
/** A hash no blob has: asking for it proves the store answers, without writing anything. */
const PROBE_HASH = '0'.repeat(64);

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export function createProbes(platform: Platform, jobs: JobQueue | null): Probes {
  const { database, blobs, config, log } = platform;
  let draining = false;
  const checks: [string, () => Promise<unknown>][] = [
    ['database', () => database.ping()],
    ['storage', () => blobs.has(PROBE_HASH)],
  ];
  if (jobs) checks.push([config.jobs.redisUrl ? 'redis' : 'jobs', () => jobs.counts()]);
  const token = config.metricsToken ? Buffer.from(`Bearer ${config.metricsToken}`) : null;

  return {
    health: () => within(database.ping(), CHECK_TIMEOUT_MS),
    async ready() {
      const results = await Promise.all(
        checks.map(async ([name, check]) => {
          try {
            await within(check(), CHECK_TIMEOUT_MS);
            return [name, 'ok'] as const;
          } catch (err) {
            log.warn({ err, check: name }, 'readiness check failed');
            return [name, err instanceof Error ? err.message : String(err)] as const;
          }
        }),
      );
      const report: Record<string, string> = Object.fromEntries(results);
      if (draining) report.process = 'shutting down';
      const ok = !draining && results.every(([, result]) => result === 'ok');
      return { status: ok ? 'ready' : 'unavailable', checks: report };
    },
    drain() {
      draining = true;
    },
    mayReadMetrics(authorization) {
      if (!token) return true;
      const given = Buffer.from(authorization ?? '');
      return given.length === token.length && timingSafeEqual(given, token);
    },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

/**
 * `GET /api/health`, `/api/ready` and `/metrics` for the roles without Fastify (worker, sites),
 * answered the same way as the API's routes. Returns false for any other request.
 */
export function answerProbe(
  req: IncomingMessage,
  res: ServerResponse,
  probes: Probes,
  platform: Platform,
): boolean {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (path === '/api/health') {
    probes.health().then(
      () => sendJson(res, 200, { status: 'ok' }),
      (err: unknown) => {
        platform.log.error({ err }, 'database ping failed');
        sendJson(res, 503, { message: PROBE_MESSAGES.databaseUnavailable });
      },
    );
    return true;
  }
  if (path === '/api/ready') {
    void probes
      .ready()
      .then((report) => sendJson(res, report.status === 'ready' ? 200 : 503, report));
    return true;
  }
  if (path === '/metrics') {
    if (!probes.mayReadMetrics(req.headers.authorization)) {
      sendJson(res, 401, { message: PROBE_MESSAGES.metricsToken });
      return true;
    }
    platform.metrics.render().then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        res.end(body);
      },
      (err: unknown) => {
        platform.log.error({ err }, 'metrics failed');
        sendJson(res, 500, { message: 'Metrics are unavailable right now.' });
      },
    );
    return true;
  }
  return false;
}
