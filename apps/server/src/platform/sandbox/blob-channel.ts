/**
 * A sandboxed run's blob store is its parent's (issue 30, item 7): the run holds no storage
 * credentials and has no access to the data folder. It asks over the IPC channel to store a body
 * (streamed; the parent hashes it, so a run cannot file bytes under another body's hash) or to
 * read one by its hash. Reads are pulled one piece at a time and a put's pieces are acknowledged as
 * the store takes them, so neither process holds more than a few pieces of a body, and a run has
 * a bounded number of streams open in the parent.
 */
import type { BlobStore } from '@mirror/engine';
import type { BlobAnswer, BlobCall, TaskErrorData } from './sandbox-protocol.js';

const HASH_PATTERN = /^[0-9a-f]{64}$/;
/** Pieces of a put a run may send before the store has taken the first of them. */
const PUT_WINDOW = 4;
/** A put's body goes in pieces of about this size (small chunks are sent together). */
const PUT_PIECE_BYTES = 256 * 1024;
/** Bytes the parent answers a read with at most at a time. */
const READ_PIECE_BYTES = 256 * 1024;
/** Puts and reads one run may have open at once in the parent (each may hold a file open). */
export const MAX_OPEN_BLOB_STREAMS = 1024;

/** An error as plain data, for the other side of the channel. */
export function errorData(error: unknown): TaskErrorData {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  const causeCode = (error.cause as { code?: unknown } | undefined)?.code;
  return {
    name: error.name,
    message: error.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof causeCode === 'string' ? { causeCode } : {}),
  };
}

function errorFrom(data: TaskErrorData): Error {
  const error = new Error(data.message);
  error.name = data.name;
  if (data.code) Object.assign(error, { code: data.code });
  return error;
}

export interface BlobServer {
  /** A call from the run. */
  handle(id: number, call: BlobCall): void;
  /** The run ended: open puts fail, open reads close. */
  close(): void;
}

interface OpenPut {
  pieces: Uint8Array[];
  ended: boolean;
  failure: Error | null;
  wake: (() => void) | null;
}

interface OpenRead {
  iterator: AsyncIterator<Uint8Array>;
  busy: boolean;
}

/** The parent's side: answers one run's calls from `store`. */
export function serveBlobs(
  store: BlobStore,
  answer: (id: number, answer: BlobAnswer) => void,
): BlobServer {
  const puts = new Map<number, OpenPut>();
  const reads = new Map<number, OpenRead>();
  let closed = false;
  const fail = (id: number, error: unknown) =>
    answer(id, { kind: 'failed', error: errorData(error) });
  const full = () => puts.size + reads.size >= MAX_OPEN_BLOB_STREAMS;

  function openPut(id: number): void {
    const put: OpenPut = { pieces: [], ended: false, failure: null, wake: null };
    puts.set(id, put);
    async function* body(): AsyncIterable<Uint8Array> {
      for (;;) {
        const piece = put.pieces.shift();
        if (piece) {
          answer(id, { kind: 'taken' });
          yield piece;
          continue;
        }
        if (put.failure) throw put.failure;
        if (put.ended) return;
        await new Promise<void>((resolve) => (put.wake = resolve));
      }
    }
    store.put(body()).then(
      ({ hash, size }) => {
        puts.delete(id);
        answer(id, { kind: 'stored', hash, size });
      },
      (error: unknown) => {
        puts.delete(id);
        fail(id, error);
      },
    );
  }

  function changePut(id: number, change: (put: OpenPut) => void): void {
    const put = puts.get(id);
    if (!put) return; // Failed already: the run hears it at its next wait.
    change(put);
    const wake = put.wake;
    put.wake = null;
    wake?.();
  }

  async function sendPiece(id: number): Promise<void> {
    const read = reads.get(id);
    if (!read || read.busy) return;
    read.busy = true;
    const parts: Uint8Array[] = [];
    let size = 0;
    let last = false;
    try {
      while (size < READ_PIECE_BYTES) {
        const next = await read.iterator.next();
        if (next.done) {
          last = true;
          break;
        }
        parts.push(next.value);
        size += next.value.byteLength;
      }
    } catch (error) {
      reads.delete(id);
      return fail(id, error);
    }
    read.busy = false;
    if (last) reads.delete(id);
    if (!reads.has(id) && !last) return; // Closed meanwhile.
    answer(id, {
      kind: 'piece',
      bytes: parts.length === 1 ? parts[0]! : Buffer.concat(parts),
      last,
    });
  }

  return {
    handle(id, call) {
      if (closed) return;
      switch (call.op) {
        case 'put':
          if (full()) return fail(id, new Error('Too many blob streams open at once.'));
          return openPut(id);
        case 'put-piece':
          return changePut(id, (put) => {
            put.pieces.push(call.bytes);
            if (put.pieces.length > PUT_WINDOW)
              put.failure = new Error('A put sent more than its window.');
          });
        case 'put-end':
          return changePut(id, (put) => (put.ended = true));
        case 'put-fail':
          return changePut(id, (put) => (put.failure = new Error(call.message)));
        case 'has':
          if (!HASH_PATTERN.test(call.hash)) return fail(id, new Error('not a blob hash'));
          store.has(call.hash).then(
            (value) => answer(id, { kind: 'has', value }),
            (error: unknown) => fail(id, error),
          );
          return;
        case 'read': {
          if (!HASH_PATTERN.test(call.hash)) return fail(id, new Error('not a blob hash'));
          if (full()) return fail(id, new Error('Too many blob streams open at once.'));
          let iterator: AsyncIterator<Uint8Array>;
          try {
            iterator = store.read(call.hash)[Symbol.asyncIterator]();
          } catch (error) {
            return fail(id, error);
          }
          reads.set(id, { iterator, busy: false });
          void sendPiece(id);
          return;
        }
        case 'read-more':
          void sendPiece(id);
          return;
        case 'read-close': {
          const read = reads.get(id);
          reads.delete(id);
          void read?.iterator.return?.().catch(() => undefined);
          return;
        }
      }
    },
    close() {
      closed = true;
      for (const id of [...puts.keys()]) {
        changePut(id, (put) => (put.failure = new Error('The run ended.')));
      }
      for (const read of reads.values()) void read.iterator.return?.().catch(() => undefined);
      reads.clear();
    },
  };
}

