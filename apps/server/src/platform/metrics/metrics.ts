import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { JobDefinition, JobQueue } from '../jobs/job.js';

/**
 * The process's Prometheus metrics (prom-client), served at `/metrics` by every role: HTTP latency
 * (api), jobs by state and their durations (worker), pages and bytes mirrored, sites host requests,
 * and Node's own process metrics. Each process keeps its own registry; Prometheus scrapes each.
 */
export interface Metrics {
  readonly registry: Registry;
  /** One API request answered (route pattern, not the raw URL, so ids do not explode labels). */
  observeHttp(method: string, route: string, status: number, seconds: number): void;
  /** Wraps a job definition so each run's duration and outcome are recorded. */
  instrumentJob<P>(definition: JobDefinition<P>): JobDefinition<P>;
  /** A mirror run stored a copy. */
  mirrored(copy: { pages: number; bytes: number }): void;
  /** Reports the queue's jobs by state at each scrape. */
  watchJobs(jobs: JobQueue): void;
  /** Reports the sites host's answered requests at each scrape (a plain counter kept by the host). */
  watchSitesRequests(read: () => number): void;
  /** The text exposition format. */
  render(): Promise<{ contentType: string; body: string }>;
}

/** How long a scrape waits for the queue's counts. */
const JOBS_WAIT_MS = 1_000;

export function createMetrics(role: string): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ role });
  collectDefaultMetrics({ register: registry });

  const httpDuration = new Histogram({
    name: 'mirror_http_request_duration_seconds',
    help: 'API and app requests by route, method and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const jobDuration = new Histogram({
    name: 'mirror_job_duration_seconds',
    help: 'Job runs by job name and outcome (completed, failed, interrupted)',
    labelNames: ['job', 'outcome'] as const,
    buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600],
    registers: [registry],
  });
  const pagesMirrored = new Counter({
    name: 'mirror_pages_mirrored_total',
    help: 'Pages stored by completed mirror runs',
    registers: [registry],
  });
  const bytesMirrored = new Counter({
    name: 'mirror_bytes_mirrored_total',
    help: 'Bytes of the copies stored by completed mirror runs',
    registers: [registry],
  });

  let watchedJobs: JobQueue | null = null;
  new Gauge({
    name: 'mirror_jobs',
    help: 'Jobs in the queue by state (waiting, delayed, active, failed)',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      if (!watchedJobs) return;
      // The queue's backend may be down or waiting to reconnect (that is what /api/ready reports):
      // the other metrics are still served in time, with these left at their last reading.
      let timer: NodeJS.Timeout | undefined;
      const counts = await Promise.race([
        watchedJobs.counts().catch(() => null),
        new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), JOBS_WAIT_MS))),
      ]).finally(() => clearTimeout(timer));
      if (!counts) return;
      for (const [state, count] of Object.entries(counts)) this.set({ state }, count);
    },
  });
  let readSitesRequests: (() => number) | null = null;
  new Counter({
    name: 'mirror_sites_requests_total',
    help: 'Requests answered by the sites host (tenant sites, custom and parked domains)',
    registers: [registry],
    collect() {
      if (!readSitesRequests) return;
      this.reset();
      this.inc(readSitesRequests());
    },
  });

  return {
    registry,
    observeHttp(method, route, status, seconds) {
      httpDuration.observe({ method, route, status_code: String(status) }, seconds);
    },
    instrumentJob(definition) {
      return {
        ...definition,
        async handle(payload, context) {
          const end = jobDuration.startTimer({ job: definition.name });
          try {
            await definition.handle(payload, context);
            end({ outcome: 'completed' });
          } catch (err) {
            end({ outcome: context.signal.aborted ? 'interrupted' : 'failed' });
            throw err;
          }
        },
      };
    },
    mirrored({ pages, bytes }) {
      pagesMirrored.inc(pages);
      bytesMirrored.inc(bytes);
    },
    watchJobs(jobs) {
      watchedJobs = jobs;
    },
    watchSitesRequests(read) {
      readSitesRequests = read;
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
