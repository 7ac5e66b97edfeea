import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { buildApp, type AppDependencies } from '../app.js';
import { loadConfig, type Config } from '../config/env.js';
import { TEST_LOG_LEVEL, testLogStream } from './logs.js';

/**
 * The one test server factory. Each call gets its own data directory and its own freshly migrated
 * database: a SQLite file by default, or a private schema in PostgreSQL when the suite runs with
 * DATABASE_URL set. Likewise, with REDIS_URL set its jobs run on BullMQ under a private key
 * prefix, and with S3_BUCKET set its blobs go to that bucket under a private key prefix (the
 * service matrix in .ci/run), so the same tests cover the embedded defaults and the services.
 */
export interface TestApp {
  app: FastifyInstance;
  config: Config;
  close(): Promise<void>;
}

export function testDatabaseUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}

/**
 * Overrides for a test about the embedded job queue itself (the `jobs` table): loadConfig reads a
 * blank value as "not set", so the service run's REDIS_URL does not apply. (`{ S3_BUCKET: '' }`
 * does the same for blob files under DATA_DIR.)
 */
export const EMBEDDED_JOBS: Record<string, string> = { REDIS_URL: '' };

/**
 * Settings of the service run's environment (PostgreSQL, Redis, S3 as in .ci/run) for one test app
 * or one deployment of several processes, each call under a fresh schema and prefixes. Empty in
 * the default run.
 */
export function sharedServicesEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  const databaseUrl = testDatabaseUrl();
  if (databaseUrl) {
    env.DATABASE_URL = databaseUrl;
    env.DATABASE_SCHEMA = `t_${randomBytes(6).toString('hex')}`;
    env.DATABASE_POOL_MAX = '3';
  }
  if (process.env.REDIS_URL) {
    env.REDIS_URL = process.env.REDIS_URL;
    env.REDIS_PREFIX = `t-${randomBytes(6).toString('hex')}`;
  }
  if (process.env.S3_BUCKET) {
    for (const name of [
      'S3_BUCKET',
      'S3_ENDPOINT',
      'S3_REGION',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
      'S3_FORCE_PATH_STYLE',
    ]) {
      const value = process.env[name];
      if (value) env[name] = value;
    }
    env.S3_PREFIX = `t-${randomBytes(6).toString('hex')}/`;
  }
  return env;
}

export function createTestConfig(overrides: Record<string, string> = {}): Config {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-test-'));
  return loadConfig({
    NODE_ENV: 'test',
    // Logs go to the collector of ./logs.ts (createTestApp): an undeclared error fails the test.
    LOG_LEVEL: TEST_LOG_LEVEL,
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    // Chromium runs for thumbnails only in the tests that ask for them.
    VERSION_THUMBNAILS: 'false',
    FIDELITY_CHECKS: 'false',
    VISUAL_DIFFS: 'false',
    // Idea searches capture their references only in the tests about reference screenshots.
    REFERENCE_SCREENSHOTS: 'false',
    // After `npm test`'s build, sandboxed runs load the built tasks (MIRROR_SANDBOX_BUILT).
    ...(process.env.MIRROR_SANDBOX_BUILT
      ? { MIRROR_SANDBOX_BUILT: process.env.MIRROR_SANDBOX_BUILT }
      : {}),
    ...sharedServicesEnv(),
    ...overrides,
  });
}

/**
 * The settings another process (`spawnServer`) needs to share a test app's data: its data
 * directory, database, job queue and blob bucket, whichever of them the run uses.
 */
export function sharedStorageEnv(config: Config): Record<string, string> {
  const env: Record<string, string> = { DATA_DIR: config.dataDir };
  if (config.database.kind === 'postgres') {
    env.DATABASE_URL = config.database.url;
    if (config.database.schema) env.DATABASE_SCHEMA = config.database.schema;
  }
  if (config.jobs.redisUrl) {
    env.REDIS_URL = config.jobs.redisUrl;
    env.REDIS_PREFIX = config.jobs.redisPrefix;
  }
  const s3 = config.mirror.s3;
  if (s3) {
    env.S3_BUCKET = s3.bucket;
    env.S3_PREFIX = s3.prefix;
    env.S3_REGION = s3.region;
    env.S3_FORCE_PATH_STYLE = String(s3.forcePathStyle);
    if (s3.endpoint) env.S3_ENDPOINT = s3.endpoint;
    if (s3.credentials) {
      env.S3_ACCESS_KEY_ID = s3.credentials.accessKeyId;
      env.S3_SECRET_ACCESS_KEY = s3.credentials.secretAccessKey;
    }
  }
  return env;
}

export async function createTestApp(
  overrides: Record<string, string> = {},
  deps: AppDependencies = {},
): Promise<TestApp> {
  const config = createTestConfig(overrides);
  const app = await buildApp(config, { ...deps, logStream: testLogStream(deps.logStream) });
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

/**
 * The private key prefixes the test helpers make (`t-<hex>` here and in spawn-server.ts): only
 * those are emptied, never a prefix a developer's own deployment may use (`mirror`, none).
 */
const TEST_PREFIX = /^t-[0-9a-f]+\/?$/;

/** Removes a test deployment's data: directory, database schema, job queue keys, blobs. */
export async function dropTestStorage(config: Config): Promise<void> {
  const { redisUrl, redisPrefix } = config.jobs;
  if (redisUrl && TEST_PREFIX.test(redisPrefix)) await deleteRedisKeys(redisUrl, redisPrefix);
  const s3 = config.mirror.s3;
  if (s3 && TEST_PREFIX.test(s3.prefix)) await deleteS3Objects(s3);
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

async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

async function deleteS3Objects(s3: NonNullable<Config['mirror']['s3']>): Promise<void> {
  const client = new S3Client({
    region: s3.region,
    forcePathStyle: s3.forcePathStyle,
    ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
    ...(s3.credentials ? { credentials: s3.credentials } : {}),
  });
  try {
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket: s3.bucket,
          Prefix: s3.prefix,
          ContinuationToken: token,
        }),
      );
      const keys = (page.Contents ?? []).flatMap((object) =>
        object.Key ? [{ Key: object.Key }] : [],
      );
      if (keys.length > 0) {
        await client.send(
          new DeleteObjectsCommand({ Bucket: s3.bucket, Delete: { Objects: keys } }),
        );
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  } finally {
    client.destroy();
  }
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
