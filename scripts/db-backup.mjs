#!/usr/bin/env node
// `npm run db:backup`: a backup of Mirror's database, safe while the server runs.
//   SQLite      an online backup (SQLite's backup API) to one self-contained file, then verified.
//   PostgreSQL  `pg_dump --format=custom`, then listed with `pg_restore --list` to prove it reads.
// Blobs are not in the database: this prints where they live and how to copy them.
//
// Reads the same settings as the server (DATA_DIR, DATABASE_URL, DATABASE_SCHEMA, S3_*), derived
// the way apps/server/src/config/env.ts derives them. Like the server it reads the environment
// only; to use a .env file: `node --env-file=.env scripts/db-backup.mjs`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

const EXIT_FAILED = 1;
const EXIT_USAGE = 2;
const EXIT_NO_PG_DUMP = 3;

const HELP = `Usage: npm run db:backup -- [options]
       node scripts/db-backup.mjs [options]

Backs up Mirror's database while the server runs, with the server's settings:
  SQLite (no DATABASE_URL)   online backup of DATA_DIR/mirror.db, verified with
                             PRAGMA integrity_check
  PostgreSQL (DATABASE_URL)  pg_dump --format=custom (only DATABASE_SCHEMA when set),
                             verified with pg_restore --list

Options:
  --out <file>       where to write (default DATA_DIR/backups/mirror-<UTC time>.sqlite or .dump);
                     an existing file is never overwritten
  --keep <n>         then delete all but the newest n backups named mirror-<UTC time>.sqlite|.dump
                     in the output's folder (other files are never touched)
  --pg-dump <path>   the pg_dump to run (default: pg_dump on PATH); use the server's major version
  -h, --help         this text

Environment: DATA_DIR (default ./data), DATABASE_URL, DATABASE_SCHEMA, S3_BUCKET, S3_PREFIX,
S3_ENDPOINT. Settings come from the environment only, as for the server; for a .env file run
  node --env-file=.env scripts/db-backup.mjs

Blobs (mirrored files) are not in the database backup: copy DATA_DIR/blobs or the S3 bucket
after it (the command prints how).

Exit codes: 0 backup written and verified; 1 backup or verification failed; 2 bad usage or
settings (e.g. no database file); 3 PostgreSQL and no pg_dump found.`;

class UsageError extends Error {}

/** Settings as the server reads them: empty strings mean "not set". */
function readEnv(source) {
  const value = (name) =>
    source[name] === undefined || source[name] === '' ? undefined : source[name];
  const databaseUrl = value('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new UsageError('DATABASE_URL must be a postgres:// connection string');
  }
  const schema = value('DATABASE_SCHEMA');
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) {
    throw new UsageError('DATABASE_SCHEMA must be a lower-case SQL identifier');
  }
  const dataDir = path.resolve(value('DATA_DIR') ?? './data');
  return {
    dataDir,
    database: databaseUrl
      ? { kind: 'postgres', url: databaseUrl, schema }
      : { kind: 'sqlite', file: path.join(dataDir, 'mirror.db') },
    blobsDir: path.join(dataDir, 'blobs'),
    s3: value('S3_BUCKET')
      ? {
          bucket: value('S3_BUCKET'),
          prefix: value('S3_PREFIX') ?? '',
          endpoint: value('S3_ENDPOINT'),
        }
      : undefined,
  };
}

function parseArgs(argv) {
  const options = { out: undefined, keep: undefined, pgDump: 'pg_dump', help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s) : [arg];
    const takeValue = () => {
      const next = inline ?? argv[++i];
      if (next === undefined || next === '') throw new UsageError(`${flag} needs a value`);
      return next;
    };
    if (flag === '-h' || flag === '--help') options.help = true;
    else if (flag === '--out') options.out = path.resolve(takeValue());
    else if (flag === '--pg-dump') options.pgDump = takeValue();
    else if (flag === '--keep') {
      const raw = takeValue();
      if (!/^\d+$/.test(raw) || Number(raw) < 1) {
        throw new UsageError(`--keep must be a whole number of at least 1 (got "${raw}")`);
      }
      options.keep = Number(raw);
    } else throw new UsageError(`unknown option ${arg} (see --help)`);
  }
  return options;
}

/** 2026-01-02T03:04:05.678Z → 20260102T030405Z: sorts by time, no characters shells dislike. */
function stamp(date = new Date()) {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}
const BACKUP_NAME = /^mirror-\d{8}T\d{6}Z\.(sqlite|dump)$/;

