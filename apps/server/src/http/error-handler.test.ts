import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { HTTP_FALLBACK_MESSAGES } from '@mirror/contract';
import SQLite from 'better-sqlite3';
import Fastify, { type FastifyInstance } from 'fastify';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  registerErrorHandler,
  SERVICE_UNAVAILABLE_MESSAGE,
  UNSTORABLE_TEXT_MESSAGE,
} from './error-handler.js';

/**
 * When the database is out of reach, requests that need it answer 503 with a message saying to try
 * again (the client did nothing wrong), not a 500. The errors are node-postgres's own, from a real
 * pool: a port nobody listens on, and a server that accepts connections and cuts them at once.
 */
let app: FastifyInstance;
let cutter: net.Server;
const pools: pg.Pool[] = [];
const sqliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-error-handler-'));
const sqliteFile = path.join(sqliteDir, 'busy.db');
/** Another process's connection that holds the write lock (as a worker's transaction can). */
let lockHolder: SQLite.Database;
let busy: SQLite.Database;

function databaseAt(port: number) {
  const pool = new pg.Pool({
    host: '127.0.0.1',
    port,
    user: 'nobody',
    database: 'none',
    connectionTimeoutMillis: 2_000,
  });
  pool.on('error', () => undefined);
  pools.push(pool);
  return new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  cutter = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => cutter.listen(0, '127.0.0.1', resolve));
  const refused = databaseAt(await freePort());
  const cut = databaseAt((cutter.address() as net.AddressInfo).port);

  lockHolder = new SQLite(sqliteFile);
  lockHolder.pragma('journal_mode = WAL');
  lockHolder.exec('create table t (n integer)');
  lockHolder.exec('begin immediate');
  busy = new SQLite(sqliteFile, { timeout: 50 });

  app = Fastify({ logger: false });
  registerErrorHandler(app);
  app.get('/refused', async () => sql`select 1`.execute(refused));
  app.get('/cut', async () => sql`select 1`.execute(cut));
  if (process.env.DATABASE_URL) {
    const real = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    pools.push(real);
    const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: real }) });
    // A NUL byte from a path or a body, as a query parameter: PostgreSQL refuses it (22021).
    app.get('/nul', async () => sql`select ${'id\u0000'}::text`.execute(db));
  }
  app.get('/busy', async () => busy.prepare('insert into t (n) values (1)').run());
  app.get('/bug', async () => {
    throw new Error('undefined is not a function');
  });
  app.get('/constraint', async () => {
    // What node-postgres raises for a unique violation: the database answered; this is no outage.
    throw Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
    });
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await Promise.all(pools.map((pool) => pool.end()));
  await new Promise((resolve) => cutter.close(resolve));
  busy.close();
  lockHolder.close();
  fs.rmSync(sqliteDir, { recursive: true, force: true });
});

describe('the error handler when the database is out of reach', () => {
  it.each([
    ['refuses connections', '/refused'],
    ['cuts every connection', '/cut'],
    ['(SQLite) stays locked by another writer', '/busy'],
  ])('answers 503 with a try-again message when the database %s', async (_, url) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: SERVICE_UNAVAILABLE_MESSAGE });
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).not.toMatch(/ECONNREFUSED|terminated|locked|127\.0\.0\.1/);
  });

  it('still answers 500 without details for a bug or an error the database answered with', async () => {
    for (const url of ['/bug', '/constraint']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: HTTP_FALLBACK_MESSAGES[500] });
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)('the error handler on PostgreSQL', () => {
  it('answers 400 for text PostgreSQL cannot store (a NUL byte), not 500', async () => {
    const res = await app.inject({ url: '/nul' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: UNSTORABLE_TEXT_MESSAGE });
  });
});
