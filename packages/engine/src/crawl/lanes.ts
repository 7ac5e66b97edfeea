import { Deque } from './deque.js';

/**
 * Per-host, per-kind concurrency with AIMD: a lane starts at its limit, halves on 429/503 (and pauses
 * for Retry-After), and grows back by one after every `limit` successes.
 */
export interface Lane<T> {
  queue: Deque<T>;
  active: number;
  limit: number;
  max: number;
  successes: number;
  /** Earliest time the next task may start (Retry-After, crawl-delay). */
  notBefore: number;
  spacingMs: number;
}

export class Lanes<T> {
  private readonly lanes = new Map<string, Lane<T>>();

  lane(key: string, max: number): Lane<T> {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = {
        queue: new Deque<T>(),
        active: 0,
        limit: max,
        max,
        successes: 0,
        notBefore: 0,
        spacingMs: 0,
      };
      this.lanes.set(key, lane);
    }
    return lane;
  }

  all(): IterableIterator<Lane<T>> {
    return this.lanes.values();
  }

  get queued(): number {
    let n = 0;
    for (const lane of this.lanes.values()) n += lane.queue.length;
    return n;
  }

  get active(): number {
    let n = 0;
    for (const lane of this.lanes.values()) n += lane.active;
    return n;
  }

  /** Tasks waiting or running in the lanes whose key ends with `suffix` (`|page`, `|asset`). */
  pending(suffix: string): number {
    let n = 0;
    for (const [key, lane] of this.lanes)
      if (key.endsWith(suffix)) n += lane.queue.length + lane.active;
    return n;
  }

  static backOff<T>(lane: Lane<T>, retryAfterMs: number, now: number): void {
    lane.limit = Math.max(1, Math.floor(lane.limit / 2));
    lane.successes = 0;
    lane.notBefore = Math.max(lane.notBefore, now + retryAfterMs);
  }

  static succeed<T>(lane: Lane<T>): void {
    lane.successes++;
    if (lane.limit < lane.max && lane.successes >= lane.limit) {
      lane.limit++;
      lane.successes = 0;
    }
  }
}
