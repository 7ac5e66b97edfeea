import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { SyncSchedule } from '@mirror/contract';

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
  /** The client address the failures came from: one address cannot lock the owner out of another. */
  address: string;
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
  /** While a mirror runs: `RunCounts` (pages and files done out of found) as JSON. */
  run_counts: NullableText;
  /** While a mirror runs: the page being copied. */
  current_url: NullableText;
  /** A failed run's `MirrorFailureKind` and technical detail (`error` is the English sentence). */
  error_kind: NullableText;
  error_detail: NullableText;
  sync_schedule: ColumnType<SyncSchedule, SyncSchedule | undefined, SyncSchedule>;
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
  /** As the site's: a failed run's category and technical detail. */
  error_kind: NullableText;
  error_detail: NullableText;
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
  /** 1 for a completed version waiting to be published (a rewrite or customization). */
  draft: ColumnType<number, number | undefined, number>;
  /** Blob of the version's thumbnail (JPEG), made by a job after the version completed. */
  thumbnail_hash: NullableText;
  /** The thumbnail's bytes (counted against the owner's storage); null: not measured yet. */
  thumbnail_size: ColumnType<number | null, number | null | undefined, number | null>;
  /** The home page's title (`cleanSiteTitle`); '' when it has none, null when not read yet. */
  title: NullableText;
  /** What it changed against the version it replaced: a mirror's `ChangeDigest` (JSON). */
  change_digest: NullableText;
  /** A mirror made from an uploaded web archive: the manifest's `importedFrom` (JSON). */
  imported_from: NullableText;
  /** The last scheduled sync that found the site unchanged while this version was live (no new version). */
  checked_unchanged_at: ColumnType<
    Timestamp | null,
    Timestamp | null | undefined,
    Timestamp | null
  >;
  /** A rewrite that used up the site's one-off payment: that payment's time, given back on failure. */
  rewrite_credit: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /**
   * The edit plan the run's planner answered (`PlanningResult` as JSON), kept as soon as it
   * answered: a retry reuses it, and a rewrite whose model answered has used its payment.
   */
  planned: NullableText;
  /** 1 for the edits a re-mirror or sync re-applies: published at once, like the mirror. */
  carried: ColumnType<number, number | undefined, number>;
  /** Plain descriptions of the applied plan's ops, one per op (JSON `string[]`). */
  edits: NullableText;
  /** The draft this one replaces once it completes (an edit undone). */
  replaces_version_id: NullableText;
}

/** The blobs a completed version holds: its manifest and every body it serves (issue 18). */
export interface VersionBlobsTable {
  version_id: string;
  hash: string;
  size: number;
}

export type FidelityState = 'queued' | 'running' | 'completed' | 'failed';

/** What a new mirror version changed against the version it replaced (issue 33). */
export interface WatchesTable {
  id: string;
  site_id: string;
  owner_id: string;
  name: string;
  scope: string;
  /** Paths, JSON. */
  pages: string;
  selector: string | null;
  text_fallback: string | null;
  /** `KeywordRule[]`, JSON. */
  keywords: string;
  min_words: number;
  email: string;
  webhook_url: string | null;
  webhook_secret: string;
  created_at: Timestamp;
  last_hit_at: Timestamp | null;
}

export interface WatchHitsTable {
  id: string;
  watch_id: string;
  site_id: string;
  version_id: string;
  /** `WatchReason[]`, JSON. */
  reasons: string;
  created_at: Timestamp;
  mailed_at: Timestamp | null;
}

export interface WebhookDeliveriesTable {
  id: string;
  watch_id: string;
  site_id: string;
  version_id: string;
  url: string;
  body: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Timestamp;
  finished_at: Timestamp | null;
  next_attempt_at: Timestamp | null;
}

export interface ChangeFeedsTable {
  site_id: string;
  token: string;
}

export interface ChangeReportsTable {
  version_id: string;
  site_id: string;
  base_version_id: string;
  /** `ChangeReport` as JSON. */
  report: string;
  created_at: Timestamp;
}

/** The visual diff of a change report (issue 33): its state and, once done, its pages. */
export interface VisualDiffsTable {
  version_id: string;
  site_id: string;
  state: FidelityState;
  /** `StoredVisualDiffPage[]` (JSON). */
  pages: NullableText;
  error: NullableText;
  requested_at: Timestamp;
  checked_at: Timestamp | null;
}

/** A screenshot of a visual diff, with its bytes (counted against the owner's storage). */
export interface VisualDiffBlobsTable {
  version_id: string;
  hash: string;
  size: number;
}

