import type { HttpClient } from './net/http-client.js';

/**
 * The engine's public contracts. The engine is pure: storage (BlobStore), DNS resolution and the
 * clock are handed in; it imports no server, database or queue code.
 */

/** Content-addressed storage (sha256). Identical bodies are stored once, across runs and sites. */
export interface BlobStore {
  /** Streams a body in and returns its hash and size; never buffers the whole body in memory. */
  put(body: AsyncIterable<Uint8Array>): Promise<{ hash: string; size: number }>;
  /** Streams a stored body out. */
  read(hash: string): AsyncIterable<Uint8Array>;
  /**
   * Optional: a whole stored body at once, for a store that can do that cheaper than streaming
   * (a file store reads a small file in one call). The engine only reads documents it parses this
   * way, which are bounded in size.
   */
  readAll?(hash: string): Promise<Buffer>;
  has(hash: string): Promise<boolean>;
}

/** A blob as a lasting store lists it, for garbage collection. */
export interface StoredBlob {
  hash: string;
  size: number;
  /** When it was last written: a put of a body already stored writes it again (freshens it). */
  modifiedAt: Date;
}

/**
 * A lasting store (the service's), whose unreferenced blobs are collected. A store may remember for
 * at most `BLOB_PRESENCE_TTL_MS` that it holds a blob (and skip writing it again meanwhile); so a
 * collector deletes only blobs last written longer ago than that, and a blob any run wrote or wrote
 * again since it started is never taken from under it.
 */
export interface SweepableBlobStore extends BlobStore {
  /** Every stored blob, in no particular order. */
  list(): AsyncIterable<StoredBlob>;
  /** Deletes a blob unless it was written at or after `writtenBefore`; true when it was deleted. */
  remove(hash: string, writtenBefore: Date): Promise<boolean>;
  /** Deletes temporary files of writes that never finished (a crash) older than the date. */
  removeTemporaries(olderThan: Date): Promise<number>;
}

export type EntryKind = 'page' | 'asset';

export interface ManifestEntry {
  /** Path (and query) of the file in the copy, e.g. `/about?tab=2` or `/_x/cdn.example.com/a.css`. */
  path: string;
  /** The URL it was captured from. */
  url: string;
  kind: EntryKind;
  status: number;
  contentType: string;
  /** Blob of the body as served by the copy (references rewritten); empty body for redirects. */
  hash: string;
  size: number;
  /** Headers that matter when serving: location (redirects), content-language, … */
  headers: Record<string, string>;
  /** Validators from the origin, for incremental re-mirroring. */
  etag?: string;
  lastModified?: string;
  /** Blob of the body as fetched, before rewriting (reused when the origin answers 304). */
  sourceHash?: string;
  /** Content type as fetched, when the copy's differs (a page transcoded to UTF-8). */
  sourceContentType?: string;
  /** The body is the DOM as rendered by Chromium (the page builds its content with JavaScript). */
  rendered?: boolean;
  /**
   * The page was rendered, and its copy keeps the HTML the server sent: its kept scripts build it
   * again, as on the site, from the responses recorded while rendering (docs/engine.md, step 4).
   */
  replayed?: boolean;
  /**
   * For a page with scripts, why it was or was not rendered, in one line for a person and the
   * fidelity report, e.g. "rendered (sample of its template): fetched 13 files the crawl had not
   * found (products.json, p1.png, p2.png, …)".
   */
  renderReason?: string;
  /** The page's render template (docs/engine.md, step 4): pages that share it share the verdict. */
  renderTemplate?: string;
  /** Its scripts route on the client (History API, hash routing, a location changed after load). */
  clientRouted?: boolean;
  /**
   * The page's `<form>`s in document order, as `findForms` reads them from the HTML the copy keeps
   * (the rendered DOM for a page kept as rendered): where each submits, its fields and its class
   * (docs/engine.md, "Forms"). At most `FORM_LIMITS.formsPerPage`. Absent when the page has none,
   * and in manifests written before it existed.
   */
  forms?: PageForm[];
}

