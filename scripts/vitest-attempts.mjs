// On CI a failed test runs once more before the run fails (vitest.config.ts, `retry`), and vitest
// prints nothing of a failure its retry mended. This prints each failed attempt's errors, so that a
// test that fails now and then says why in the CI log (the last lines list them: .ci/run).
import { beforeEach } from 'vitest';

if (process.env.CI) {
  beforeEach(({ task, onTestFailed }) => {
    // A test expected to fail (`it.fails`) fails by design.
    if (task.fails) return;
    onTestFailed(() => {
      const names = [];
      for (let t = task; t; t = t.suite) if (t.name) names.unshift(t.name);
      const attempt = (task.result?.retryCount ?? 0) + 1;
      const errors = (task.result?.errors ?? [])
        .map((e) => e.stack ?? e.message)
        .join('\n')
        .split('\n')
        // Only stack frames of dependencies go: a logged error arrives as one line of JSON whose
        // stack names node_modules, and dropping that line dropped the error's message with it.
        .filter((line) => !/^\s*at .*(?:node_modules|\(<anonymous>\))/.test(line))
        .join('\n');
      console.error(
        `✗ attempt ${attempt} failed: ${task.file?.name ?? ''} > ${names.join(' > ')}\n${errors}`,
      );
    });
  });
}
