import { format } from 'node:util';
import { afterEach, beforeEach, vi, type MockInstance } from 'vitest';

// A test fails on any console.error it did not declare: React reports missing keys, act() and
// state updates after unmount there, and the app logs its own failures there. See decision 014.

let expected: RegExp[] = [];
let spy: MockInstance<typeof console.error> | null = null;

/** Declares that this test makes the app log an error matching `pattern` (at least once). */
export function expectConsoleError(pattern: RegExp): void {
  expected.push(pattern);
}

/**
 * Registers the guard's hooks for the test file being set up. Called from the setup file, which runs
 * again for every file: hooks registered when this module is first imported would reach only the
 * first file of a worker that runs several in one process (isolate: false).
 */
export function installConsoleGuard(): void {
  beforeEach(() => {
    expected = [];
    spy = vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  afterEach(() => {
    const calls = (spy?.mock.calls ?? []).map((args: unknown[]) => format(...args));
    spy?.mockRestore();
    spy = null;
    const unexpected = calls.filter(
      (message) => !expected.some((pattern) => pattern.test(message)),
    );
    const missing = expected.filter((pattern) => !calls.some((message) => pattern.test(message)));
    expected = [];
    if (unexpected.length > 0) {
      throw new Error(`Unexpected console.error:\n${unexpected.join('\n---\n')}`);
    }
    if (missing.length > 0) {
      throw new Error(`Declared console.error never logged: ${missing.join(', ')}`);
    }
  });
}