function defaultOut(dataDir, extension) {
  return path.join(dataDir, 'backups', `mirror-${stamp()}.${extension}`);
}

function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

function prepareOut(out) {
  if (fs.existsSync(out)) {
    throw new UsageError(`${out} already exists; a backup never overwrites a file (choose --out)`);
  }
  // Backups hold password hashes and session data: readable by their owner only.
  fs.mkdirSync(path.dirname(out), { recursive: true, mode: 0o700 });
  const partial = `${out}.partial`;
  fs.rmSync(partial, { force: true });
  fs.writeFileSync(partial, '', { mode: 0o600 });
  return partial;
}

/** Deletes all but the newest `keep` backups of `extension` in `dir`; returns what it deleted. */
function prune(dir, extension, keep) {
  const backups = fs
    .readdirSync(dir)
    .filter((name) => BACKUP_NAME.test(name) && name.endsWith(`.${extension}`))
    .sort();
  const old = backups.slice(0, Math.max(0, backups.length - keep));
  for (const name of old) fs.rmSync(path.join(dir, name));
  return old;
}

function tableCount(db) {
  return db.prepare("select count(*) as n from sqlite_master where type = 'table'").get().n;
}

async function backupSqlite(settings, options) {
  const source = settings.database.file;
  if (!fs.existsSync(source)) {
    throw new UsageError(
      `no SQLite database at ${source}. Set DATA_DIR to the server's data folder (now ${settings.dataDir}), or DATABASE_URL for PostgreSQL.`,
    );
  }
  const out = options.out ?? defaultOut(settings.dataDir, 'sqlite');
  const partial = prepareOut(out);
  const started = Date.now();
  try {
    // The server's own settings: WAL lets it keep writing while this reads.
    const db = new SQLite(source, { fileMustExist: true });
    let sourceTables;
    try {
      db.pragma('busy_timeout = 5000');
      sourceTables = tableCount(db);
      // Every page in one step, so the copy is one consistent snapshot: in WAL mode the read it
      // takes never blocks the server's writers, and a write between steps cannot restart it.
      await db.backup(partial, { progress: () => 0x7fffffff });
    } finally {
      db.close();
    }

    const copy = new SQLite(partial, { fileMustExist: true });
    let integrity;
    let copyTables;
    try {
      // One self-contained file: no -wal or -shm next to it.
      copy.pragma('journal_mode = DELETE');
      integrity = copy.pragma('integrity_check', { simple: true });
      copyTables = tableCount(copy);
    } finally {
      copy.close();
    }
    if (integrity !== 'ok') throw new Error(`the copy failed PRAGMA integrity_check: ${integrity}`);
    if (copyTables !== sourceTables || copyTables === 0) {
      throw new Error(`the copy has ${copyTables} tables, the database ${sourceTables}`);
    }
    fs.renameSync(partial, out);
    const size = fs.statSync(out).size;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`SQLite backup written: ${out}`);
    console.log(`  ${formatBytes(size)}, ${copyTables} tables, integrity_check ok, ${seconds} s`);
    console.log(
      `  Restore: stop every Mirror process, delete ${source}-wal and ${source}-shm if present, copy this file to ${source}, start again.`,
    );
    return { out, extension: 'sqlite' };
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  }
}

/** The URL without its password (kept out of the process list), and the password for PGPASSWORD. */
function splitPassword(url) {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return { url, password: undefined };
    const password = decodeURIComponent(parsed.password);
    parsed.password = '';
    return { url: parsed.toString(), password };
  } catch {
    return { url, password: undefined };
  }
}

function pgDumpGuidance(settings, pgDump, out) {
  const schema = settings.database.schema ? ` --schema=${settings.database.schema}` : '';
  return [
    `${pgDump} was not found. PostgreSQL backups need pg_dump from the PostgreSQL client tools, of the`,
    `same major version as the server or newer (Debian/Ubuntu: apt install postgresql-client, or`,
    `postgresql-client-<major> from apt.postgresql.org). Then run npm run db:backup again, or pass`,
    `--pg-dump /usr/lib/postgresql/<major>/bin/pg_dump. By hand, the same backup is:`,
    `  pg_dump --format=custom${schema} --file=${out} "$DATABASE_URL"`,
    `and its restore:`,
    `  pg_restore --clean --if-exists --dbname="$DATABASE_URL" ${out}`,
  ].join('\n');
}

