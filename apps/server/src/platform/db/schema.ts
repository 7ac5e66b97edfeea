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
  /** JSON of UserSettings; null means the defaults. */
  settings: ColumnType<string | null, string | null | undefined, string | null>;
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

export interface PasswordResetsTable {
  id: string;
  user_id: string;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  reset_at: Timestamp;
}

export interface LoginThrottleTable {
  /** Keyed by the normalized email whether or not an account exists, so it reveals nothing. */
  email: string;
  failures: number;
  last_failure_at: Timestamp;
  blocked_until: Timestamp | null;
}

export type SiteStatus = 'pending' | 'processing' | 'completing' | 'completed' | 'failed';

export interface SitesTable {
  id: string;
  /** Null for a visitor's demo until it is claimed. */
  owner_id: string | null;
  is_demo: ColumnType<number, number | undefined, number>;
  source_url: string;
  subdomain: string | null;
  status: ColumnType<SiteStatus, SiteStatus | undefined, SiteStatus>;
  created_at: Timestamp;
  updated_at: Timestamp;
  ai_instructions: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON object. */
  customizations: ColumnType<string | null, string | null | undefined, string | null>;
  current_status: ColumnType<string | null, string | null | undefined, string | null>;
  error: ColumnType<string | null, string | null | undefined, string | null>;
  /** The version the sites host serves; switched in one update when a run succeeds or on rollback. */
  live_version_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The version the current (or last) run produces. */
  current_version_id: ColumnType<string | null, string | null | undefined, string | null>;
  demo_ip: ColumnType<string | null, string | null | undefined, string | null>;
  progress: ColumnType<number, number | undefined, number>;
  estimated_time: ColumnType<number | null, number | null | undefined, number | null>;
  sync_schedule: ColumnType<
    'off' | 'daily' | 'weekly',
    'off' | 'daily' | 'weekly' | undefined,
    'off' | 'daily' | 'weekly'
  >;
  next_sync_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** Demo sites not claimed by then are deleted. */
  expires_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** A one-off AI rewrite was paid for this site (filled by payments); free plans need it. */
  ai_rewrite_paid_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

export interface SiteVersionsTable {
  id: string;
  site_id: string;
  number: number;
  status: SiteStatus;
  /** Blob holding the engine manifest (JSON) once the run completed. */
  manifest_hash: string | null;
  pages: ColumnType<number, number | undefined, number>;
  assets: ColumnType<number, number | undefined, number>;
  bytes: ColumnType<number, number | undefined, number>;
  failed_urls: ColumnType<number, number | undefined, number>;
  error: string | null;
  created_at: Timestamp;
  finished_at: Timestamp | null;
  kind: ColumnType<VersionKind, VersionKind | undefined, VersionKind>;
  /** The version a customization or rewrite was made from. */
  base_version_id: NullableText;
  /** What was asked: instructions text, the idea of a rewrite, structured ops (JSON). */
  instructions: NullableText;
  idea: NullableText;
  requested_ops: NullableText;
  /** The applied EditPlan, its summary lines and the unparsed parts (JSON). */
  plan: NullableText;
  changes: NullableText;
  unparsed: NullableText;
  /** 1 for a completed version waiting to be published (a rewrite). */
  draft: ColumnType<number, number | undefined, number>;
  /** Blob of the version's thumbnail (JPEG), made by a job after the version completed. */
  thumbnail_hash: NullableText;
}

export type VersionKind = 'mirror' | 'customize' | 'rewrite';
type NullableText = ColumnType<string | null, string | null | undefined, string | null>;

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface JobsTable {
  id: string;
  name: string;
  /** JSON. */
  payload: string;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  run_at: Timestamp;
  locked_by: string | null;
  locked_until: Timestamp | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SiteVisitsTable {
  site_id: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  visits: number;
  page_views: number;
}

/** Thumbnails that GET /screenshots may serve; `url` is a website or `version:{id}`. */
export interface ScreenshotsTable {
  url: string;
  hash: string;
  created_at: Timestamp;
  /** A website is captured again after this (its row then points at the new image). */
  expires_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
  rate_limits: RateLimitsTable;
  login_throttle: LoginThrottleTable;
  sites: SitesTable;
  site_versions: SiteVersionsTable;
  jobs: JobsTable;
  site_visits: SiteVisitsTable;
  screenshots: ScreenshotsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;

// Re-exported so repositories need only this module for typing.
export type { ColumnType, Generated };
