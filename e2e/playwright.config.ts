import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from '../packages/engine/src/render/chromium';
import { DNS_E2E_ENV } from './support/dns';
import { SEARCH_API_ENV } from './support/search-api';
import { BASE_URL, E2E_PORT } from './support/server';

/** The local stand-in of the AI model (e2e/support/ai-model.mjs). */
const AI_MODEL_PORT = Number(process.env.E2E_AI_PORT ?? E2E_PORT + 20);

// Specs drive the production build (`npm run build`) served by the real server, in Debian's Chromium.
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..');
const port = E2E_PORT;
const baseURL = BASE_URL;
// Created once by the main process; workers re-read this file and inherit the variable, so specs can
// find the server's data (for example the mail outbox) at the same place.
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-e2e-'));
const dataDir = process.env.E2E_DATA_DIR;

export default defineConfig({
  testDir: here,
  testMatch: '**/*.spec.ts',
  outputDir: path.join(here, 'test-results'),
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  // Two workers, the server and its sandboxed Chromium runs share 2 cores: a screen may take a while.
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  forbidOnly: !!process.env.CI,
  use: {
    baseURL,
    // On CI a failed test is traced when it runs again; recording every test's trace (screencast
    // frames and DOM snapshots at each step) cost the test browser 40% more CPU (211 → 133 CPU-s,
    // 4.5 → 3.9 min for the suite). Locally, where nothing runs twice, a failure keeps its trace.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    // As a person who asked for less motion: the app's spinners stand still. Long waits for a
    // run with a spinner on screen otherwise cost Chromium 60 frames a second of software drawing
    // (the test browser used half of the suite's CPU).
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // The engine's flags (no GPU, no calls home, Playwright's disabled features and the omnibox
      // popups each test's window would preload unseen), as root without Chromium's sandbox.
      args: ['--no-sandbox', ...CHROMIUM_ARGS],
    },
  },
  webServer: [
    {
      command: 'node e2e/support/ai-model.mjs',
      cwd: repoRoot,
      url: `http://127.0.0.1:${AI_MODEL_PORT}/health`,
      reuseExistingServer: false,
      timeout: 10_000,
      env: { PORT: String(AI_MODEL_PORT) },
    },
    {
      command: 'node apps/server/dist/main.js',
      cwd: repoRoot,
      url: `${baseURL}/api/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        APP_URL: baseURL,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        // The billing specs pay with test cards: production takes them only when asked by name.
        PAYMENTS_MODE: 'test',
        // Required in production (it guards /metrics and /api/internal/*).
        METRICS_TOKEN: 'e2e-metrics-token-0123456789',
        // Specs sign up many accounts from one address.
        RATE_LIMIT_FACTOR: '50',
        // The mirror specs copy a fixture website served on 127.0.0.1.
        MIRROR_ALLOW_PRIVATE_NETWORKS: 'true',
        // Every mirror is checked against its original in Chromium: two pages each, on 2 cores.
        FIDELITY_MAX_PAGES: '2',
        // Idea search's web provider points at a local stand-in that lists a locally served reference.
        ...SEARCH_API_ENV,
        // Domain checks ask the DNS stand-in of e2e/domains.spec.ts.
        ...DNS_E2E_ENV,
        // Rewrites are sold and run only with a model: a local stand-in answering a fixed plan.
        AI_BASE_URL: `http://127.0.0.1:${AI_MODEL_PORT}/v1`,
        AI_MODEL: 'e2e-model',
        AI_API_KEY: 'e2e-model-key',
      },
    },
  ],
});