function backupPostgres(settings, options) {
  const out = options.out ?? defaultOut(settings.dataDir, 'dump');
  const probe = spawnSync(options.pgDump, ['--version'], { encoding: 'utf8' });
  if (probe.error) {
    const error = new Error(pgDumpGuidance(settings, options.pgDump, out));
    error.exitCode = EXIT_NO_PG_DUMP;
    throw error;
  }
  const partial = prepareOut(out);
  const { url, password } = splitPassword(settings.database.url);
  const env = { ...process.env, ...(password === undefined ? {} : { PGPASSWORD: password }) };
  const started = Date.now();
  try {
    const args = ['--format=custom', `--file=${partial}`];
    if (settings.database.schema) args.push(`--schema=${settings.database.schema}`);
    args.push(`--dbname=${url}`);
    const dump = spawnSync(options.pgDump, args, { env, encoding: 'utf8' });
    if (dump.error) throw dump.error;
    if (dump.status !== 0) {
      const stderr = dump.stderr.trim();
      const hint = /version mismatch/i.test(stderr)
        ? `\nInstall the pg_dump of the server's major version and pass it with --pg-dump.`
        : '';
      throw new Error(`pg_dump failed (exit ${dump.status}):\n${stderr}${hint}`);
    }

    // pg_restore comes with pg_dump; its table of contents proves the archive reads back.
    const pgRestore =
      options.pgDump === 'pg_dump'
        ? 'pg_restore'
        : path.join(path.dirname(options.pgDump), 'pg_restore');
    const list = spawnSync(pgRestore, ['--list', partial], { encoding: 'utf8' });
    let verified = 'not verified (pg_restore not found)';
    if (!list.error) {
      if (list.status !== 0) {
        throw new Error(`pg_restore --list cannot read the dump:\n${list.stderr.trim()}`);
      }
      const tables = list.stdout.split('\n').filter((line) => / TABLE (?!DATA)/.test(line)).length;
      if (tables === 0) throw new Error('the dump holds no tables: is DATABASE_SCHEMA right?');
      verified = `${tables} tables, pg_restore --list ok`;
    }
    fs.renameSync(partial, out);
    const size = fs.statSync(out).size;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`PostgreSQL backup written: ${out}`);
    console.log(`  ${formatBytes(size)}, ${verified}, ${seconds} s`);
    console.log(`  Restore: pg_restore --clean --if-exists --dbname="$DATABASE_URL" ${out}`);
    return { out, extension: 'dump' };
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  }
}

function blobsReminder(settings) {
  if (settings.s3) {
    const { bucket, prefix, endpoint } = settings.s3;
    const endpointFlag = endpoint ? ` --endpoint-url ${endpoint}` : '';
    return `Blobs are not in this backup: they live in s3://${bucket}/${prefix}, content-addressed and never overwritten; copy them after the database, e.g. aws s3 sync s3://${bucket}/${prefix} <backup>/blobs/${endpointFlag} (or enable versioning or replication on the bucket).`;
  }
  return `Blobs are not in this backup: they live in ${settings.blobsDir}, content-addressed and never changed once written; copy them after the database, e.g. rsync -a ${settings.blobsDir}/ <backup>/blobs/`;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.help) {
    console.log(HELP);
    return;
  }
  const settings = readEnv(process.env);
  const result =
    settings.database.kind === 'sqlite'
      ? await backupSqlite(settings, options)
      : backupPostgres(settings, options);
  if (options.keep !== undefined) {
    const removed = prune(path.dirname(result.out), result.extension, options.keep);
    console.log(
      removed.length === 0
        ? `Kept every backup (--keep ${options.keep}).`
        : `Deleted ${removed.length} older backup(s), keeping the newest ${options.keep}: ${removed.join(', ')}`,
    );
  }
  console.log(blobsReminder(settings));
}

main().catch((err) => {
  if (err instanceof UsageError) {
    console.error(`db:backup: ${err.message}`);
    process.exit(EXIT_USAGE);
  }
  const message = err instanceof Error ? err.message : String(err);
  if (err?.exitCode === EXIT_NO_PG_DUMP) {
    console.error(`db:backup: ${message}`);
    process.exit(EXIT_NO_PG_DUMP);
  }
  console.error(`db:backup: backup failed: ${message}`);
  process.exit(EXIT_FAILED);
});
