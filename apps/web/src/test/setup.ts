import { API_BASE_PATH, API_TIMEOUT_MS } from '@mirror/contract';
import { notifyManager } from '@tanstack/react-query';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { configureApiClient } from '../lib/api-client';
import { loadEnglish } from '../lib/i18n/load-messages';
import { installConsoleGuard } from './console-guard';

installConsoleGuard();

// The app loads most of English with its first screen other than the landing page (`lazyScreen`);
// tests render screens directly, so all of it is here first.
beforeAll(async () => {
  await loadEnglish();
});

// TanStack Query delivers its updates with setTimeout(0): on the real clock, so tests that fake
// timers (to step through polling) still see the answers of the local test server.
const realSetTimeout = globalThis.setTimeout;
notifyManager.setScheduler((callback) => realSetTimeout(callback, 0));

if (typeof window !== 'undefined') {
  // jsdom has no layout: scrolling is a no-op here.
  window.scrollTo = () => {};
  // Nor media queries (uPlot asks for the pixel ratio on import) or canvas drawing: charts fall back
  // to their data table instead of jsdom's "not implemented" noise.
  window.matchMedia ??= (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
  HTMLCanvasElement.prototype.getContext = (() => null) as HTMLCanvasElement['getContext'];
  // Nor Blob.text() (jsdom 26). Node 24's fetch answers `blob()` with the global Blob, jsdom's
  // here, so a file answer read as text is read through jsdom's FileReader, as a browser reads it.
  Blob.prototype.text ??= function text(this: Blob) {
    return new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as string);
      reader.onerror = () => reject(reader.error ?? new Error('could not read the blob'));
      reader.readAsText(this);
    });
  };
}

afterEach(() => {
  cleanup();
  if (typeof window !== 'undefined') window.localStorage.clear();
});

// Files share one process (isolate: false): a file's fake clock, stubbed global or API client
// settings never reach the next file, whatever the file's own hooks did.
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  configureApiClient({ baseUrl: API_BASE_PATH, timeoutMs: API_TIMEOUT_MS });
});