/** Answers to one call, in order. */
class Inbox {
  private readonly queue: BlobAnswer[] = [];
  private waiter: ((answer: BlobAnswer) => void) | null = null;

  push(answer: BlobAnswer): void {
    const waiter = this.waiter;
    this.waiter = null;
    if (waiter) waiter(answer);
    else this.queue.push(answer);
  }

  next(): Promise<BlobAnswer> {
    const answer = this.queue.shift();
    if (answer) return Promise.resolve(answer);
    return new Promise((resolve) => (this.waiter = resolve));
  }
}

export interface ChannelBlobStore {
  store: BlobStore;
  /** An answer from the parent. */
  receive(id: number, answer: BlobAnswer): void;
}

/** The run's side: a blob store whose every call goes to the parent. */
export function createChannelBlobStore(
  send: (id: number, call: BlobCall) => void,
): ChannelBlobStore {
  const inboxes = new Map<number, Inbox>();
  let lastId = 0;
  const open = () => {
    const id = ++lastId;
    const inbox = new Inbox();
    inboxes.set(id, inbox);
    return { id, inbox };
  };
  const expect = async <K extends BlobAnswer['kind']>(
    inbox: Inbox,
    kind: K,
  ): Promise<Extract<BlobAnswer, { kind: K }>> => {
    const answer = await inbox.next();
    if (answer.kind === 'failed') throw errorFrom(answer.error);
    if (answer.kind !== kind) throw new Error(`The blob store answered ${answer.kind}.`);
    return answer as Extract<BlobAnswer, { kind: K }>;
  };

  const read = (hash: string): AsyncIterable<Uint8Array> => ({
    async *[Symbol.asyncIterator]() {
      const { id, inbox } = open();
      let last = false;
      try {
        send(id, { op: 'read', hash });
        while (!last) {
          const piece = await expect(inbox, 'piece');
          last = piece.last;
          if (piece.bytes.byteLength > 0) {
            yield Buffer.from(piece.bytes.buffer, piece.bytes.byteOffset, piece.bytes.byteLength);
          }
          if (!last) send(id, { op: 'read-more' });
        }
      } finally {
        if (!last) send(id, { op: 'read-close' });
        inboxes.delete(id);
      }
    },
  });

  const store: BlobStore = {
    async put(body) {
      const { id, inbox } = open();
      try {
        send(id, { op: 'put' });
        const state = { unanswered: 0, stored: null as { hash: string; size: number } | null };
        const wait = async () => {
          const answer = await inbox.next();
          if (answer.kind === 'failed') throw errorFrom(answer.error);
          if (answer.kind === 'taken') state.unanswered--;
          else if (answer.kind === 'stored')
            state.stored = { hash: answer.hash, size: answer.size };
        };
        let pending: Uint8Array[] = [];
        let pendingBytes = 0;
        const flush = async () => {
          if (pending.length === 0) return;
          while (state.unanswered >= PUT_WINDOW) await wait();
          send(id, {
            op: 'put-piece',
            bytes: pending.length === 1 ? pending[0]! : Buffer.concat(pending),
          });
          state.unanswered++;
          pending = [];
          pendingBytes = 0;
        };
        try {
          for await (const chunk of body) {
            pending.push(chunk);
            pendingBytes += chunk.byteLength;
            if (pendingBytes >= PUT_PIECE_BYTES) await flush();
          }
          await flush();
        } catch (error) {
          send(id, { op: 'put-fail', message: errorData(error).message });
          throw error;
        }
        send(id, { op: 'put-end' });
        while (!state.stored) await wait();
        return state.stored;
      } finally {
        inboxes.delete(id);
      }
    },
    read,
    async readAll(hash) {
      const chunks: Uint8Array[] = [];
      for await (const chunk of read(hash)) chunks.push(chunk);
      return Buffer.concat(chunks);
    },
    async has(hash) {
      const { id, inbox } = open();
      try {
        send(id, { op: 'has', hash });
        return (await expect(inbox, 'has')).value;
      } finally {
        inboxes.delete(id);
      }
    },
  };

  return {
    store,
    receive(id, answer) {
      inboxes.get(id)?.push(answer);
    },
  };
}
