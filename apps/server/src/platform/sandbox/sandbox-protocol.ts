/**
 * What a sandboxed task and the process that started it say to each other over the IPC channel
 * (structured clone: Buffers arrive as Uint8Array).
 */
import type { BlobStoreSettings } from '../blobs/blob-store.js';

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

export type ToChild =
  { type: 'start'; module: string; input: unknown; blobs: BlobStoreSettings } | { type: 'abort' };

export type ToParent =
  | { type: 'progress'; value: unknown }
  | { type: 'log'; level: LogLevel; msg: string; fields: Record<string, unknown> }
  | { type: 'done'; output: unknown }
  | { type: 'failed'; error: TaskErrorData };