/** A version's fidelity check (issue 21). */
export interface FidelityReportsTable {
  version_id: string;
  site_id: string;
  state: FidelityState;
  score: number | null;
  pages_checked: ColumnType<number, number | undefined, number>;
  /** `StoredFidelityReport` (JSON). */
  report: NullableText;
  error: NullableText;
  /** Pages a re-capture asked for (JSON `string[]`); null: the whole sample. */
  paths: NullableText;
  /** The newer version the check's repairs were published as. */
  repaired_version_id: NullableText;
  requested_at: Timestamp;
  checked_at: Timestamp | null;
  /** While it runs: page renders compared, of those planned (pages × widths); null before. */
  progress_done: ColumnType<number | null, number | null | undefined, number | null>;
  progress_total: ColumnType<number | null, number | null | undefined, number | null>;
}

/** The screenshots of a version's fidelity report. */
export interface FidelityBlobsTable {
  version_id: string;
  hash: string;
  /** Bytes (counted against the owner's storage); null: not measured yet. */
  size: ColumnType<number | null, number | null | undefined, number | null>;
}

/**
 * A blob a run in progress refers to without having written it (a 304 revalidation, a file
 * carried over from another version, an upload): the storage sweep keeps it while the hold lasts.
 */
export interface BlobHoldsTable {
  /** The run: its version's id, or `fidelity:<version id>` for a fidelity check. */
  holder: string;
  hash: string;
  taken_at: Timestamp;
}

/** A blob a storage sweep is deleting right now: a run taking a hold on it waits for the sweep. */
export interface BlobSweepMarksTable {
  hash: string;
  sweep_id: string;
  marked_at: Timestamp;
}

/**
 * One attempt to pay a site's one-off AI rewrite (issue 30, item 9), claimed before the provider is
 * called: its id is the provider's idempotency key, and `open_site_id` (unique) holds the site while
 * the attempt is under way, so a site never has two charges going at once.
 */
export interface RewritePaymentsTable {
  id: string;
  site_id: string;
  user_id: string;
  open_site_id: NullableText;
  status: RewritePaymentStatus;
  payment_intent_id: NullableText;
  payment_method_id: string;
  amount: number;
  /** The rewrite this payment opened: the value it wrote to `sites.ai_rewrite_paid_at`. */
  paid_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/**
 * `charging`: the provider is being asked; `requires_action`: waiting for 3-D Secure; `succeeded`:
 * paid, the rewrite opened; `failed`: declined or refused; `abandoned`: a newer attempt replaced it
 * (a late success is refunded unless nothing else opened the rewrite); `refund_due`: paid twice
 * for one rewrite, to be refunded; `refunded` and `disputed`: as the provider reported.
 */
export type RewritePaymentStatus =
  | 'charging'
  | 'requires_action'
  | 'succeeded'
  | 'failed'
  | 'abandoned'
  | 'refund_due'
  | 'refunded'
  | 'disputed';

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
  /** Distinct people that day (each new salted hash in `daily_visitors`). */
  visitors: Generated<number>;
  /** Body bytes sent for the site's pages and files (bots' too, previews' not). */
  bytes: Generated<number>;
  /** Page loads by bots, left out of visits and page views. */
  bot_views: Generated<number>;
}

/** A site's top paths and referrer hosts per day; `key` '' is the day's "other" bucket. */
export interface SiteVisitKeysTable {
  site_id: string;
  day: string;
  kind: 'page' | 'referrer';
  key: string;
  hits: number;
}

/** Visits to a parked domain's page per UTC day. */
export interface ParkedVisitsTable {
  domain_id: string;
  day: string;
  visitors: number;
  page_views: number;
  bot_views: number;
}

/** The salted visitor hashes of the last two days (who was new today, across processes). */
export interface DailyVisitorsTable {
  day: string;
  scope: string;
  hash: string;
}

/** Thumbnails that GET /screenshots may serve; `url` is a website or `version:{id}`. */
export interface ScreenshotsTable {
  url: string;
  hash: string;
  created_at: Timestamp;
  /** A website is captured again after this (its row then points at the new image). */
  expires_at: Timestamp;
  /** 1 when the website lets other sites frame it, 0 when not, null when unknown. */
  frameable: number | null;
}

/**
 * Payments (issue 7). Billing times (periods, event times) are unix seconds, as card payment
 * providers send them; `created_at`/`updated_at` follow the ISO convention above.
 */
export type BillingMode = 'test' | 'stripe';
export type BillingPlan = 'pro' | 'agency';
export type BillingSubscriptionStatus =
  'active' | 'trialing' | 'incomplete' | 'incomplete_expired' | 'past_due' | 'canceled' | 'unpaid';

/** A user's customer at a provider, made on first use. */
export interface BillingCustomersTable {
  user_id: string;
  mode: BillingMode;
  customer_id: string;
  created_at: Timestamp;
}