/**
 * What a form is for, from its fields and words (docs/engine.md, "Forms"): `contact` (a message
 * with an email, phone or name), `newsletter` (essentially an email to subscribe), `search`,
 * `login` (a password field, or a sign-in or password-reset form), `payment` (card fields),
 * `other`.
 */
export type FormKind = 'contact' | 'newsletter' | 'search' | 'login' | 'payment' | 'other';

/**
 * Why a form is never captured on the copy: it has a password field, card fields (or a card
 * widget such as Stripe's), it pays through a payment service (PayPal), it is an account form
 * (sign in, password reset) by its words, or it only closes a dialog (`method=dialog`) and sends
 * nothing.
 */
export type FormRefusal = 'password' | 'card-number' | 'payment-service' | 'account' | 'dialog';

/** A form service named by the form's action or attributes. */
export type FormService =
  | 'netlify'
  | 'formspree'
  | 'getform'
  | 'basin'
  | 'formsubmit'
  | 'web3forms'
  | 'mailchimp'
  | 'brevo'
  | 'convertkit'
  | 'mailerlite'
  | 'hubspot'
  | 'google-forms'
  | 'contact-form-7'
  | 'paypal';

/** A field's type: the input's (lowercased; `text` for a missing or unknown one), or the element. */
export type FormFieldType =
  | 'text'
  | 'search'
  | 'email'
  | 'url'
  | 'tel'
  | 'password'
  | 'number'
  | 'range'
  | 'date'
  | 'month'
  | 'week'
  | 'time'
  | 'datetime-local'
  | 'color'
  | 'checkbox'
  | 'radio'
  | 'file'
  | 'hidden'
  | 'textarea'
  | 'select';

/** What a field asks for, from its type, `autocomplete`, name, id, placeholder and label. */
export type FormFieldHolds =
  'email' | 'phone' | 'name' | 'message' | 'search' | 'password' | 'card';

/**
 * A field a form submits (`input`, `select`, `textarea`); buttons are not fields. Radio buttons
 * and checkboxes of one name are one field whose `options` are their values.
 */
export interface PageFormField {
  /** The name it is sent under, as written (cut to 200 characters); '' when it has none. */
  name: string;
  type: FormFieldType;
  required: boolean;
  /** A `select multiple`, or a file input taking several files. */
  multiple?: true;
  /**
   * The values of a select's options (an option without `value` gives its text), or of a radio
   * or checkbox group; at most `FORM_LIMITS.optionsPerField`, each cut to 200 characters.
   */
  options?: string[];
  holds?: FormFieldHolds;
  /** A trap for bots that people do not see (`tabindex=-1`, named like one, Netlify's honeypot). */
  honeypot?: true;
  /** Outside the form's element, tied to it by its `form="id"` attribute. */
  outside?: true;
}

/** A `<form>` of a page (`findForms`; docs/engine.md, "Forms"). */
export interface PageForm {
  /**
   * Unique within the page: the form's `id`, else its `name`, else `form-N` (N its place among the
   * page's forms, from 1); a repeat gets `-2`, `-3`. Cut to 100 characters.
   */
  id: string;
  /** Its place among the page's forms, from 0. */
  index: number;
  /**
   * The absolute URL it submits to, resolved against the page and its `<base href>`, fragment
   * kept (Contact Form 7's `#wpcf7-f…`); the page's own URL when `action` is missing or empty;
   * as written when it is no URL. Cut to 2,000 characters.
   */
  action: string;
  method: 'GET' | 'POST' | 'DIALOG';
  enctype: 'application/x-www-form-urlencoded' | 'multipart/form-data' | 'text/plain';
  /** In document order (fields tied by `form=` from outside at their place), at most 200. */
  fields: PageFormField[];
  /** Fields past `FORM_LIMITS.fieldsPerForm`, counted. */
  fieldsOmitted?: number;
  kind: FormKind;
  /** False for a form the copy never captures; `refusal` says why. */
  capturable: boolean;
  refusal?: FormRefusal;
  /** The action is on the page's own site (the same host, `www.` aside). */
  sameSite: boolean;
  /**
   * The action, on the page's own site, looks like a script of its server that a static copy
   * does not have (`.php`, `.asp(x)`, `.cgi`, `.pl`, `.jsp`, `/cgi-bin/`, `/wp-admin/`, …).
   */
  serverScript: boolean;
  service?: FormService;
  /** The text of its first submit button (or an `input type=submit`'s value), cut to 100. */
  submitLabel?: string;
  /**
   * A script of the page handles its submission: found where the page was rendered (a `submit`
   * listener on it or around it, a `click` listener on its submit button). Absent when not, or
   * not known (the page was not rendered).
   */
  scriptSubmits?: true;
}

