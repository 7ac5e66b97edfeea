import { afterEach, beforeEach, vi } from 'vitest';

// A test that makes the code print an unexpected console.error fails: errors are either asserted or fixed.
let errorSpy: { mock: { calls: unknown[][] }; mockRestore(): void };
beforeEach(() => {
  errorSpy = vi.spyOn(console, 'error');
});
afterEach(() => {
  const calls = errorSpy.mock.calls;
  errorSpy.mockRestore();
  if (calls.length > 0) {
    throw new Error(
      `console.error was called:\n${calls.map((c: unknown[]) => c.map(String).join(' ')).join('\n')}`,
    );
  }
});
