import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  resolve: { conditions: ['@mirror/source', 'module', 'browser', 'development|production'] },
  // Tests in the node environment (`@vitest-environment node`) resolve through `ssr`.
  ssr: { resolve: { conditions: ['@mirror/source'] } },
  test: {
    name: 'web',
    root: import.meta.dirname,
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // Each worker runs its files one after another in one process, sharing the modules they import
    // (the app, React, jsdom's), instead of a new process per file that loads them afresh. A file
    // leaves the process as it found it: src/test/setup.ts ends its fake timers and stubbed globals
    // and puts the API client's settings back after it.
    isolate: false,
    // `vi.useFakeTimers()` moves the app's clocks only. Node's fetch (undici) hands a kept-alive
    // socket its next request through setImmediate on Node 24: faked, the request never leaves.
    fakeTimers: {
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    },
  },
});