export type FailureReason =
  | 'refused-address'
  | 'robots'
  | 'http-error'
  | 'timeout'
  | 'network'
  | 'too-large'
  | 'bot-challenge'
  | 'limit'
  | 'trap'
  | 'invalid';

export interface FailedUrl {
  url: string;
  reason: FailureReason;
  detail: string;
  status?: number;
  /** The network error's code (ETIMEDOUT, ECONNREFUSED, EBADRESPONSE, …), when there was one. */
  code?: string;
}

export interface Manifest {
  version: 1;
  startUrl: string;
  /** Path of the entry page in the copy (after redirects of the start URL). */
  entryPath: string;
  /**
   * The home page's `<title>` as a site's name (`homeTitle`: decoded, whitespace collapsed, cut to
   * `SITE_TITLE_MAX_LENGTH`); absent when it has none, and in manifests written before it existed.
   */
  title?: string;
  createdAt: string;
  entries: ManifestEntry[];
  /**
   * Failed URLs with their details: all of them for an ordinary run, a sample (the first 50 of
   * each reason) for a site that fails by the thousand. `failureCounts` has every failure.
   */
  failures: FailedUrl[];
  /** Every failure, counted by reason (absent in manifests written before it existed). */
  failureCounts?: Partial<Record<FailureReason, number>>;
  /**
   * What the site answers for an address it does not have: its app shell (status 200, a site
   * that routes on the client, so deep links work) or its own 404 page (status 404). `path` is
   * the entry holding it. Absent when the site answers otherwise (a plain 404, a redirect).
   */
  fallback?: { path: string; status: number };
  /** Things the user should know that are not failures of a URL (e.g. rendering unavailable). */
  notes: string[];
  stats: MirrorStats;
  /**
   * The blob of the run's capture log (`CaptureRecord`s, one JSON line each): every kept file's
   * response as the origin answered it, for WARC export (docs/archives.md). Absent in manifests
   * written before it existed, and for a copy that was uploaded rather than fetched.
   */
  capture?: { hash: string; size: number };
  /**
   * The copy was made from a web archive (`importArchive`), not from the live site: the file's
   * name, its format, the software that wrote it (its `warcinfo`) and the responses it held.
   */
  importedFrom?: { name: string; format: 'warc' | 'wacz'; software?: string; responses: number };
}

/** A response as the origin answered it: when, its status and headers (`Manifest.capture`). */
export interface CaptureRecord {
  url: string;
  /** When it was fetched (ISO 8601); for a file revalidated by a 304, the original fetch. */
  at: string;
  status: number;
  /**
   * Its headers, names lower-case, repeats joined with ', '. A body decoded from its content
   * encoding has lost `content-encoding` and `content-length` (the payload is the decoded body).
   */
  headers: [string, string][];
  /** When the origin last answered 304 Not Modified for it (a re-mirror). */
  revalidatedAt?: string;
}

export interface MirrorStats {
  pages: number;
  assets: number;
  bytes: number;
  requests: number;
  notModified: number;
  rendered: number;
  durationMs: number;
  /** The most requests the run had in flight at once (lanes grow while the origin keeps up). */
  peakRequests?: number;
}

