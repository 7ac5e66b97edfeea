import { DelayedError, Queue, UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { backgroundSlots, PermanentJobError, type JobDefinition, type JobQueue } from './job.js';

export interface BullmqJobQueueOptions {
  /** `redis://host:port[/db]`. */
  redisUrl: string;
  log: FastifyBaseLogger;
  concurrency: number;
  /** A running job holds a lock this long, renewed while it runs; a dead worker's job is taken over. */
  leaseMs?: number;
  /** Key prefix in Redis (tests use one per run). */
  prefix?: string;
  /** Queue name; every job definition shares it. */
  queueName?: string;
}

/**
 * BullMQ's priority of background work (`JobDefinition.background`): jobs without one (0) are
 * taken first.
 */
const BACKGROUND_PRIORITY = 10;
/** A background job taken while the process's background slots are full waits this long. */
const BACKGROUND_RETRY_MS = 1_000;

/** What a job's stored data carries besides the payload. */
interface StoredJob {
  payload: unknown;
}

/** A client for BullMQ: it blocks on Redis, so commands wait for a reconnect instead of failing. */
function connect(redisUrl: string): Redis {
  return new Redis(redisUrl, { maxRetriesPerRequest: null });
}

/**
 * The same job definitions on BullMQ (Redis), for many processes: retries with exponential
 * back-off, stalled jobs (a worker that died) taken over by another worker after the lease, and a
 * drain that gives running jobs back to the queue without counting a try.
 */
export function createBullmqJobQueue(options: BullmqJobQueueOptions): JobQueue {
  const { log } = options;
  const connection = connect(options.redisUrl);
  const prefix = options.prefix ?? 'mirror';
  const queueName = options.queueName ?? 'jobs';
  const leaseMs = options.leaseMs ?? 30_000;
  const definitions = new Map<string, JobDefinition<unknown>>();
  const queue = new Queue(queueName, { connection, prefix });
  queue.on('error', (err) => log.error({ err }, 'job queue connection error'));
  let worker: Worker | null = null;
  const schedules: { definition: JobDefinition<unknown>; everyMs: number }[] = [];
  /** Background jobs this process runs now (at most `backgroundSlots`). */
  let backgroundRunning = 0;

  /** Lets the job's definition record the failure where users see it. */
  async function abandon(definition: JobDefinition<unknown>, job: Job<StoredJob>): Promise<void> {
    const jobLog = log.child({ jobId: job.id, job: job.name });
    jobLog.warn('job failed: its process died during the last try');
    if (!definition.onAbandoned) return;
    try {
      await definition.onAbandoned(definition.payload.parse(job.data.payload), jobLog);
    } catch (err) {
      jobLog.error({ err }, 'recording an abandoned job failed');
    }
  }

  async function processJob(job: Job<StoredJob>, token?: string, signal?: AbortSignal) {
    const definition = definitions.get(job.name);
    if (!definition) throw new UnrecoverableError(`no job definition named ${job.name}`);
    // A try whose worker died (the job stalled) counts like one that failed: a job that kills its
    // worker every time must end, not run forever.
    const attempt = job.attemptsMade + job.stalledCounter + 1;
    const jobLog = log.child({ jobId: job.id, job: job.name, attempt });
    if (attempt > definition.maxAttempts) {
      await abandon(definition, job);
      throw new UnrecoverableError('its process died during the last try');
    }
    if (definition.background) {
      // The worker takes background work only when nothing waits before it (its priority); the
      // last free slot stays for the next job a person waits for.
      if (backgroundRunning >= backgroundSlots(options.concurrency)) {
        await job.moveToDelayed(Date.now() + BACKGROUND_RETRY_MS, token);
        throw new DelayedError();
      }
      backgroundRunning++;
    }
    const abort = signal ?? new AbortController().signal;
    try {
      const payload = definition.payload.parse(job.data.payload);
      await definition.handle(payload, { jobId: job.id!, attempt, signal: abort, log: jobLog });
    } catch (err) {
      if (abort.aborted) {
        // Draining: give the job back untouched; another worker (or this one later) runs it.
        await job.moveToWait(token);
        throw new WaitingError();
      }
      const permanent = err instanceof PermanentJobError || attempt >= definition.maxAttempts;
      jobLog.warn({ err }, permanent ? 'job failed' : 'job failed; will try again');
      if (err instanceof PermanentJobError) throw new UnrecoverableError(err.message);
      throw err;
    } finally {
      if (definition.background) backgroundRunning--;
    }
  }

  return {
    register(definition) {
      definitions.set(definition.name, definition as JobDefinition<unknown>);
    },
    async enqueue(definition, payload, enqueueOptions = {}) {
      const data: StoredJob = { payload: definition.payload.parse(payload) };
      const delay = enqueueOptions.runAt ? enqueueOptions.runAt.getTime() - Date.now() : 0;
      const job = await queue.add(definition.name, data, {
        attempts: definition.maxAttempts,
        backoff: { type: 'exponential', delay: definition.backoffMs, jitter: 0.25 },
        ...(delay > 0 ? { delay } : {}),
        ...(definition.background ? { priority: BACKGROUND_PRIORITY } : {}),
        removeOnComplete: { age: 24 * 3600, count: 1000 },
        removeOnFail: { age: 7 * 24 * 3600 },
      });
      return job.id!;
    },
    async counts() {
      const c = await queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active', 'failed');
      return {
        waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
        delayed: c.delayed ?? 0,
        active: c.active ?? 0,
        failed: c.failed ?? 0,
      };
    },
    schedule(definition, everyMs) {
      definitions.set(definition.name, definition as JobDefinition<unknown>);
      schedules.push({ definition: definition as JobDefinition<unknown>, everyMs });
    },
    start() {
      if (worker) return;
      // A repeatable job per definition, kept in Redis: BullMQ queues one job per period for all
      // processes, whichever worker takes it. Upserting again (every start) changes nothing.
      for (const { definition, everyMs } of schedules) {
        const data: StoredJob = { payload: {} };
        queue
          .upsertJobScheduler(
            definition.name,
            { every: everyMs },
            {
              name: definition.name,
              data,
              opts: {
                attempts: definition.maxAttempts,
                removeOnComplete: { count: 100 },
                removeOnFail: { count: 100 },
              },
            },
          )
          .catch((err: unknown) =>
            log.error({ err, job: definition.name }, 'scheduling a job failed'),
          );
      }
      worker = new Worker<StoredJob>(queueName, processJob, {
        // Its own client: a worker's blocking reads must not hold up the producer's commands.
        connection: connect(options.redisUrl),
        prefix,
        concurrency: options.concurrency,
        lockDuration: leaseMs,
        stalledInterval: Math.max(1_000, Math.floor(leaseMs / 2)),
        // Tries are counted in processJob, stalls included; BullMQ's limit only backs that up.
        maxStalledCount: 10,
      });
      worker.on('error', (err) => log.error({ err }, 'job worker error'));
      // BullMQ's own limit on stalls (set above our tries, so this is a last resort).
      worker.on('failed', (job, err) => {
        const definition = job ? definitions.get(job.name) : undefined;
        if (job && definition && /stalled more than allowable limit/.test(err.message))
          void abandon(definition, job);
      });
    },
    async stop(graceMs = 10_000) {
      const current = worker;
      worker = null;
      if (!current) return;
      // Stop taking jobs; running ones get `graceMs` to finish, then their signal is aborted and
      // they go back to the queue.
      const closed = current.close();
      const timer = setTimeout(() => current.cancelAllJobs('draining'), graceMs);
      try {
        await closed;
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      // Graceful when nobody stopped the worker before (the default drain time).
      await this.stop();
      await queue.close();
      connection.disconnect();
    },
  };
}
