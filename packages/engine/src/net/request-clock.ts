/**
 * Time limits of one request() call. undici's connect, headers and body-idle timeouts each restart
 * (the body one on every chunk, the headers one on every 1xx), so a server dripping a byte at a
 * time could hold a request forever. Two rules bound it, both failing with ETOOSLOW:
 *
 * - a total deadline, from sending the request to the last body byte, redirects included;
 * - a minimum body speed, judged over the time spent waiting for the server only: a reader that
 *   is itself slow (or holds the body unread) is not taken for a slow server.
 */
import { NetError } from './errors.js';

export interface SpeedRule {
  /** Slowest average accepted; 0 turns the rule off. */
  minBytesPerSecond: number;
  /** Waiting time before the average is judged (a slow start is normal). */
  afterMs: number;
}

export class RequestClock {
  private readonly controller = new AbortController();
  private readonly started = performance.now();
  private readonly deadline: NodeJS.Timeout | undefined;
  private readonly unlink: () => void;
  private url: string;
  /** Body bytes of the current hop, as received (before decoding). */
  private bytes = 0;

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
  }

  /** The request is over (body consumed, released or failed): no limit applies any more. */
  stop(): void {
    clearTimeout(this.deadline);
    this.unlink();
  }

  /** Throws the reason the request was aborted for, if it was. */
  throwIfAborted(): void {
    if (this.signal.aborted) throw this.signal.reason;
  }

  /** The body as received, timed: fails the request when the server is too slow to send it. */
  async *meter(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    const { minBytesPerSecond, afterMs } = this.speed;
    let waited = 0;
    let timer: NodeJS.Timeout | undefined;
    let since = 0;
    const wait = () => {
      since = performance.now();
      if (minBytesPerSecond <= 0) return;
      // The bytes stay the same while waiting, so the average can only fall: the first moment it
      // breaks the rule is known in advance.
      const allowed = Math.max(afterMs, (this.bytes * 1000) / minBytesPerSecond);
      timer = setTimeout(
        () =>
          this.fail(
            waited + performance.now() - since,
            `under ${minBytesPerSecond} bytes/s while waiting for the server`,
          ),
        Math.max(0, allowed - waited),
      );
      timer.unref();
    };
    const arrived = () => {
      clearTimeout(timer);
      waited += performance.now() - since;
    };
    try {
      wait();
      for await (const chunk of body) {
        arrived();
        this.bytes += chunk.byteLength;
        yield chunk;
        wait();
      }
    } finally {
      clearTimeout(timer);
    }
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
