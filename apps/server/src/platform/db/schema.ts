import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Column conventions, the same on SQLite and PostgreSQL (see docs/decisions/003-database.md):
 * ids are text (UUIDs made by the app); timestamps are ISO-8601 UTC strings in the app
 * (timestamptz on PostgreSQL, text on SQLite); flags are integers 0/1; JSON is text.
 */
export type Timestamp = string;

export interface UsersTable {
  id: string;
  name: string;
  /** Trimmed and lower-cased: unique without regard to case. */
  email: string;
  password_hash: string;
  role: 'user' | 'admin';
  plan: 'free' | 'pro' | 'agency';
  locale: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  /** SHA-256 of the opaque bearer token; the token itself is never stored. */
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  last_used_at: Timestamp;
  user_agent: string | null;
  ip: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;

// Re-exported so repositories need only this module for typing.
export type { ColumnType, Generated };
