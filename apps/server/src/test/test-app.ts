import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp, type AppDependencies } from '../app.js';
import { loadConfig, type Config } from '../config/env.js';

/**
 * The one test server factory. Each call gets its own data directory and its own freshly migrated
 * database: a SQLite file by default, or a private schema in PostgreSQL when the suite runs with
 * DATABASE_URL set (the service-backed run in .ci/run), so the same tests cover both dialects.
 */
export interface TestApp {
  app: FastifyInstance;
  config: Config;
  close(): Promise<void>;
}

export function testDatabaseUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}

export function createTestConfig(overrides: Record<string, string> = {}): Config {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-test-'));
  const databaseUrl = testDatabaseUrl();
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    // Chromium runs for thumbnails only in the tests that ask for them.
    VERSION_THUMBNAILS: 'false',
    ...(databaseUrl
      ? {
          DATABASE_URL: databaseUrl,
          DATABASE_SCHEMA: `t_${randomBytes(6).toString('hex')}`,
          DATABASE_POOL_MAX: '3',
        }
      : {}),
    ...overrides,
  });
}

export async function createTestApp(
  overrides: Record<string, string> = {},
  deps: AppDependencies = {},
): Promise<TestApp> {
  const config = createTestConfig(overrides);
  const app = await buildApp(config, deps);
  await app.ready();
  return {
    app,
    config,
    close: async () => {
      await app.close();
      await dropTestStorage(config);
    },
  };
}

export async function dropTestStorage(config: Config): Promise<void> {
  if (config.database.kind === 'postgres' && config.database.schema) {
    const client = new pg.Client({ connectionString: config.database.url });
    await client.connect();
    try {
      await client.query(`drop schema if exists "${config.database.schema}" cascade`);
    } finally {
      await client.end();
    }
  }
  fs.rmSync(config.dataDir, { recursive: true, force: true });
}

/** Polls until `read` returns a value (for work that finishes after the answer, such as mail). */
export async function waitFor<T>(
  read: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('waitFor: timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