/** How many URLs failed in all (older manifests kept every failure in `failures`). */
export function failedCount(manifest: Pick<Manifest, 'failures' | 'failureCounts'>): number {
  if (!manifest.failureCounts) return manifest.failures.length;
  let total = 0;
  for (const n of Object.values(manifest.failureCounts)) total += n ?? 0;
  return total;
}

export type RenderMode = 'auto' | 'always' | 'never';

export interface MirrorOptions {
  url: string;
  store: BlobStore;
  /**
   * Where the run's requests go instead of the network: an archive's responses
   * (`createArchiveClient`, docs/archives.md). The address policy and robots.txt are then not
   * applied (nothing leaves the machine); every other rule of a live run is.
   */
  client?: HttpClient;
  /** Pages to crawl besides the start address's links (an archive's list of pages). */
  seeds?: readonly string[];
  /**
   * Mark the forms a host that takes submissions would take (`markForms`: a honeypot field, and a
   * script that sends the form's key and the time to submit): the service's copies. Off for a
   * static export, whose server answers no POST.
   */
  markForms?: boolean;
  /**
   * Keep each response's status line and headers (`Manifest.capture`), which WARC and WACZ
   * exports and the next run's revalidation read; default true. The CLI leaves it out of a run
   * that writes a folder only.
   */
  captureLog?: boolean;
  /**
   * Told, as the copy is rewritten, the copy paths each page, style sheet and web manifest
   * references: `exportStatic`'s `references`, so that the CLI's export parses again only the
   * documents that reference a file it renames.
   */
  onDocumentReferences?: (path: string, copyPaths: ReadonlySet<string>) => void;
  includeSubdomains?: boolean;
  /** Regular expressions (as strings or RegExp) on the full URL. */
  include?: (string | RegExp)[];
  exclude?: (string | RegExp)[];
  maxDepth?: number;
  maxPages?: number;
  maxBytes?: number;
  maxTimeMs?: number;
  maxFileBytes?: number;
  /** Files (pages, assets and redirects) in the copy; more are reported as over the limit. */
  maxFiles?: number;
  respectRobots?: boolean;
  /** Headless rendering of pages built by JavaScript; default 'auto'. */
  render?: RenderMode;
  /** Memory the run and its Chromium may use, in MB (default 1536): bounds renders at once. */
  renderMemoryMb?: number;
  /** Pages and assets fetched at once per host. */
  concurrency?: { pages?: number; assets?: number };
  requestTimeoutMs?: number;
  retries?: number;
  userAgent?: string;
  /** Opens loopback and private ranges: for tests and self-hosters only, never the default. */
  allowPrivateNetworks?: boolean;
  /** TEST-ONLY: exact addresses exempt from the address policy (see `AddressPolicyOptions`). */
  allowAddresses?: readonly string[];
  /** A previous manifest of the same site: unchanged files are revalidated, not re-downloaded. */
  previous?: Manifest;
  /** DNS resolution, handed in (tests map names to addresses). Defaults to the system resolver. */
  resolve?: (hostname: string) => Promise<string[]>;
  chromiumPath?: string;
  onProgress?: (event: ProgressEvent) => void;
  signal?: AbortSignal;
}

export type Phase = 'discovering' | 'fetching' | 'rendering' | 'rewriting' | 'finalizing' | 'done';

export interface ProgressEvent {
  phase: Phase;
  queued: number;
  inFlight: number;
  done: number;
  failed: number;
  bytes: number;
  currentUrl?: string;
  /** The page most recently started (what a person is told is being copied). */
  currentPage?: string;
  /** Pages and other files: done (copied or given up on) out of those found so far. */
  pages: { done: number; found: number };
  files: { done: number; found: number };
  /** 0..1 */
  progress: number;
  /**
   * Seconds left, from measured rates (`crawl/eta.ts`): null while there is no trustworthy
   * estimate yet, 0 when almost done (never "1 s" for seconds on end).
   */
  estimatedTime: number | null;
}