/** Subscriptions as the provider last reported them (events and API answers). */
export interface SubscriptionsTable {
  id: string;
  user_id: string;
  customer_id: string;
  plan: BillingPlan;
  status: BillingSubscriptionStatus;
  current_period_start: number;
  current_period_end: number;
  cancel_at_period_end: number;
  trial_end: number | null;
  /** When the stored state was true at the provider (seconds): older events do not overwrite it. */
  state_at: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Provider events already applied; an event seen again is ignored. */
export interface BillingEventsTable {
  id: string;
  type: string;
  created: number;
  processed_at: Timestamp;
}

/** The local test mode's provider side (what Stripe's servers hold otherwise). No card numbers. */
export interface TestmodeCustomersTable {
  id: string;
  email: string;
  name: string;
  default_payment_method: string | null;
  invoice_seq: ColumnType<number, number | undefined, number>;
  /** Cents owed to the customer (from downgrades), taken off the next invoices. */
  credit: ColumnType<number, number | undefined, number>;
  created: number;
}

export type TestCardBehaviour = 'succeeds' | 'declines' | 'authenticates';

export interface TestmodePaymentMethodsTable {
  id: string;
  customer_id: string | null;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  behaviour: TestCardBehaviour;
  decline_message: string | null;
  created: number;
}

export interface TestmodeSubscriptionsTable {
  id: string;
  customer_id: string;
  plan: BillingPlan;
  status: BillingSubscriptionStatus;
  /** Periods end on this moment's day of the month (clamped to short months). */
  billing_anchor: number;
  current_period_start: number;
  current_period_end: number;
  cancel_at_period_end: number;
  canceled_at: number | null;
  latest_invoice_id: string | null;
  created: number;
}

export interface TestmodeInvoicesTable {
  id: string;
  number: string;
  customer_id: string;
  subscription_id: string | null;
  status: 'open' | 'paid' | 'void' | 'uncollectible';
  total: number;
  currency: string;
  description: string | null;
  /** JSON: [{ description, amount }]. */
  lines: string;
  payment_intent_id: string | null;
  attempt_count: ColumnType<number, number | undefined, number>;
  next_attempt: number | null;
  created: number;
}

export interface TestmodePaymentIntentsTable {
  id: string;
  client_secret: string;
  customer_id: string | null;
  amount: number;
  currency: string;
  description: string | null;
  /** JSON object of strings. */
  metadata: string;
  status:
    | 'requires_payment_method'
    | 'requires_confirmation'
    | 'requires_action'
    | 'processing'
    | 'succeeded'
    | 'canceled';
  payment_method_id: string | null;
  invoice_id: string | null;
  created: number;
}

/** Answers of creates by idempotency key: a retried request gets the first answer. */
export interface TestmodeIdempotencyTable {
  key: string;
  result: string;
  created: number;
}

/** Outbox of BillingEvents, delivered in `seq` order (at least once) like webhooks. */
export interface TestmodeEventsTable {
  id: string;
  seq: number;
  payload: string;
  delivered: ColumnType<number, number | undefined, number>;
  created: number;
}

/** Domains (issue 8): custom domains serving a site and parked domains, one account each. */
export interface DomainsTable {
  id: string;
  owner_id: string;
  kind: 'custom' | 'parked';
  /** Lower case, without a trailing dot; unique across accounts and kinds. */
  domain: string;
  /** The site a custom domain serves; null for parked domains. */
  site_id: string | null;
  /** The DNS zone the domain is in: the domain is an apex when it equals it. */
  zone: string;
  www_redirect: ColumnType<
    'www-to-apex' | 'apex-to-www',
    'www-to-apex' | 'apex-to-www' | undefined,
    'www-to-apex' | 'apex-to-www'
  >;
  /** Value of the TXT ownership record (after its prefix). */
  token: string;
  status: ColumnType<
    'pending' | 'misconfigured' | 'active',
    'pending' | 'misconfigured' | 'active' | undefined,
    'pending' | 'misconfigured' | 'active'
  >;
  problem: NullableText;
  reason: NullableText;
  /** JSON: the last check's records (what was found per record) and CAA answer. */
  last_check: NullableText;
  checked_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** First activation; a verified domain no longer needs its TXT record. */
  verified_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** When the background checks look again; null once they gave up (Check Now resumes). */
  next_check_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  check_attempts: ColumnType<number, number | undefined, number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** A custom domain beyond the plan after a downgrade: it is detached then (issue 18). */
  detach_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

export interface ParkedPagesTable {
  domain_id: string;
  project_id: string;
  template: 'default' | 'minimalist' | 'contact-form' | 'custom';
  /** HTML of the custom template; served only on the parked domain itself. */
  content: NullableText;
  monetization: ColumnType<
    'none' | 'ads' | 'affiliate',
    'none' | 'ads' | 'affiliate' | undefined,
    'none' | 'ads' | 'affiliate'
  >;
  /** A locale code; null follows the owner's language. */
  language: NullableText;
  message: NullableText;
  for_sale: ColumnType<number, number | undefined, number>;
  /** Whole US dollars. */
  asking_price: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Secrets the server makes for itself (`domain-claims`: the key of per-account TXT tokens). */
export interface ServerSecretsTable {
  name: string;
  value: string;
}

/** Contact messages and offers sent from parked pages. */
export interface ParkedMessagesTable {
  id: string;
  domain_id: string;
  kind: 'contact' | 'offer';
  name: string;
  email: string;
  message: string;
  amount: number | null;
  created_at: Timestamp;
}

/** The owner's settings of a copy's form (issue 34), by the form's key. */
export interface FormSettingsTable {
  site_id: string;
  form_key: string;
  enabled: number;
  redirect_url: string | null;
  notify: 'each' | 'daily' | 'off';
  webhook_url: string | null;
  webhook_secret: string | null;
  /** Where its mails go instead of the owner's address, once `form_recipients` says confirmed. */
  recipient_email: string | null;
}

/** An address a site's form mails were sent to by a published edit, and its answer. */
export interface FormRecipientsTable {
  site_id: string;
  email: string;
  status: 'pending' | 'confirmed' | 'declined';
  token_hash: string;
  requested_at: string;
  answered_at: string | null;
  mails_sent: number;
  last_mailed_at: string | null;
}

/** A submission's signed webhook delivery and its tries. */
export interface FormWebhookDeliveriesTable {
  id: string;
  submission_id: string;
  site_id: string;
  form_key: string;
  url: string;
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Timestamp;
  finished_at: Timestamp | null;
  next_attempt_at: Timestamp | null;
}

/** A submission of a copy's form, taken by the sites host. */
export interface FormSubmissionsTable {
  id: string;
  site_id: string;
  owner_id: string;
  form_key: string;
  /** What the owner called the form when it was sent (`SiteForm.label`). */
  form_label: string;
  page: string | null;
  /** `[name, value][]`, JSON. */
  fields: string;
  search_text: string;
  spam: number;
  spam_reason: string | null;
  bytes: number;
  created_at: Timestamp;
  mailed_at: Timestamp | null;
}

/** A file uploaded with a form submission (a blob). */
export interface FormFilesTable {
  submission_id: string;
  position: number;
  field: string;
  name: string;
  content_type: string;
  hash: string;
  size: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
  rate_limits: RateLimitsTable;
  login_throttle: LoginThrottleTable;
  sites: SitesTable;
  site_versions: SiteVersionsTable;
  version_blobs: VersionBlobsTable;
  fidelity_reports: FidelityReportsTable;
  change_reports: ChangeReportsTable;
  visual_diffs: VisualDiffsTable;
  visual_diff_blobs: VisualDiffBlobsTable;
  watches: WatchesTable;
  change_feeds: ChangeFeedsTable;
  watch_hits: WatchHitsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  fidelity_blobs: FidelityBlobsTable;
  rewrite_payments: RewritePaymentsTable;
  blob_holds: BlobHoldsTable;
  blob_sweep_marks: BlobSweepMarksTable;
  jobs: JobsTable;
  site_visits: SiteVisitsTable;
  site_visit_keys: SiteVisitKeysTable;
  parked_visits: ParkedVisitsTable;
  daily_visitors: DailyVisitorsTable;
  screenshots: ScreenshotsTable;
  billing_customers: BillingCustomersTable;
  subscriptions: SubscriptionsTable;
  billing_events: BillingEventsTable;
  testmode_customers: TestmodeCustomersTable;
  testmode_payment_methods: TestmodePaymentMethodsTable;
  testmode_subscriptions: TestmodeSubscriptionsTable;
  testmode_invoices: TestmodeInvoicesTable;
  testmode_payment_intents: TestmodePaymentIntentsTable;
  testmode_idempotency: TestmodeIdempotencyTable;
  testmode_events: TestmodeEventsTable;
  domains: DomainsTable;
  parked_pages: ParkedPagesTable;
  parked_messages: ParkedMessagesTable;
  server_secrets: ServerSecretsTable;
  form_settings: FormSettingsTable;
  form_submissions: FormSubmissionsTable;
  form_files: FormFilesTable;
  form_webhook_deliveries: FormWebhookDeliveriesTable;
  form_recipients: FormRecipientsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;

// Re-exported so repositories need only this module for typing.
export type { ColumnType, Generated };
