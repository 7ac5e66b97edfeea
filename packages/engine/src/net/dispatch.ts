/**
 * One request through undici's dispatch API, its body a queue read with `for await`.
 *
 * undici's `request()` wraps every response in a Node Readable (with an AsyncResource and an abort
 * listener of its own), and `for await` over a Readable costs more again. On bench:mirror's 12,000
 * small files, a loop that only fetches and writes spends 3.6 CPU-s through `request()` and 2.6
 * through a handler like this one, where wget spends 2.7 (docs/engine.md, "HTTP"). Chunks are
 * queued as they arrive; past HIGH_WATER queued bytes the connection is paused until the reader
 * catches up, so a body read slowly, or not at all, holds at most that much.
 */
import type { Dispatcher } from 'undici';

/** Bytes queued before the connection is paused (undici's Readable holds as much). */
const HIGH_WATER = 64 * 1024;

/** What the request's clock hears of its body (RequestClock's speed rule). */
export interface BodyWatch {
  /** The reader waits and nothing is queued: the server is keeping it waiting. */
  waiting(): void;
  /** Bytes arrived from the server (the wait, if any, is over). */
  received(bytes: number): void;
}

export interface RawResponse {
  statusCode: number;
  /** Names lower-case; repeated headers joined with ', '. */
  headers: Record<string, string>;
  body: ResponseBody;
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * A response body as it arrives. Read once with `for await`; stopping early (break, throw)
 * destroys it. Closed when the server's last byte arrived, the request failed, or it was
 * destroyed: then the connection is released (kept for reuse after a complete body).
 */
export class ResponseBody implements AsyncIterable<Uint8Array> {
  readonly #chunks: Uint8Array[] = [];
  #queued = 0;
  /** The server's last byte arrived. */
  #complete = false;
  /** Why the body ended short (a failure, an abort, destroy()); undefined while it has not. */
  #failure: { reason: unknown } | undefined;
  #closed = false;
  #wake: (() => void) | null = null;
  #discard: { limit: number; timer: NodeJS.Timeout | undefined } | null = null;
  readonly #onClose: (() => void)[] = [];

  constructor(
    private readonly controller: Dispatcher.DispatchController,
    private readonly watch: BodyWatch | undefined,
  ) {}

  /** A chunk from the server; false: pause the connection. */
  push(chunk: Uint8Array): boolean {
    if (this.#closed) return true;
    this.watch?.received(chunk.byteLength);
    if (this.#discard) {
      this.#discard.limit -= chunk.byteLength;
      if (this.#discard.limit < 0) this.destroy();
      return true;
    }
    this.#chunks.push(chunk);
    this.#queued += chunk.byteLength;
    this.#wakeReader();
    return this.#queued < HIGH_WATER;
  }

  /** The server's last byte arrived. */
  end(): void {
    if (this.#closed) return;
    this.#complete = true;
    this.#close();
  }

  /** The request failed (network, timeout, abort): a reader gets `reason`. */
  fail(reason: unknown): void {
    if (this.#closed) return;
    this.#failure = { reason };
    this.#close();
  }

  /** Drops the body and closes its connection, unless it was complete. A reader gets `reason`. */
  destroy(reason?: unknown): void {
    if (this.#closed) return;
    const error =
      reason instanceof Error
        ? reason
        : new Error('The response body was dropped before its end', { cause: reason });
    this.#failure = { reason: error };
    this.#close();
    this.controller.abort(error);
  }

  /**
   * Reads what is left and throws it away, when it is at most `limit` bytes and done within
   * `graceMs` (the connection is then reused); otherwise destroys the body. Resolves once closed.
   */
  dump(limit: number, graceMs: number): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const closed = new Promise<void>((resolve) => this.#onClose.push(resolve));
    const queued = this.#queued;
    this.#chunks.length = 0;
    this.#queued = 0;
    if (queued > limit) {
      this.destroy();
      return closed;
    }
    const timer = setTimeout(() => this.destroy(), graceMs);
    timer.unref();
    this.#discard = { limit: limit - queued, timer };
    this.#resumeIfPaused();
    return closed;
  }

  /** Calls `listener` once the body is closed (at once if it is). */
  onClose(listener: () => void): void {
    if (this.#closed) listener();
    else this.#onClose.push(listener);
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return {
      next: () => this.#next(),
      return: () => {
        this.destroy();
        return Promise.resolve(DONE);
      },
    };
  }

  #next(): Promise<IteratorResult<Uint8Array>> {
    if (this.#chunks.length > 0) {
      // Everything queued at once, as a Readable gives it: a reader slower than the socket takes
      // fewer, larger chunks instead of falling further behind one chunk at a time.
      const chunk =
        this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks, this.#queued);
      this.#chunks.length = 0;
      this.#queued = 0;
      this.#resumeIfPaused();
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.#failure) return Promise.reject(this.#failure.reason);
    if (this.#complete) return Promise.resolve(DONE);
    this.watch?.waiting();
    return new Promise<void>((resolve) => {
      this.#wake = resolve;
    }).then(() => this.#next());
  }

  #wakeReader(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  #resumeIfPaused(): void {
    // The handler paused the connection when push() said so (onResponseData).
    if (this.controller.paused) this.controller.resume();
  }

  #close(): void {
    this.#closed = true;
    if (this.#discard) clearTimeout(this.#discard.timer);
    this.#wakeReader();
    for (const listener of this.#onClose.splice(0)) listener();
  }
}

function headerRecord(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in raw) {
    const value = raw[name];
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * Sends one request; resolves with the response once its head arrived (1xx answers skipped).
 * An abort of `signal` fails the request with its reason, or the body if it is being read.
 */
export function dispatch(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  signal: AbortSignal,
  watch?: BodyWatch,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    let controller: Dispatcher.DispatchController | null = null;
    let body: ResponseBody | null = null;
    /** Aborted before undici started the request: it is aborted as soon as it starts. */
    let abortedEarly: { reason: unknown } | null = null;
    let settled = false;
    const fail = (reason: unknown) => {
      if (settled) return;
      settled = true;
      reject(reason);
    };
    const onAbort = () => {
      const reason: unknown = signal.reason;
      if (body) body.destroy(reason);
      else if (controller) controller.abort(reason as Error);
      else abortedEarly = { reason };
      fail(reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const unlisten = () => signal.removeEventListener('abort', onAbort);

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(started) {
        controller = started;
        if (abortedEarly) started.abort(abortedEarly.reason as Error);
      },
      onResponseStart(started, statusCode, headers) {
        if (statusCode < 200) return;
        body = new ResponseBody(started, watch);
        body.onClose(unlisten);
        settled = true;
        resolve({ statusCode, headers: headerRecord(headers), body });
      },
      onResponseData(started, chunk) {
        if (body && !body.push(chunk)) started.pause();
      },
      onResponseEnd() {
        body?.end();
      },
      onResponseError(_started, error) {
        if (body) {
          body.fail(error);
          return;
        }
        unlisten();
        fail(error);
      },
    };
    try {
      dispatcher.dispatch(options, handler);
    } catch (error) {
      unlisten();
      fail(error);
    }
  });
}
