import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
  type MigrationProvider,
} from 'kysely';
import pg from 'pg';
import type { Config } from '../../config/env.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: 'sqlite' | 'postgres';
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  destroy(): Promise<void>;
}

const PG_TIMESTAMPTZ_OID = 1184;
const PG_INT8_OID = 20;

/** Tries of opening and migrating before start-up fails (see `openDatabase`). */
const OPEN_ATTEMPTS = 5;

/**
 * Opens the database and brings its schema up to date. Several processes may start at once on a
 * fresh database (systemd starts every role together): SQLite has no migration lock, and
 * PostgreSQL's `create … if not exists` can collide, so the process that loses the race opens
 * again after a short wait and then finds the migrations applied.
 */
export async function openDatabase(config: Config['database']): Promise<DatabaseHandle> {
  for (let attempt = 1; ; attempt++) {
    let handle: DatabaseHandle | undefined;
    try {
      handle = config.kind === 'sqlite' ? openSqlite(config.file) : await openPostgres(config);
      const schema =
        config.kind === 'postgres'
          ? (config.schema ?? (await currentSchema(handle.db)))
          : undefined;
      await migrateToLatest(handle.db, schema);
      return handle;
    } catch (err) {
      await handle?.destroy().catch(() => undefined);
      if (attempt >= OPEN_ATTEMPTS) throw err;
      await new Promise((resolve) => setTimeout(resolve, 150 * 2 ** attempt * Math.random()));
    }
  }
}

/**
 * SQLite transactions that take the write lock when they begin (`begin immediate`). Kysely begins
 * deferred ones: a transaction that reads and then writes fails at once with SQLITE_BUSY when
 * another process wrote in between (the busy timeout does not apply to that upgrade). Processes
 * sharing one SQLite file (roles on one machine) then wait for each other instead.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  override createDriver() {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return driver;
  }
}

function openSqlite(file: string): DatabaseHandle {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) });
  return {
    db,
    dialect: 'sqlite',
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    destroy: () => db.destroy(),
  };
}

async function openPostgres(
  config: Extract<Config['database'], { kind: 'postgres' }>,
): Promise<DatabaseHandle> {
  // Per-pool type parsers (not pg's global ones): timestamps come back as the same ISO strings the
  // SQLite side stores, and 64-bit counts as numbers.
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') => {
      if (oid === PG_TIMESTAMPTZ_OID) return (value: string) => new Date(value).toISOString();
      if (oid === PG_INT8_OID) return (value: string) => Number(value);
      return pg.types.getTypeParser(oid, format);
    },
  } as pg.CustomTypesConfig;
  const schema = config.schema;
  if (schema) {
    const client = new pg.Client({ connectionString: config.url });
    await client.connect();
    try {
      await client.query(`create schema if not exists "${schema}"`);
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: config.poolMax,
    types,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // A connection lost while idle is dropped by the pool (the next query opens another); one lost
  // while in use fails its query (answered 503). Without listeners either would crash the process.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    destroy: () => db.destroy(),
  };
}

/** The schema unqualified tables go to (the first of the search path that exists: `public`). */
async function currentSchema(db: Db): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]!.schema;
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * `schema`: the PostgreSQL schema the app uses (`openDatabase` always names it, the default one
 * too). Kysely looks for its own bookkeeping tables by name in every schema when none is given, so
 * another app's (or a test run's) migration tables in the same database would be taken for ours,
 * and migrating an empty default schema would fail on a lock table it never created.
 */
export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const detail = failed ? `migration ${failed.migrationName} failed` : 'migration failed';
    throw new Error(detail, { cause: error });
  }
}
