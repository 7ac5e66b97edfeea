/**
 * What a sandboxed task and the process that started it say to each other over the IPC channel
 * (structured clone: Buffers arrive as Uint8Array).
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** A task's error, as plain data: enough to tell what went wrong and to say it to a person. */
export interface TaskErrorData {
  name: string;
  message: string;
  /** The error's own `code` (a MirrorError's, a NetError's). */
  code?: string;
  /** The `code` of its cause (ENOSPC behind a MirrorError 'storage'). */
  causeCode?: string;
}

/**
 * A run's call on the blob store, which its parent holds (`blob-channel.ts`). `id` names one put,
 * read or `has`: a put is opened, sent in pieces and ended (or failed, when the body broke on the
 * run's side); a read is opened and answered one piece at a time, each asked for.
 */
export type BlobCall =
  | { op: 'put' }
  | { op: 'put-piece'; bytes: Uint8Array }
  | { op: 'put-end' }
  | { op: 'put-fail'; message: string }
  | { op: 'has'; hash: string }
  | { op: 'read'; hash: string }
  | { op: 'read-more' }
  | { op: 'read-close' };

export type BlobAnswer =
  /** The store took a piece of a put: the run may send one more. */
  | { kind: 'taken' }
  | { kind: 'stored'; hash: string; size: number }
  | { kind: 'has'; value: boolean }
  | { kind: 'piece'; bytes: Uint8Array; last: boolean }
  | { kind: 'failed'; error: TaskErrorData };

export type ToChild =
  | {
      type: 'start';
      module: string;
      input: unknown;
      /** Chromium may run with its own sandbox (the run's user can have one). */
      chromiumSandbox: boolean;
      /** The run's empty folder for files it hands back. */
      outputDir: string;
    }
  /** Load `module` and exit: fills Node's compile cache (`code-cache.ts`), runs nothing. */
  | { type: 'warm'; module: string }
  | { type: 'abort' }
  | { type: 'blob'; id: number; answer: BlobAnswer };

export type ToParent =
  | { type: 'progress'; value: unknown }
  | { type: 'log'; level: LogLevel; msg: string; fields: Record<string, unknown> }
  | { type: 'done'; output: unknown }
  | { type: 'failed'; error: TaskErrorData }
  | { type: 'blob'; id: number; call: BlobCall };
