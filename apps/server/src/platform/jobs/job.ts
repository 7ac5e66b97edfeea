import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';

/**
 * A job: a name, a zod payload, its retry policy, and a handler. Definitions know nothing about
 * where jobs are stored; a provider (the local table today, BullMQ at scale) runs them.
 */
export interface JobDefinition<P> {
  name: string;
  payload: z.ZodType<P>;
  /** Tries in all, including the first. */
  maxAttempts: number;
  /** Wait before the second try; doubled for each try after that (with jitter). */
  backoffMs: number;
  /**
   * Work nobody waits for (thumbnails, fidelity checks, visual diffs): a process takes it after
   * the jobs people wait for (a mirror, a customization, a domain check), and with two or more
   * slots never takes the last free one for it, so a new mirror starts at once however many
   * checks are queued.
   */
  background?: boolean;
  handle(payload: P, context: JobContext): Promise<void>;
  /**
   * The job is given up without its handler having ended it: its process died during the last try
   * (killed, out of memory). Records the failure where users see it; may run more than once.
   */
  onAbandoned?(payload: P, log: FastifyBaseLogger): Promise<void>;
}

export interface JobContext {
  jobId: string;
  attempt: number;
  /** Aborted when the process drains on shutdown: stop soon; the job is tried again later. */
  signal: AbortSignal;
  log: FastifyBaseLogger;
}

export function defineJob<P>(definition: JobDefinition<P>): JobDefinition<P> {
  return definition;
}

/** Thrown by a handler when trying again cannot help (bad input, a refused address). */
export class PermanentJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}

export interface EnqueueOptions {
  /** Run no earlier than this. */
  runAt?: Date;
}

/** Jobs by state, for metrics; asking also proves the queue's backend answers (readiness). */
export interface JobCounts {
  /** Due now, not yet taken. */
  waiting: number;
  /** Due later (a retry's back-off, a schedule). */
  delayed: number;
  active: number;
  failed: number;
}

export interface JobQueue {
  register<P>(definition: JobDefinition<P>): void;
  enqueue<P>(definition: JobDefinition<P>, payload: P, options?: EnqueueOptions): Promise<string>;
  /**
   * Runs `definition` (empty payload) every `everyMs` on one of the processes that started their
   * queue, never on several at once for the same period. Call before `start`.
   */
  schedule(definition: JobDefinition<Record<string, never>>, everyMs: number): void;
  start(): void;
  /** Stops taking jobs, lets running ones finish for `graceMs`, then aborts and requeues them. */
  stop(graceMs?: number): Promise<void>;
  counts(): Promise<JobCounts>;
  /** Releases connections (after `stop`); the queue cannot be used afterwards. */
  close(): Promise<void>;
}

/** How many background jobs a process with `concurrency` slots runs at once: all but one. */
export function backgroundSlots(concurrency: number): number {
  return Math.max(1, concurrency - 1);
}

export function retryDelayMs(definition: { backoffMs: number }, attempt: number): number {
  return Math.round(
    definition.backoffMs * 2 ** Math.max(0, attempt - 1) * (0.75 + Math.random() * 0.5),
  );
}
