import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newUserRow } from '../../test/user-row.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestConfig, dropTestStorage } from '../../test/test-app.js';
import { openTestDatabase } from '../../test/test-database.js';
import type { Config } from '../../config/env.js';
import { sql } from 'kysely';
import pg from 'pg';
import { migrateToLatest, openDatabase, type DatabaseHandle } from './database.js';

const writerScript = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../test/sqlite-writer.ts',
);
let handle: DatabaseHandle | undefined;
let config: Config | undefined;
afterEach(async () => {
  await handle?.destroy();
  if (config) await dropTestStorage(config);
  handle = undefined;
  config = undefined;
});

describe('database', () => {
  it('migrates once and is a no-op the second time', async () => {
    const { db } = await openTestDatabase();
    await migrateToLatest(db);
    const users = await db.selectFrom('users').selectAll().execute();
    expect(users).toEqual([]);
  });

  it('opens a fresh database from several processes at once (every role starts together)', async () => {
    config = createTestConfig();
    const opened = await Promise.all(
      Array.from({ length: 4 }, () => openDatabase(config!.database)),
    );
    try {
      // One of them wrote a user; every handle sees the same, fully migrated schema.
      await opened[0]!.db.insertInto('users').values(newUserRow('ada@example.com')).execute();
      for (const other of opened) {
        expect(await other.db.selectFrom('users').select('email').execute()).toEqual([
          { email: 'ada@example.com' },
        ]);
      }
    } finally {
      await Promise.all(opened.map((h) => h.destroy()));
    }
  });

  it.skipIf(process.env.DATABASE_URL)(
    'lets several processes read and write one SQLite file at once',
    async () => {
      config = createTestConfig();
      const file = (config.database as { file: string }).file;
      handle = await openDatabase(config.database);
      const writers = Array.from({ length: 3 }, () =>
        spawn(
          process.execPath,
          ['--conditions', '@mirror/source', '--import', 'tsx', writerScript, file, '40'],
          { stdio: ['ignore', 'ignore', 'pipe'] },
        ),
      );
      const results = await Promise.all(
        writers.map(
          (child) =>
            new Promise<{ code: number | null; stderr: string }>((resolve) => {
              let stderr = '';
              child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
              child.on('exit', (code) => resolve({ code, stderr }));
            }),
        ),
      );
      expect(results).toEqual(results.map(() => ({ code: 0, stderr: '' })));
      const { n } = await handle.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(n)).toBe(120);
    },
    60_000,
  );

  it('round-trips timestamps as the same ISO strings on every dialect', async () => {
    const { db } = await openTestDatabase();
    const user = newUserRow('ada@example.com');
    user.created_at = '2026-01-02T03:04:05.678Z';
    await db.insertInto('users').values(user).execute();
    const row = await db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.created_at).toBe('2026-01-02T03:04:05.678Z');
    const later = await db
      .selectFrom('users')
      .select('id')
      .where('created_at', '>', '2026-01-01T00:00:00.000Z')
      .execute();
    expect(later).toHaveLength(1);
  });

  it('refuses a second account with the same email', async () => {
    const { db } = await openTestDatabase();
    await db.insertInto('users').values(newUserRow('ada@example.com')).execute();
    await expect(
      db.insertInto('users').values(newUserRow('ada@example.com')).execute(),
    ).rejects.toThrow();
  });

  it('refuses values outside the role and plan sets', async () => {
    const { db } = await openTestDatabase();
    const bad = { ...newUserRow('eve@example.com'), plan: 'platinum' } as unknown as ReturnType<
      typeof newUserRow
    >;
    await expect(db.insertInto('users').values(bad).execute()).rejects.toThrow();
  });

  it('deletes sessions with their user', async () => {
    const { db } = await openTestDatabase();
    const user = newUserRow('ada@example.com');
    await db.insertInto('users').values(user).execute();
    const now = new Date().toISOString();
    await db
      .insertInto('sessions')
      .values({
        id: randomUUID(),
        user_id: user.id,
        token_hash: 'h',
        created_at: now,
        expires_at: now,
        last_used_at: now,
        user_agent: null,
        ip: null,
      })
      .execute();
    await db.deleteFrom('users').where('id', '=', user.id).execute();
    expect(await db.selectFrom('sessions').selectAll().execute()).toEqual([]);
  });

  it.runIf(process.env.DATABASE_URL)(
    'migrates its default schema when another schema of the database holds migrations',
    async () => {
      // A database shared with another app (or a test run's private schemas): its bookkeeping
      // tables live in their own schema, ours in the default one, still empty.
      const name = `mirror_t_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`create database "${name}"`);
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = `/${name}`;
      const opened: DatabaseHandle[] = [];
      try {
        const base = { kind: 'postgres' as const, url: url.toString(), poolMax: 2 };
        opened.push(await openDatabase({ ...base, schema: 'other_app' }));
        opened.push(await openDatabase({ ...base, schema: undefined }));
        const users = await opened[1]!.db.selectFrom('users').select('email').execute();
        expect(users).toEqual([]);
        const { rows } = await sql<{ schema: string }>`
          select table_schema as schema from information_schema.tables
          where table_name = 'kysely_migration' order by 1`.execute(opened[1]!.db);
        expect(rows.map((r) => r.schema)).toEqual(['other_app', 'public']);
      } finally {
        await Promise.all(opened.map((h) => h.destroy()));
        await admin.query(`drop database if exists "${name}" with (force)`);
        await admin.end();
      }
    },
    60_000,
  );
});
