import { sql, type Kysely, PostgresAdapter, type RawBuilder } from 'kysely';

/** Migrations are written once for both dialects; only these column types differ. */
export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export function timestampType(db: Kysely<unknown>): RawBuilder<unknown> {
  return isPostgres(db) ? sql`timestamptz` : sql`text`;
}
