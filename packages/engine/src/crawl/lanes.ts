import { Deque } from './deque.js';

/**
 * How far a lane may grow past its starting limit, as a multiple of it, while the origin answers
 * as fast as it did at first and never asks to slow down.
 */
export const LANE_GROWTH = 2;
/**
 * The origin keeps up while its recent answers take at most this multiple of its fastest (plus
 * `SLOWER_SLACK_MS`, so that sub-millisecond answers on loopback do not read as a slowdown).
 */
const SLOWER_FACTOR = 1.5;
const SLOWER_SLACK_MS = 5;
/** Weight of the newest answer in the moving average of answer times. */
const RECENT_WEIGHT = 0.1;

/**
 * Per-host, per-kind concurrency: additive increase, multiplicative decrease (AIMD).
 * - A lane starts at its limit (`max`), halves on 429/503 (and pauses for Retry-After), and grows
 *   back by one after every `limit` successes.
 * - Past `max` it grows on the same rule, up to `ceiling` (`LANE_GROWTH` × max), only while tasks
 *   wait in it and the origin answers as fast as it did with fewer requests at once (its latency,
 *   not its queue, bounds the run). A lane that was ever told to slow down (429/503) or that keeps
 *   a Crawl-delay never grows past `max` again; one whose answers slow down shrinks back towards it.
 */
export interface Lane<T> {
  queue: Deque<T>;
  active: number;
  limit: number;
  max: number;
  ceiling: number;
  successes: number;
  /** Earliest time the next task may start (Retry-After, crawl-delay). */
  notBefore: number;
  spacingMs: number;
  /** The origin answered 429 or 503 on this lane once: it stays at `max` or below. */
  throttled: boolean;
  /** The fastest answer seen (ms from request to response headers), and a moving average. */
  fastestMs: number;
  recentMs: number;
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
        ceiling: max * LANE_GROWTH,
        successes: 0,
        notBefore: 0,
        spacingMs: 0,
        throttled: false,
        fastestMs: Infinity,
        recentMs: 0,
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
    lane.throttled = true;
    lane.limit = Math.max(1, Math.floor(Math.min(lane.limit, lane.max) / 2));
    lane.successes = 0;
    lane.notBefore = Math.max(lane.notBefore, now + retryAfterMs);
  }

  /** A task of the lane succeeded; `answeredInMs` is how long the origin took to answer it. */
  static succeed<T>(lane: Lane<T>, answeredInMs?: number): void {
    if (answeredInMs !== undefined && answeredInMs >= 0) {
      lane.fastestMs = Math.min(lane.fastestMs, answeredInMs);
      lane.recentMs =
        lane.recentMs === 0
          ? answeredInMs
          : lane.recentMs * (1 - RECENT_WEIGHT) + answeredInMs * RECENT_WEIGHT;
    }
    lane.successes++;
    if (lane.successes < lane.limit) return;
    lane.successes = 0;
    if (lane.limit < lane.max) {
      lane.limit++;
      return;
    }
    if (lane.throttled || lane.spacingMs > 0) return;
    const slower = lane.recentMs > lane.fastestMs * SLOWER_FACTOR + SLOWER_SLACK_MS;
    if (slower) {
      if (lane.limit > lane.max) lane.limit--;
    } else if (lane.limit < lane.ceiling && lane.queue.length > 0) {
      lane.limit++;
    }
  }
}
