import { defineConfig } from 'vitest/config';

// One runner for every unit and integration suite. Packages resolve to their TypeScript sources
// through the `@mirror/source` export condition, so tests never need a build first. (Our own name:
// some npm packages publish a plain `source` condition that points at TypeScript they do not ship.)
export default defineConfig({
  resolve: { conditions: ['@mirror/source'] },
  ssr: { resolve: { conditions: ['@mirror/source'] } },
  test: {
    // Vitest's default is one worker fewer than the cores: on a 2-core machine that is one.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'contract', root: 'packages/contract', include: ['src/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'customize', root: 'packages/customize', include: ['src/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'engine',
          root: 'packages/engine',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts'],
          setupFiles: ['src/test/setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      'apps/web/vitest.config.ts',
    ],
  },
});
