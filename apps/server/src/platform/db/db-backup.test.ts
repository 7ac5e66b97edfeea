import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { newUserRow } from '../../test/user-row.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../config/env.js';
import { createTestConfig, dropTestStorage, testDatabaseUrl } from '../../test/test-app.js';
import { openDatabase, type DatabaseHandle } from './database.js';

/** `npm run db:backup`, run as an operator would: a child process with the server's settings. */
const SCRIPT = fileURLToPath(new URL('../../../../../scripts/db-backup.mjs', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** How it ended, for a failure's message: `exit 0`, or `killed (SIGTERM) after 15.0 s`. */
  ended: string;
}

function runBackup(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    // Only what is given: the suite's own DATABASE_URL (CI's PostgreSQL run) must not leak in.
    const child = spawn(process.execPath, [SCRIPT, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      timeout: 15_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    const started = Date.now();
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const ended = signal ? `killed (${signal}) after ${seconds} s` : `exit ${code}`;
      resolve({ code, stdout, stderr, ended });
    });
  });
}

let handle: DatabaseHandle | undefined;
let config: Config | undefined;
const scratch: string[] = [];
afterEach(async () => {
  await handle?.destroy();
  if (config) await dropTestStorage(config);
  for (const dir of scratch.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  handle = undefined;
  config = undefined;
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-backup-test-'));
  scratch.push(dir);
  return dir;
}

/** A migrated SQLite database, whatever services the suite runs with (blank = not set). */
async function openSqlite(): Promise<{ handle: DatabaseHandle; config: Config }> {
  config = createTestConfig({ DATABASE_URL: '', REDIS_URL: '', S3_BUCKET: '' });
  expect(config.database.kind).toBe('sqlite');
  handle = await openDatabase(config.database);
  return { handle, config };
}

describe('db:backup on SQLite', () => {
  it('copies a database that is being written to into a verified file with every committed row', async () => {
    const { handle, config } = await openSqlite();
    const { db } = handle;
    await db.insertInto('users').values(newUserRow('ada@example.com')).execute();
    // Enough pages that the copy is more than a header.
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < 20; i++) {
        const rows = Array.from({ length: 100 }, (_, j) =>
          newUserRow(`seed-${i}-${j}@example.com`),
        );
        await trx.insertInto('users').values(rows).execute();
      }
    });

    // The server keeps writing while the backup runs.
    let written = 0;
    let stop = false;
    const writer = (async () => {
      while (!stop) {
        await db
          .insertInto('users')
          .values(newUserRow(`writer-${written + 1}@example.com`))
          .execute();
        written++;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    })();
    const out = path.join(tempDir(), 'nightly.sqlite');
    const writtenBefore = written;
    const run = await runBackup(['--out', out], { DATA_DIR: config.dataDir });
    const writtenDuring = written - writtenBefore;
    stop = true;
    await writer;

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`SQLite backup written: ${out}`);
    expect(run.stdout).toContain('integrity_check ok');
    expect(run.stdout).toContain(
      `Blobs are not in this backup: they live in ${config.mirror.blobsDir}`,
    );
    expect(writtenDuring).toBeGreaterThan(0);
    // Readable by its owner only: it holds password hashes.
    expect(fs.statSync(out).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(`${out}.partial`)).toBe(false);

    const copy = new SQLite(out, { readonly: true, fileMustExist: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const ada = copy.prepare('select email from users where email = ?').get('ada@example.com');
      expect(ada).toEqual({ email: 'ada@example.com' });
      const { seeded } = copy
        .prepare("select count(*) as seeded from users where email like 'seed-%'")
        .get() as { seeded: number };
      expect(seeded).toBe(2000);
      // One consistent snapshot: the writer's rows 1..k, none missing in between.
      const numbers = (
        copy.prepare("select email from users where email like 'writer-%'").all() as {
          email: string;
        }[]
      )
        .map(({ email }) => Number(/^writer-(\d+)@/.exec(email)![1]))
        .sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
      expect(numbers.length).toBeLessThanOrEqual(written);
    } finally {
      copy.close();
    }
    // A single self-contained file.
    expect(fs.existsSync(`${out}-wal`)).toBe(false);
  });

  it('--keep deletes the oldest backups in the folder and no other file', async () => {
    const { config } = await openSqlite();
    const backups = path.join(config.dataDir, 'backups');
    fs.mkdirSync(backups);
    const untouched = ['mirror-20210101T000000Z.dump', 'notes.txt', 'mirror-old.sqlite'];
    for (const name of ['mirror-20200101T000000Z.sqlite', 'mirror-20210101T000000Z.sqlite']) {
      fs.writeFileSync(path.join(backups, name), 'old');
    }
    for (const name of untouched) fs.writeFileSync(path.join(backups, name), 'mine');

    const run = await runBackup(['--keep', '2'], { DATA_DIR: config.dataDir });

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const made = /SQLite backup written: (\S+)/.exec(run.stdout)![1]!;
    expect(path.dirname(made)).toBe(backups);
    expect(path.basename(made)).toMatch(/^mirror-\d{8}T\d{6}Z\.sqlite$/);
    expect(run.stdout).toContain('Deleted 1 older backup(s), keeping the newest 2');
    expect(fs.readdirSync(backups).sort()).toEqual(
      [path.basename(made), 'mirror-20210101T000000Z.sqlite', ...untouched].sort(),
    );
  });

  it('refuses a data folder without a database, and creates none', async () => {
    const dataDir = tempDir();
    const run = await runBackup([], { DATA_DIR: dataDir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`no SQLite database at ${path.join(dataDir, 'mirror.db')}`);
    expect(run.stderr).toContain('Set DATA_DIR');
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('never overwrites an existing file', async () => {
    const { config } = await openSqlite();
    const out = path.join(tempDir(), 'taken.sqlite');
    fs.writeFileSync(out, 'precious');
    const run = await runBackup(['--out', out], { DATA_DIR: config.dataDir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('already exists');
    expect(fs.readFileSync(out, 'utf8')).toBe('precious');
  });

  it('rejects unknown options and explains itself with --help', async () => {
    const bad = await runBackup(['--keep', 'all'], {});
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--keep must be a whole number');
    const help = await runBackup(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: npm run db:backup');
  });
});

const pgDumpFound = !spawnSync('pg_dump', ['--version']).error;

describe('db:backup on PostgreSQL', () => {
  it('without pg_dump, says how to get it and how to back up by hand, and writes nothing', async () => {
    const dataDir = tempDir();
    const run = await runBackup([], {
      // Nothing listens here: the script must stop before connecting.
      DATABASE_URL: 'postgres://mirror:secret@127.0.0.1:1/mirror',
      DATA_DIR: dataDir,
      PATH: tempDir(),
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('pg_dump was not found');
    expect(run.stderr).toContain('pg_dump --format=custom --file=');
    expect(run.stderr).toContain('pg_restore --clean --if-exists --dbname="$DATABASE_URL"');
    expect(run.stderr).not.toContain('secret');
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it.skipIf(!testDatabaseUrl() || !pgDumpFound)(
    'dumps the schema into an archive pg_restore reads, with its rows',
    async () => {
      config = createTestConfig();
      expect(config.database.kind).toBe('postgres');
      handle = await openDatabase(config.database);
      await handle.db.insertInto('users').values(newUserRow('grace@example.com')).execute();
      const database = config.database as Extract<Config['database'], { kind: 'postgres' }>;
      const out = path.join(tempDir(), 'mirror.dump');

      const run = await runBackup(['--out', out], {
        DATABASE_URL: database.url,
        DATABASE_SCHEMA: database.schema!,
        DATA_DIR: config.dataDir,
      });

      expect(run.stderr).toBe('');
      // Seen once in the service matrix: the dump outlived its 15 s (it takes 1.5-2 s), and took
      // 12 s on the retry; this says so the next time.
      expect(run.ended).toBe('exit 0');
      expect(run.stdout).toContain(`PostgreSQL backup written: ${out}`);
      expect(run.stdout).toContain(
        `Restore: pg_restore --clean --if-exists --dbname="$DATABASE_URL" ${out}`,
      );
      const list = spawnSync('pg_restore', ['--list', out], { encoding: 'utf8', timeout: 10_000 });
      expect(list.status).toBe(0);
      expect(list.stdout).toMatch(new RegExp(`TABLE ${database.schema} users `));
      const rows = spawnSync(
        'pg_restore',
        ['--data-only', `--schema=${database.schema}`, '--table=users', '--file=-', out],
        { encoding: 'utf8', timeout: 10_000 },
      );
      expect(rows.status).toBe(0);
      expect(rows.stdout).toContain('grace@example.com');
    },
  );
});
