import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import {
  backgroundSlots,
  PermanentJobError,
  retryDelayMs,
  type JobDefinition,
  type JobQueue,
} from './job.js';

export interface LocalJobQueueOptions {
  db: Db;
  log: FastifyBaseLogger;
  concurrency: number;
  /** A claimed job is this process's while its lease is renewed; a dead process's lease runs out. */
  leaseMs?: number;
  pollMs?: number;
}

/**
 * Jobs in the database, run in this process. A claim is a conditional update, so two processes on
 * one database never run the same job; a running job renews its lease, and a job whose process
 * died (lease expired) goes back to the queue and runs again.
 */
export function createLocalJobQueue(
  options: LocalJobQueueOptions,
): JobQueue & { idle(): Promise<void> } {
  const { db, log } = options;
  const leaseMs = options.leaseMs ?? 15_000;
  const pollMs = options.pollMs ?? 500;
  const workerId = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const definitions = new Map<string, JobDefinition<unknown>>();
  const running = new Map<
    string,
    { promise: Promise<void>; abort: AbortController; background: boolean }
  >();
  let timer: NodeJS.Timeout | null = null;
  let stopping = false;
  let pumping = false;
  let idleWaiters: (() => void)[] = [];
  const schedules: { definition: JobDefinition<unknown>; everyMs: number }[] = [];
  const scheduleTimers: NodeJS.Timeout[] = [];

  const now = () => new Date().toISOString();
  const later = (ms: number) => new Date(Date.now() + ms).toISOString();

  /**
   * Jobs whose process died (lease ran out) go back to the queue, unless that was their last try:
   * a job that kills its worker every time must end, not run forever. The dead try counted when it
   * was claimed.
   */
  async function requeueExpired(): Promise<void> {
    const at = now();
    const abandoned = await db
      .updateTable('jobs')
      .set({
        status: 'failed',
        locked_by: null,
        locked_until: null,
        last_error: 'its process died during the last try',
        updated_at: at,
      })
      .where('status', '=', 'running')
      .where('locked_until', '<', at)
      .where((eb) => eb('attempts', '>=', eb.ref('max_attempts')))
      .returning(['id', 'name', 'payload'])
      .execute();
    for (const job of abandoned) await abandon(job);
    await db
      .updateTable('jobs')
      .set({ status: 'queued', locked_by: null, locked_until: null, updated_at: at })
      .where('status', '=', 'running')
      .where('locked_until', '<', at)
      .execute();
  }

  /** Lets the job's definition record the failure where users see it. */
  async function abandon(job: { id: string; name: string; payload: string }): Promise<void> {
    const definition = definitions.get(job.name);
    const jobLog = log.child({ jobId: job.id, job: job.name });
    jobLog.warn('job failed: its process died during the last try');
    if (!definition?.onAbandoned) return;
    try {
      await definition.onAbandoned(definition.payload.parse(JSON.parse(job.payload)), jobLog);
    } catch (err) {
      jobLog.error({ err }, 'recording an abandoned job failed');
    }
  }

  /** Due jobs of these names, oldest first. */
  async function due(names: string[]) {
    if (names.length === 0) return [];
    return db
      .selectFrom('jobs')
      .select('id')
      .where('status', '=', 'queued')
      .where('run_at', '<=', now())
      .where('name', 'in', names)
      .orderBy('run_at')
      .limit(5)
      .execute();
  }

  /**
   * The next job: one somebody waits for first, else background work while it has a slot left
   * (all but one of them: `backgroundSlots`).
   */
  async function claim() {
    const names = [...definitions.keys()];
    const isBackground = (name: string) => definitions.get(name)?.background === true;
    const backgroundRunning = [...running.values()].filter((job) => job.background).length;
    let candidates = await due(names.filter((name) => !isBackground(name)));
    if (candidates.length === 0 && backgroundRunning < backgroundSlots(options.concurrency))
      candidates = await due(names.filter(isBackground));
    for (const { id } of candidates) {
      const job = await db
        .updateTable('jobs')
        .set((eb) => ({
          status: 'running',
          locked_by: workerId,
          locked_until: later(leaseMs),
          attempts: eb('attempts', '+', 1),
          updated_at: now(),
        }))
        .where('id', '=', id)
        .where('status', '=', 'queued')
        .returningAll()
        .executeTakeFirst();
      if (job) return job;
    }
    return undefined;
  }

  async function run(
    job: NonNullable<Awaited<ReturnType<typeof claim>>>,
    abort: AbortController,
  ): Promise<void> {
    const definition = definitions.get(job.name)!;
    const heartbeat = setInterval(
      () => {
        void db
          .updateTable('jobs')
          .set({ locked_until: later(leaseMs) })
          .where('id', '=', job.id)
          .where('locked_by', '=', workerId)
          .execute()
          .catch((err: unknown) =>
            log.error({ err, jobId: job.id }, 'renewing a job lease failed'),
          );
      },
      Math.max(250, Math.floor(leaseMs / 3)),
    );
    const jobLog = log.child({ jobId: job.id, job: job.name, attempt: job.attempts });
    try {
      const payload = definition.payload.parse(JSON.parse(job.payload));
      await definition.handle(payload, {
        jobId: job.id,
        attempt: job.attempts,
        signal: abort.signal,
        log: jobLog,
      });
      await db
        .updateTable('jobs')
        .set({
          status: 'done',
          locked_by: null,
          locked_until: null,
          last_error: null,
          updated_at: now(),
        })
        .where('id', '=', job.id)
        .execute();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (abort.signal.aborted) {
        // Draining: give the job back untouched (this try does not count).
        await db
          .updateTable('jobs')
          .set((eb) => ({
            status: 'queued',
            locked_by: null,
            locked_until: null,
            attempts: eb('attempts', '-', 1),
            updated_at: now(),
          }))
          .where('id', '=', job.id)
          .execute();
        return;
      }
      const permanent = err instanceof PermanentJobError || job.attempts >= job.max_attempts;
      jobLog.warn({ err }, permanent ? 'job failed' : 'job failed; will try again');
      await db
        .updateTable('jobs')
        .set({
          status: permanent ? 'failed' : 'queued',
          run_at: permanent ? job.run_at : later(retryDelayMs(definition, job.attempts)),
          locked_by: null,
          locked_until: null,
          last_error: message.slice(0, 2000),
          updated_at: now(),
        })
        .where('id', '=', job.id)
        .execute();
    } finally {
      clearInterval(heartbeat);
    }
  }

  /**
   * One job per definition and period, whichever process gets there first: its id names the
   * period, so the others' inserts are no-ops.
   */
  async function enqueuePeriod(definition: JobDefinition<unknown>, everyMs: number) {
    const period = new Date(Math.floor(Date.now() / everyMs) * everyMs).toISOString();
    const at = now();
    await db
      .insertInto('jobs')
      .values({
        id: `${definition.name}@${period}`,
        name: definition.name,
        payload: '{}',
        status: 'queued',
        attempts: 0,
        max_attempts: definition.maxAttempts,
        run_at: at,
        locked_by: null,
        locked_until: null,
        last_error: null,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    setImmediate(() => void pump());
  }

  async function pump(): Promise<void> {
    if (pumping || stopping) return;
    pumping = true;
    try {
      await requeueExpired();
      while (!stopping && running.size < options.concurrency) {
        const job = await claim();
        if (!job) break;
        const abort = new AbortController();
        const promise = run(job, abort)
          .catch((err: unknown) => log.error({ err, jobId: job.id }, 'job bookkeeping failed'))
          .finally(() => {
            running.delete(job.id);
            if (running.size === 0) {
              idleWaiters.forEach((resolve) => resolve());
              idleWaiters = [];
            }
            void pump();
          });
        running.set(job.id, {
          promise,
          abort,
          background: definitions.get(job.name)?.background === true,
        });
      }
    } catch (err) {
      // A poll that began just before `stop` may end after the database is closed: not a fault.
      if (!stopping) log.error({ err }, 'polling the job queue failed');
    } finally {
      pumping = false;
    }
  }

  return {
    register(definition) {
      definitions.set(definition.name, definition as JobDefinition<unknown>);
    },
    async enqueue(definition, payload, enqueueOptions = {}) {
      const id = randomUUID();
      const at = now();
      await db
        .insertInto('jobs')
        .values({
          id,
          name: definition.name,
          payload: JSON.stringify(definition.payload.parse(payload)),
          status: 'queued',
          attempts: 0,
          max_attempts: definition.maxAttempts,
          run_at: (enqueueOptions.runAt ?? new Date()).toISOString(),
          locked_by: null,
          locked_until: null,
          last_error: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
      if (timer) setImmediate(() => void pump());
      return id;
    },
    async counts() {
      const at = now();
      const rows = await db
        .selectFrom('jobs')
        .select((eb) => [
          'status',
          eb.fn.countAll<number | string>().as('n'),
          eb.fn.countAll<number | string>().filterWhere('run_at', '>', at).as('later'),
        ])
        .where('status', 'in', ['queued', 'running', 'failed'])
        .groupBy('status')
        .execute();
      const counts = { waiting: 0, delayed: 0, active: 0, failed: 0 };
      for (const row of rows) {
        const n = Number(row.n);
        if (row.status === 'running') counts.active = n;
        else if (row.status === 'failed') counts.failed = n;
        else {
          counts.delayed = Number(row.later);
          counts.waiting = n - counts.delayed;
        }
      }
      return counts;
    },
    schedule(definition, everyMs) {
      definitions.set(definition.name, definition as JobDefinition<unknown>);
      schedules.push({ definition: definition as JobDefinition<unknown>, everyMs });
    },
    start() {
      if (timer) return;
      stopping = false;
      timer = setInterval(() => void pump(), pollMs);
      timer.unref();
      // Finished jobs are kept a day for inspection, as the BullMQ provider keeps them.
      const prune = setInterval(() => {
        db.deleteFrom('jobs')
          .where('status', '=', 'done')
          .where('updated_at', '<', new Date(Date.now() - 24 * 3_600_000).toISOString())
          .execute()
          .catch((err: unknown) => log.error({ err }, 'pruning finished jobs failed'));
      }, 60 * 60_000);
      prune.unref();
      scheduleTimers.push(prune);
      for (const { definition, everyMs } of schedules) {
        const every = setInterval(() => {
          enqueuePeriod(definition, everyMs).catch((err: unknown) =>
            log.error({ err, job: definition.name }, 'queuing a scheduled job failed'),
          );
        }, everyMs);
        every.unref();
        scheduleTimers.push(every);
      }
      void pump();
    },
    async stop(graceMs = 10_000) {
      stopping = true;
      if (timer) clearInterval(timer);
      timer = null;
      scheduleTimers.splice(0).forEach(clearInterval);
      const all = [...running.values()];
      const finished = Promise.allSettled(all.map((r) => r.promise));
      const grace = new Promise((resolve) => setTimeout(resolve, graceMs).unref());
      await Promise.race([finished, grace]);
      for (const r of running.values()) r.abort.abort(new Error('shutting down'));
      await finished;
    },
    async close() {
      // Nothing of its own to release: the jobs live in the app's database.
    },
    idle() {
      return running.size === 0
        ? Promise.resolve()
        : new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}
