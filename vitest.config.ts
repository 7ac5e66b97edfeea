import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// One runner for every unit and integration suite. Packages resolve to their TypeScript sources
// through the `@mirror/source` export condition, so tests never need a build first. (Our own name:
// some npm packages publish a plain `source` condition that points at TypeScript they do not ship.)
/**
 * Files that drive Chromium through whole sessions or measure time to a tenth of a second: beside
 * the CPU-bound files they miss (a scroll that loads the next page, a 1.5 s limit). They run in a
 * project of their own (`<name>-serial`), after the others have run on both cores, two files at a
 * time: they mostly wait (for a page to settle, a timeout to pass; the machine was 70% idle with
 * one at a time), so two of them use the cores without starving each other.
 * `--project 'server*'` selects both halves of a package.
 */
const SERIAL: Record<string, string[]> = {
  engine: [
    'test/js-fidelity.test.ts',
    'test/js-modules.test.ts',
    'test/render-decision.test.ts',
    'src/fidelity/check.test.ts',
    'src/changes/visual-diff.test.ts',
    'src/render/renderer.test.ts',
    'src/render/behaviours.test.ts',
    'src/net/hostile-servers.test.ts',
    'src/net/paused-parser.test.ts',
    'src/archive/replay/replay-web-page.test.ts',
    'test/archives.test.ts',
    'test/archives-replay.test.ts',
  ],
  server: [
    'src/hosting/js-fidelity.test.ts',
    'src/modules/fidelity/fidelity.test.ts',
    'src/modules/fidelity/fidelity-progress.test.ts',
    'src/modules/fidelity/fidelity-storage.test.ts',
    'src/modules/visual-diff/visual-diff.test.ts',
    'src/modules/screenshots/*.test.ts',
    'src/modules/ideas/reference-screenshots.test.ts',
    'src/http/routes/screenshots.routes.test.ts',
    'src/http/routes/archives.routes.test.ts',
    'src/roles/*.test.ts',
  ],
};

/**
 * The service matrix (`.ci/run` sets MIRROR_SERVICE_MATRIX=1) runs the server's tests again on
 * PostgreSQL, Redis and S3: the files whose subject is what the stores, the job queue and the blob
 * store do (adapters, repositories and transactions, jobs across processes, blobs and storage
 * accounting, the routes that write through them). The others ran on the embedded stores already,
 * and their subject does not change with the store:
 * - what Chromium does with pages (captures, fidelity, the hosted JavaScript corpus);
 * - process isolation (the sandbox), fetch safety (SSRF, headers, secrets in logs, oversize bodies,
 *   path traversal), pure modules, the embedded job queue, the entry point and AI planning;
 * - the HTTP surface swept endpoint by endpoint (thousands of malformed bodies, every route for
 *   every caller): validation and authorization do not depend on the store, and on the services
 *   under a loaded CI machine they failed intermittently in ways not yet understood (a background
 *   write between two looks at the owner's data, a schema dropped under a running sweep).
 * A new test file that stores something belongs here.
 */
const SERVICE_MATRIX: Record<string, string[]> = {
  server: [
    'src/app.test.ts',
    'src/platform/db/*.test.ts',
    'src/platform/jobs/bullmq-job-queue.test.ts',
    'src/platform/jobs/scheduled-jobs.test.ts',
    'src/platform/blobs/*.test.ts',
    'src/modules/storage/*.test.ts',
    'src/modules/sites/*.test.ts',
    'src/modules/watches/watches.test.ts',
    'src/modules/forms/*.test.ts',
    'src/modules/analytics/visit-*.test.ts',
    'src/modules/fidelity/fidelity-storage.test.ts',
    'src/modules/visual-diff/visual-diff.test.ts',
    'src/modules/payments/test-mode/*.test.ts',
    'src/modules/payments/payments.repository.test.ts',
    'src/hosting/sites-front.test.ts',
    'src/http/routes/*.routes.test.ts',
    'src/roles/*.test.ts',
    'src/security/rate-limits.test.ts',
  ],
};
/**
 * Route files the matrix leaves out: Chromium's captures, stored as every other test stores; and
 * files whose every line of store, queue and blob code (V8 coverage) the files that stay run too.
 */
