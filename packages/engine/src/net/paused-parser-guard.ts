/**
 * Workaround for undici issue 5360 (fixed in undici 8, which needs Node 22; we are on Node 20 and
 * undici 7): a crash no catch can stop.
 *
 * When a response body is read more slowly than the socket delivers it, undici's HTTP/1 parser
 * pauses. If the server's FIN arrives then (every close-delimited body, every `Connection: close`
 * answer), undici's socket 'end' handler calls `parser.finish()`, which asserts the parser is not
 * paused: an AssertionError thrown from an event handler kills the process. The 'close' handler
 * and the 'error' handler (for ECONNRESET) call `finish()` on the same condition.
 *
 * The fix guards the socket our connector hands to undici, so undici's own code never sees those
 * events at a moment it cannot handle:
 *
 * - 'end' while the parser is paused is held back, and delivered once undici's own resume has run
 *   (the body reader asked for more). The socket's buffer is empty when Node emits 'end', so every
 *   byte is already inside the parser: holding the event back loses nothing, and undici then
 *   completes the body exactly as it would have without backpressure (a close-delimited body ends,
 *   a short Content-Length or an unfinished chunked body fails).
 * - Holding 'end' back must not let Node close the socket on its own meanwhile (with
 *   allowHalfOpen false, Node ends our side after 'end', then destroys the socket without an
 *   error, and undici's 'close' handler would call `finish()` on the paused parser): the socket is
 *   made half-open for that time. Undici destroys it itself once it has seen 'end'.
 * - 'close' while paused without a recorded error (nothing we know of does this any more) and
 *   ECONNRESET while paused become plain socket errors, which undici handles without `finish()`:
 *   the body fails with UND_ERR_SOCKET instead of the process dying.
 * - A body that is never read again keeps the socket until the body is destroyed: the client's
 *   per-request deadline (maxRequestMs) does that.
 *
 * Why not patch `Parser.prototype.finish` the way upstream fixed it (PR 5474: resume the paused
 * parser and drain the socket through it)? That rewrites a class shared by every undici client in
 * the process, drives the wasm parser from outside undici, and copies logic upstream had to get
 * right twice (PR 5364 hung Content-Length bodies). The guard only reads `parser.paused` and changes
 * *when* undici sees an event, to a moment its own code is built for; if undici's internals move,
 * the guard does nothing rather than something wrong, and `paused-parser.test.ts` fails.
 *
 * Undici internals relied on (checked by that test): the `kParser` and `kError` symbols of
 * `undici/lib/core/symbols.js` (no `exports` map, so a deep require works), the parser's `paused`
 * flag, the parser being attached synchronously when our connector calls back, and the parser's
 * resume reading the socket (`socket.read()`), which is how we learn it resumed.
 */
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { errors } from 'undici';

const require = createRequire(import.meta.url);

export interface UndiciSymbols {
  kParser: symbol;
  kError: symbol;
}

export const undiciSymbols = require('undici/lib/core/symbols.js') as UndiciSymbols;

/** What the guard reads of undici's HTTP/1 parser. */
interface ParserView {
  paused: boolean;
}

type Emit = (event: string | symbol, ...args: unknown[]) => boolean;
type Read = (size?: number) => unknown;

const { kParser, kError } = undiciSymbols;

/** True once the socket carries undici's HTTP/1 parser (that is, undici uses it for HTTP/1). */
export function hasUndiciParser(socket: Socket): boolean {
  return (socket as unknown as Record<symbol, unknown>)[kParser] != null;
}

/** Installs the guard; to be called before undici attaches its listeners. A no-op for HTTP/2. */
export function guardPausedParser(socket: Socket): void {
  const slots = socket as unknown as Record<symbol, unknown>;
  const parser = () => slots[kParser] as ParserView | null | undefined;
  const paused = () => parser()?.paused === true;
  const target = socket as unknown as { emit: Emit; read: Read };
  const emit = target.emit;
  const read = target.read;
  let endHeld = false;

  const deliverEnd = () => {
    if (!endHeld) return;
    if (socket.destroyed || parser() == null) {
      // Undici finished with the socket (body complete, or aborted): nothing is waiting for 'end'.
      endHeld = false;
      return;
    }
    if (paused()) return;
    endHeld = false;
    emit.call(socket, 'end');
  };

  // Undici's resume reads the socket first; by the next microtask it has parsed what it could.
  target.read = function (this: Socket, size?: number) {
    const chunk = read.call(this, size);
    if (endHeld) queueMicrotask(deliverEnd);
    return chunk;
  };

  target.emit = function (this: Socket, event: string | symbol, ...args: unknown[]) {
    if (event === 'end' && paused()) {
      endHeld = true;
      // Else Node ends and destroys the socket by itself: 'close' would meet the paused parser.
      socket.allowHalfOpen = true;
      return true;
    }
    if (event === 'error' && paused() && (args[0] as { code?: unknown })?.code === 'ECONNRESET') {
      // Undici answers ECONNRESET with finish() too; any other error just fails the body.
      args[0] = socketError('connection reset', args[0]);
    }
    if (event === 'close') {
      endHeld = false;
      if (paused() && slots[kError] == null) slots[kError] = socketError('connection closed');
    }
    return emit.call(this, event, ...args);
  };
}

function socketError(what: string, cause?: unknown): Error {
  const error = new errors.SocketError(`${what} while the response body was paused`);
  if (cause !== undefined) error.cause = cause;
  return error;
}
