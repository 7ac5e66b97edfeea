import type { MirrorOptions, Phase, ProgressEvent } from '../types.js';
import { createEtaEstimator } from './eta.js';
import type { FailureLog } from './failure-log.js';
import type { Frontier } from './frontier.js';

/** What a run has done so far; the manifest's stats and the progress events read it. */
export interface Counters {
  bytes: number;
  requests: number;
  notModified: number;
  /** Entries recorded (fetched, redirected, not modified, taken from a render). */
  done: number;
  rendered: number;
}

export function newCounters(): Counters {
  return { bytes: 0, requests: 0, notModified: 0, done: 0, rendered: 0 };
}

/**
 * The run's statistics as progress events (as crawlee's `statistics.ts`): the phase, the counts,
 * the share done and an estimate of the time left, at most every 100 ms unless forced.
 */
export class Progress {
  private phase: Phase = 'discovering';
  private lastEmit = 0;
  private currentUrl: string | undefined;
  private currentPage: string | undefined;
  private rewritten: { done: number; total: number } | undefined;
  private readonly eta = createEtaEstimator();

  constructor(
    private readonly onProgress: MirrorOptions['onProgress'],
    private readonly frontier: Frontier,
    private readonly failures: FailureLog,
    private readonly counters: Counters,
    private readonly deadline: number,
  ) {}

  /** The file being fetched now (and the page, when it is one). */
  fetching(url: string, isPage: boolean): void {
    this.currentUrl = url;
    if (isPage) this.currentPage = url;
  }

  rewriting(done: number, total: number): void {
    this.currentUrl = undefined;
    this.currentPage = undefined;
    this.rewritten = { done, total };
    this.emit('rewriting');
  }

  emit(phase: Phase = this.phase, force = false): void {
    this.phase = phase;
    const onProgress = this.onProgress;
    if (!onProgress) return;
    const now = Date.now();
    if (!force && now - this.lastEmit < 100) return;
    this.lastEmit = now;
    const { lanes, found } = this.frontier;
    const queued = lanes.queued;
    const inFlight = lanes.active;
    const finished = this.counters.done + this.failures.total;
    const fetchShare = finished / Math.max(1, finished + queued + inFlight);
    const rewriteShare = this.rewritten
      ? this.rewritten.done / Math.max(1, this.rewritten.total)
      : 0;
    const progress =
      phase === 'done'
        ? 1
        : phase === 'finalizing'
          ? 0.99
          : phase === 'rewriting'
            ? 0.9 + 0.09 * rewriteShare
            : 0.9 * fetchShare;
    let estimatedTime: number | null;
    if (phase === 'done' || phase === 'finalizing') estimatedTime = 0;
    else if (phase === 'rewriting')
      estimatedTime = this.eta.update({
        at: now,
        done: this.rewritten?.done ?? 0,
        found: this.rewritten?.total ?? 0,
        stage: 'rewrite',
      });
    else
      estimatedTime = this.eta.update({
        at: now,
        done: finished,
        found: finished + queued + inFlight,
        inFlight,
        stage: 'crawl',
        deadline: this.deadline,
      });
    const pagesLeft = lanes.pending('|page');
    const filesLeft = lanes.pending('|asset');
    const event: ProgressEvent = {
      phase,
      queued,
      inFlight,
      done: this.counters.done,
      failed: this.failures.total,
      bytes: this.counters.bytes,
      pages: { done: Math.max(0, found.page - pagesLeft), found: found.page },
      files: { done: Math.max(0, found.asset - filesLeft), found: found.asset },
      progress: Math.min(1, Math.max(0, progress)),
      estimatedTime,
      ...(this.currentUrl ? { currentUrl: this.currentUrl } : {}),
      ...(this.currentPage ? { currentPage: this.currentPage } : {}),
    };
    onProgress(event);
  }
}