const MATRIX_SKIPS: Record<string, string[]> = {
  server: [
    'src/http/routes/screenshots.routes.test.ts',
    'src/http/routes/archives.routes.test.ts',
    // Their store code is all run by customize.routes and rewrite-payments.routes.
    'src/http/routes/ai-rewrite.routes.test.ts',
    'src/http/routes/restore-page.routes.test.ts',
    // Its store code (sign-up, the demo claim) is all run by auth.routes.
    'src/http/routes/demo-claim.routes.test.ts',
    // Its store code (sessions, the rate limiter) is all run by rate-limits.
    'src/http/routes/ideas.routes.test.ts',
  ],
};

type ProjectTest = { name: string; root: string; include: string[] } & Record<string, unknown>;

/**
 * A package's tests as two projects: the many on both cores, then the serial ones alone. In the
 * service matrix, only the package's SERVICE_MATRIX files.
 */
function split(test: ProjectTest) {
  const matrix = process.env.MIRROR_SERVICE_MATRIX ? SERVICE_MATRIX[test.name] : undefined;
  const include = matrix ?? test.include;
  const skipped = matrix ? (MATRIX_SKIPS[test.name] ?? []) : [];
  const serial = SERIAL[test.name] ?? [];
  return [
    {
      extends: true,
      test: {
        ...test,
        include,
        exclude: [...serial, ...skipped],
        // Each worker runs its files one after another in one process, sharing the modules they
        // import, instead of a new process per file that loads the engine or the server afresh.
        // Measured on one 2-core machine: the server's 70 files 234 -> 166 s (397 -> 275 CPU-s),
        // the engine's 53 files 50 -> 37 s, the service matrix 294 -> 256 s; every file passed in
        // shuffled orders too. A file leaves the process as it found it: what it changes in
        // process.env it puts back, and nothing here stubs a module (no vi.mock).
        isolate: false,
      },
    },
    {
      extends: true,
      test: {
        ...test,
        name: `${test.name}-serial`,
        // In the matrix: the serial files it chose (a pattern of both lists picks a file of both).
        include: matrix ? serial.filter((file) => matchesAny(file, matrix)) : serial,
        exclude: skipped,
        maxWorkers: 2,
        // One after another in each worker, sharing the modules they import: each file no longer
        // loads the engine, the server and their dependencies afresh (about 5 s a file).
        isolate: false,
        sequence: { groupOrder: 1 },
      },
    },
  ];
}

/** Whether a serial entry (a file or a `dir/*.test.ts` pattern) falls under one of `patterns`. */
function matchesAny(file: string, patterns: string[]): boolean {
  const toRegExp = (glob: string) =>
    new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
  return patterns.some((pattern) => toRegExp(pattern).test(file) || toRegExp(file).test(pattern));
}

export default defineConfig({
  resolve: { conditions: ['@mirror/source'] },
  ssr: { resolve: { conditions: ['@mirror/source'] } },
  test: {
    // Vitest's default is one worker fewer than the cores: on a 2-core machine that is one.
    maxWorkers: 2,
    // On CI a failed test runs once more before the run fails: a loaded 2-core machine sometimes
    // starves a Chromium session or a timer of a whole second. The output marks such a test
    // "(retry x1)", so a test that fails often is seen and mended, not hidden. Locally, never.
    retry: process.env.CI ? 1 : 0,
    // …and each failed attempt's errors are printed, the mended ones too (vitest prints only those
    // of a test that failed in the end).
    setupFiles: [fileURLToPath(new URL('./scripts/vitest-attempts.mjs', import.meta.url))],
    projects: [
      {
        extends: true,
        test: { name: 'contract', root: 'packages/contract', include: ['src/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'customize', root: 'packages/customize', include: ['src/**/*.test.ts'] },
      },
      ...split({
        name: 'engine',
        root: 'packages/engine',
        include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        testTimeout: 60_000,
        hookTimeout: 60_000,
      }),
      ...split({
        name: 'server',
        root: 'apps/server',
        include: ['src/**/*.test.ts'],
        setupFiles: ['src/test/setup.ts'],
        // The service matrix runs beside the fault scripts and the hostile origins (.ci/run), on
        // shared cores: a test that only starts an app on PostgreSQL and asks it four questions
        // needed its retry there in one run of three (vitest does not print a retried failure).
        testTimeout: process.env.MIRROR_SERVICE_MATRIX ? 60_000 : 20_000,
        hookTimeout: process.env.MIRROR_SERVICE_MATRIX ? 60_000 : 30_000,
      }),
      'apps/web/vitest.config.ts',
    ],
  },
});
