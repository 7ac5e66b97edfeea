import { format } from 'node:util';
import { afterAll, afterEach, beforeEach, vi } from 'vitest';
import { noteError, takeLogProblems } from './logs.js';

// A test fails when the code logs an error or prints a console.error it did not declare with
// `expectErrorLog` (./logs.ts): errors are either asserted or fixed.
let errorSpy: { mockRestore(): void } | undefined;
beforeEach(() => {
  errorSpy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    const text = format(...args);
    noteError([text], `console.error: ${text}`);
  });
});

function check(): void {
  const problems = takeLogProblems();
  if (problems.length > 0) throw new Error(problems.join('\n'));
}

afterEach(() => {
  errorSpy?.mockRestore();
  errorSpy = undefined;
  check();
});

// Errors logged after the last test's own hooks (a late background failure) fail the file.
afterAll(check);
