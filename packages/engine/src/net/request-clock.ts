/**
 * Time limits of one request() call. undici's connect, headers and body-idle timeouts each restart
 * (the body one on every chunk, the headers one on every 1xx), so a server dripping a byte at a
 * time could hold a request forever. Two rules bound it, both failing with ETOOSLOW:
 *
 * - a total deadline, from sending the request to the last body byte, redirects included;
 * - a minimum body speed, judged over the time spent waiting for the server only: a reader that
 *   is itself slow (or holds the body unread) is not taken for a slow server.
 */
import type { BodyWatch } from './dispatch.js';
import { NetError } from './errors.js';

export interface SpeedRule {
  /** Slowest average accepted; 0 turns the rule off. */
  minBytesPerSecond: number;
  /** Waiting time before the average is judged (a slow start is normal). */
  afterMs: number;
}

export class RequestClock implements BodyWatch {
  private readonly controller = new AbortController();
  private readonly started = performance.now();
  private readonly deadline: NodeJS.Timeout | undefined;
  private readonly unlink: () => void;
  private url: string;
  /** Body bytes of the current hop, as received (before decoding). */
  private bytes = 0;
  /** Time the reader has waited for the server, and since when it waits now (if it does). */
  private waited = 0;
  private since: number | undefined;
  private speedTimer: NodeJS.Timeout | undefined;

  /** Aborts the undici request (and destroys its body) with the reason of the first limit hit. */
  readonly signal: AbortSignal = this.controller.signal;

  constructor(
    url: string,
    maxRequestMs: number,
    private readonly speed: SpeedRule,
    outer: AbortSignal | undefined,
  ) {
    this.url = url;
    if (Number.isFinite(maxRequestMs)) {
      this.deadline = setTimeout(
        () =>
          this.fail(
            performance.now() - this.started,
            `more than the ${seconds(maxRequestMs)} s allowed per request`,
          ),
        Math.max(0, maxRequestMs),
      );
      // An abandoned body is released by this timer, but must not keep the process alive.
      this.deadline.unref();
    }
    // The caller's signal is forwarded rather than combined (AbortSignal.any): one listener, removed
    // when the request is over, whatever the caller's signal lives for.
    const forward = () => this.controller.abort(outer?.reason);
    if (outer?.aborted === true) forward();
    outer?.addEventListener('abort', forward, { once: true });
    this.unlink = () => outer?.removeEventListener('abort', forward);
  }

  /** A new hop (redirect): the byte count restarts, the deadline does not. */
  hop(url: string): void {
    this.url = url;
    this.bytes = 0;
    this.waited = 0;
  }

  /** The request is over (body consumed, released or failed): no limit applies any more. */
  stop(): void {
    clearTimeout(this.deadline);
    clearTimeout(this.speedTimer);
    this.unlink();
  }

  /** Throws the reason the request was aborted for, if it was. */
  throwIfAborted(): void {
    if (this.signal.aborted) throw this.signal.reason;
  }

  /**
   * The reader waits for the body and nothing is queued (BodyWatch): the speed rule's time runs
   * until bytes arrive. The bytes stay the same while waiting, so the average can only fall: the
   * first moment it breaks the rule is known in advance.
   */
  waiting(): void {
    const { minBytesPerSecond, afterMs } = this.speed;
    if (this.since !== undefined) return;
    this.since = performance.now();
    if (minBytesPerSecond <= 0) return;
    const allowed = Math.max(afterMs, (this.bytes * 1000) / minBytesPerSecond);
    this.speedTimer = setTimeout(
      () =>
        this.fail(
          this.waited + performance.now() - (this.since ?? 0),
          `under ${minBytesPerSecond} bytes/s while waiting for the server`,
        ),
      Math.max(0, allowed - this.waited),
    );
    this.speedTimer.unref();
  }

  /** Body bytes arrived (BodyWatch): a wait for them is over. */
  received(bytes: number): void {
    this.bytes += bytes;
    if (this.since === undefined) return;
    clearTimeout(this.speedTimer);
    this.waited += performance.now() - this.since;
    this.since = undefined;
  }

  private fail(ms: number, why: string): void {
    const error = new NetError(
      'ETOOSLOW',
      `${this.url} sent too slowly: ${this.bytes} bytes in ${seconds(ms)} s (${why})`,
      { url: this.url },
    );
    this.controller.abort(error);
  }
}

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}
