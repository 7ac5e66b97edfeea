/**
 * The sites host's side of forms on copies (issue 34; docs/forms.md): a POST to a hosted copy
 * that submits one of the site's forms (found in the live version's manifest, `siteFormsOf`) is
 * kept for the owner, mailed, and answered with the site's thank-you page (or a clean default in
 * the site's language). Login and payment forms, forms the owner turned off and a month over the
 * plan answer "This form is not available on this copy" and keep nothing; bots meet a honeypot,
 * a time-to-submit check, a link count and rate limits, and what they send is kept apart as spam
 * and never mailed. A POST that is none of the site's forms answers 405, as before.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  FORM_MESSAGES,
  getPlan,
  matchLocale,
  type FormNotify,
  type LocaleCode,
} from '@mirror/contract';
import {
  ELAPSED_FIELD,
  FORM_KEY_FIELD,
  HONEYPOT_FIELD,
  matchSiteForm,
  OWN_FIELD_PREFIX,
  siteFormsOf,
  thankYouPageOf,
  type BlobStore,
  type Manifest,
  type SiteForm,
} from '@mirror/engine';
import busboy from 'busboy';
import type { Config } from '../../config/env.js';
import type { SiteLogger, SiteSource } from '../../hosting/site-server.js';
import { NO_CACHE } from '../../hosting/site-index.js';
import { addressGroupOf, clientAddressOf } from '../../lib/client-address.js';
import type { Db } from '../../platform/db/database.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import { FORM_TEXTS } from './form-texts.js';
import type { FormWebhooks } from './form-webhooks.js';
import type { FormRecipients } from './form-recipients.js';
import { send, siteLocaleOf, textPage } from './host-pages.js';
import {
  addressKeyOf,
  captureContext,
  countOwnerSubmissions,
  insertSubmission,
  settingsOf,
  type FileRow,
} from './forms.repository.js';
import { submissionMail } from './form-mail.js';

/** Bounds of what one submission may send besides its files. */
export const FORM_CAPTURE_LIMITS = {
  /** A urlencoded, JSON or text body, or a multipart body's fields together. */
  fieldBytes: 64 * 1024,
  fields: 200,
  files: 10,
  /** Links in the values past which a submission is spam. */
  links: 3,
  /** A submission sooner than this after its page loaded is a bot's. */
  minElapsedMs: 1_500,
} as const;

/** Per visitor's address (hashed) and site, and per site. */
export const FORM_RATE_LIMITS = {
  address: { limit: 5, windowMs: 10 * 60_000 },
  site: { limit: 200, windowMs: 60 * 60_000 },
} as const;

/** Site forms per version, and each version's language. */
const VERSIONS_KEPT = 64;

interface VersionForms {
  manifest: Manifest;
  forms: SiteForm[];
  locale: LocaleCode;
}

export interface FormCaptureDeps {
  db: Db;
  blobs: BlobStore;
  limiter: RateLimiter;
  mailer: Mailer;
  config: Pick<Config, 'appUrl' | 'trustProxy'>;
  loadManifest(versionId: string): Promise<Manifest>;
  webhooks: FormWebhooks;
  /** A form's own recipient gets its mails once it confirmed (docs/forms.md). */
  recipients: Pick<FormRecipients, 'confirmedRecipient' | 'linkOf'>;
  now?: () => Date;
}

export type FormCapture = ReturnType<typeof createFormCapture>;

/** Field name and value, in the order sent. */
type Field = [string, string];

interface ParsedBody {
  fields: Field[];
  files: FileRow[];
  /** A file went over the plan's size: nothing is kept. */
  tooLarge: boolean;
}

class BadBody extends Error {}

/** A whole value that is 13–19 digits (spaces or dashes between). */
const CARD_VALUE = /^(?:\d[ -]?){12,18}\d$/;
/** In a text: 16 digits in fours (Visa, Mastercard…), or 15 as 4-6-5 (American Express). */
const CARD_IN_TEXT = /(?:^|\D)(\d{4}([ -]?)\d{4}\2\d{4}\2\d{4}|\d{4}([ -]?)\d{6}\3\d{5})(?!\d)/g;
const PHONE_NAME = /phone|tel|mobile|fax|whatsapp|movil|handy|celular/i;
const PASSWORD_NAME = /(?:^|[_\-[\s])(?:password|passwd|pwd|passcode)(?:$|[_\-\]\s])/i;
const LINK = /\bhttps?:\/\/|\bwww\.[a-z0-9-]+\./gi;

/**
 * A field's value carries a payment card's number (that passes the Luhn check): the whole value,
 * unless the field is a phone number's, or 16 digits in fours or 15 as 4-6-5 within a text.
 */
export function holdsCardNumber(form: SiteForm, name: string, value: string): boolean {
  const trimmed = value.trim();
  if (CARD_VALUE.test(trimmed)) {
    const phone =
      PHONE_NAME.test(name) || form.fields.some((f) => f.name === name && f.holds === 'phone');
    if (!phone && luhn(trimmed)) return true;
  }
  for (const match of trimmed.matchAll(CARD_IN_TEXT)) if (luhn(match[1]!)) return true;
  return false;
}

function luhn(number: string): boolean {
  const digits = number.replace(/\D/g, '');
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function createFormCapture(deps: FormCaptureDeps) {
  const { db, blobs, limiter, mailer, config } = deps;
  const now = deps.now ?? (() => new Date());
  const versions = new Map<string, Promise<VersionForms>>();
  let addressKey: Promise<string> | undefined;

  function formsOf(versionId: string): Promise<VersionForms> {
    let pending = versions.get(versionId);
    if (pending === undefined) {
      pending = deps.loadManifest(versionId).then(async (manifest) => ({
        manifest,
        forms: siteFormsOf(manifest),
        locale: await siteLocaleOf(blobs, manifest),
      }));
      pending.catch(() => versions.delete(versionId));
      if (versions.size >= VERSIONS_KEPT) versions.delete(versions.keys().next().value!);
      versions.set(versionId, pending);
    }
    return pending;
  }

  async function hashedAddress(req: IncomingMessage): Promise<string> {
    addressKey ??= addressKeyOf(db);
    const group = addressGroupOf(clientAddressOf(req, config.trustProxy));
    return createHmac('sha256', await addressKey)
      .update(group)
      .digest('base64url')
      .slice(0, 22);
  }

  async function readBody(req: IncomingMessage, fileBytes: number): Promise<ParsedBody> {
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type === 'multipart/form-data') return readMultipart(req, fileBytes);
    const text = (await readLimited(req, FORM_CAPTURE_LIMITS.fieldBytes)).toString('utf8');
    let fields: Field[];
    if (type === 'application/x-www-form-urlencoded' || type === '') {
      fields = [...new URLSearchParams(text)];
    } else if (type === 'application/json' || type.endsWith('+json')) {
      fields = jsonFields(text);
    } else if (type === 'text/plain') {
      fields = text
        .split(/\r?\n/)
        .filter((line) => line.includes('='))
        .map((line) => {
          const at = line.indexOf('=');
          return [line.slice(0, at), line.slice(at + 1)];
        });
    } else {
      throw new BadBody(`unsupported type ${type}`);
    }
    if (fields.length > FORM_CAPTURE_LIMITS.fields) throw new BadBody('too many fields');
    return { fields, files: [], tooLarge: false };
  }

  function readMultipart(req: IncomingMessage, fileBytes: number): Promise<ParsedBody> {
    return new Promise((resolve, reject) => {
      const fields: Field[] = [];
      const files: FileRow[] = [];
      const stores: Promise<void>[] = [];
      let fieldBytes = 0;
      let tooLarge = false;
      let fileTotal = 0;
      let parser: busboy.Busboy;
      try {
        parser = busboy({
          headers: req.headers,
          limits: {
            fields: FORM_CAPTURE_LIMITS.fields,
            fieldSize: FORM_CAPTURE_LIMITS.fieldBytes,
            files: FORM_CAPTURE_LIMITS.files,
            fileSize: fileBytes,
            parts: FORM_CAPTURE_LIMITS.fields + FORM_CAPTURE_LIMITS.files,
          },
        });
      } catch (err) {
        reject(new BadBody(String(err)));
        return;
      }
      const fail = (err: unknown) => {
        req.unpipe(parser);
        req.resume();
        reject(err instanceof BadBody ? err : new BadBody(String(err)));
      };
      parser.on('field', (name, value, info) => {
        fieldBytes += name.length + value.length;
        if (info.valueTruncated || fieldBytes > FORM_CAPTURE_LIMITS.fieldBytes) {
          fail(new BadBody('fields too large'));
          return;
        }
        fields.push([name, value]);
      });
      parser.on('file', (name, stream, info) => {
        const position = files.length;
        stream.on('limit', () => {
          tooLarge = true;
        });
        if (info.filename === undefined || info.filename === '') {
          stream.resume();
          return;
        }
        const row: FileRow = {
          submission_id: '',
          position,
          field: name,
          name: info.filename.slice(0, 200),
          content_type: (info.mimeType || 'application/octet-stream').slice(0, 200),
          hash: '',
          size: 0,
        };
        files.push(row);
        stores.push(
          blobs.put(stream).then((stored) => {
            row.hash = stored.hash;
            row.size = stored.size;
            fileTotal += stored.size;
            if (fileTotal > fileBytes) tooLarge = true;
          }),
        );
      });
      parser.on('partsLimit', () => fail(new BadBody('too many parts')));
      parser.on('fieldsLimit', () => fail(new BadBody('too many fields')));
      parser.on('filesLimit', () => fail(new BadBody('too many files')));
      parser.on('error', fail);
      parser.on('close', () => {
        Promise.all(stores).then(
          () => resolve({ fields, files: files.filter((f) => f.size > 0), tooLarge }),
          fail,
        );
      });
      req.pipe(parser);
    });
  }

  /** Answers a POST to a copy (`SiteServerDeps.receivePost`). Never rejects. */
  async function handle(
    site: SiteSource,
    req: IncomingMessage,
    res: ServerResponse,
    log: SiteLogger,
  ): Promise<void> {
    try {
      await answer(site, req, res, log);
    } catch (err) {
      if (err instanceof BadBody) {
        send(req, res, 400, 'text/plain; charset=utf-8', 'Bad Request\n');
        return;
      }
      log.error({ err, siteId: site.siteId }, 'taking a form submission failed');
      if (!res.headersSent)
        send(req, res, 503, 'text/plain; charset=utf-8', 'Service Unavailable\n');
    }
  }

  async function answer(
    site: SiteSource,
    req: IncomingMessage,
    res: ServerResponse,
    log: SiteLogger,
  ): Promise<void> {
    const [version, context] = await Promise.all([
      formsOf(site.versionId),
      captureContext(db, site.siteId),
    ]);
    if (!context?.owner_id || version.forms.length === 0) return methodNotAllowed(req, res);
    const plan = getPlan(context.plan).limits;
    const texts = FORM_TEXTS[version.locale];
    const path = req.url ?? '/';
    const fromPage = fromPageOf(req);
    const limits = async () => {
      const address = await hashedAddress(req);
      const byAddress = await limiter.hit(
        `form:${site.siteId}:${address}`,
        FORM_RATE_LIMITS.address,
      );
      return byAddress.allowed
        ? await limiter.hit(`form:${site.siteId}`, FORM_RATE_LIMITS.site)
        : byAddress;
    };
    const tooMany = (limit: { retryAfterSeconds: number }) => {
      req.resume();
      res.setHeader('retry-after', String(limit.retryAfterSeconds));
      textPage(req, res, 429, version.locale, texts.tooMany, '', fromPage);
    };
    // Files are written to the blob store as they come: a multipart body is counted against the
    // limits before it is read, not after.
    const multipart = (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/');
    const early = multipart ? await limits() : undefined;
    if (early && !early.allowed) return tooMany(early);
    // The body is read before the form is known: its fields tell forms on one address apart.
    const body = await readBody(req, plan.formFileBytes);
    const sent = Object.fromEntries(body.fields);
    const form = matchSiteForm(version.forms, {
      path,
      fields: body.fields.map(([name]) => name),
      ...(sent[FORM_KEY_FIELD] ? { key: sent[FORM_KEY_FIELD] } : {}),
      ...(fromPage !== undefined ? { fromPage } : {}),
    });
    if (form === undefined) return methodNotAllowed(req, res);
    const settings = (await settingsOf(db, site.siteId)).find((s) => s.form_key === form.key);
    const fields = body.fields.filter(([name]) => !name.startsWith(OWN_FIELD_PREFIX));
    const refused =
      !form.captured ||
      settings?.enabled === 0 ||
      fields.some(([name, value]) => value !== '' && PASSWORD_NAME.test(name)) ||
      fields.some(([name, value]) => holdsCardNumber(form, name, value));
    if (refused || body.tooLarge) {
      return notAvailable(req, res, version.locale, 403);
    }
    const limit = early ?? (await limits());
    if (!limit.allowed) return tooMany(limit);

    const spamReason = spamOf(form, body.fields);
    const at = now();
    if (spamReason === null) {
      const monthStart = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
      const used = await countOwnerSubmissions(db, context.owner_id, monthStart.toISOString());
      if (used >= plan.formSubmissions) {
        log.warn({ siteId: site.siteId }, 'form submission over the plan month');
        return notAvailable(req, res, version.locale, 403);
      }
    }
    const id = randomUUID();
    const json = JSON.stringify(fields);
    const notify: FormNotify = settings?.notify ?? 'each';
    const mailNow = spamReason === null && notify === 'each';
    await insertSubmission(
      db,
      {
        id,
        site_id: site.siteId,
        owner_id: context.owner_id,
        form_key: form.key,
        form_label: form.label,
        page: fromPage ?? form.pages[0] ?? null,
        fields: json,
        search_text: fields
          .map(([name, value]) => `${name} ${value}`)
          .join('\n')
          .toLowerCase(),
        spam: spamReason === null ? 0 : 1,
        spam_reason: spamReason,
        bytes: Buffer.byteLength(json) + body.files.reduce((n, f) => n + f.size, 0),
        created_at: at.toISOString(),
        // Spam and forms mailed to nobody are never owed; a digest finds the rest by null.
        mailed_at: spamReason !== null || notify !== 'daily' ? at.toISOString() : null,
      },
      body.files.map((f) => ({ ...f, submission_id: id })),
    );
    if (spamReason === null && settings?.webhook_url) {
      deps.webhooks
        .queue({
          submissionId: id,
          siteId: site.siteId,
          formKey: form.key,
          url: settings.webhook_url,
          body: {
            type: 'form.submission',
            site: { id: site.siteId, address: req.headers.host ?? '' },
            form: { key: form.key, id: form.id, label: form.label, kind: form.kind },
            submission: {
              id,
              page: fromPage ?? form.pages[0] ?? null,
              createdAt: at.toISOString(),
              fields: fields.map(([name, value]) => ({ name, value })),
              files: body.files.map((f) => ({
                field: f.field,
                name: f.name,
                contentType: f.content_type,
                size: f.size,
              })),
            },
          },
        })
        .catch((err: unknown) => log.warn({ err, siteId: site.siteId }, 'form webhook not queued'));
    }
    if (mailNow) {
      const ownerTexts = FORM_TEXTS[matchLocale([context.locale ?? 'en']) ?? 'en'];
      const siteName = context.subdomain ?? new URL(context.source_url).host;
      const mail = async () => {
        // Its own recipient instead of the owner, once that address confirmed it wants them.
        const own = await deps.recipients.confirmedRecipient(
          site.siteId,
          settings?.recipient_email ?? null,
        );
        await mailer.send(
          submissionMail(ownerTexts, {
            to: own ?? context.email,
            siteName,
            form,
            page: fromPage ?? form.pages[0] ?? '/',
            fields,
            files: body.files,
            ...(own
              ? { stop: ownerTexts.mailStop(await deps.recipients.linkOf(site.siteId, own)) }
              : {}),
          }),
        );
      };
      mail().catch((err: unknown) => log.warn({ err, siteId: site.siteId }, 'form mail not sent'));
    }
    // Bots are answered as people are: nothing tells them they were caught.
    return thanks(
      req,
      res,
      version.locale,
      version.manifest,
      form,
      settings?.redirect_url ?? null,
      fromPage,
    );
  }

  return {
    handle,
    /** A served version's manifest, forms and language (kept for the last versions asked). */
    version: formsOf,
    /** A version is no longer served (its forms are read again when asked). */
    invalidate(versionId?: string) {
      if (versionId === undefined) versions.clear();
      else versions.delete(versionId);
    },
  };
}

/** Why a submission is spam, or null: a honeypot filled, sent too fast, too many links. */
function spamOf(form: SiteForm, sent: readonly Field[]): string | null {
  const traps = new Set(form.fields.filter((f) => f.honeypot).map((f) => f.name));
  traps.add(HONEYPOT_FIELD);
  if (sent.some(([name, value]) => traps.has(name) && value.trim() !== '')) return 'honeypot';
  const elapsed = sent.find(([name]) => name === ELAPSED_FIELD)?.[1];
  if (elapsed !== undefined && elapsed !== '') {
    const ms = Number(elapsed);
    if (!Number.isFinite(ms) || ms < FORM_CAPTURE_LIMITS.minElapsedMs) return 'too-fast';
  }
  let links = 0;
  for (const [, value] of sent) links += value.match(LINK)?.length ?? 0;
  return links > FORM_CAPTURE_LIMITS.links ? 'links' : null;
}

/** A JSON body's top-level members as fields (other values as their JSON). */
function jsonFields(text: string): Field[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadBody('invalid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new BadBody('not a JSON object');
  return Object.entries(value as Record<string, unknown>).map(([name, v]) => [
    name,
    typeof v === 'string' ? v : v === null || v === undefined ? '' : JSON.stringify(v),
  ]);
}

async function readLimited(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    req.resume();
    throw new BadBody('too large');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BadBody('too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A script's fetch (not a navigation) is answered with JSON, as form services answer it. */
function wantsJson(req: IncomingMessage): boolean {
  const mode = req.headers['sec-fetch-mode'];
  if (typeof mode === 'string') return mode !== 'navigate';
  const accept = req.headers.accept ?? '';
  return (
    (req.headers['content-type'] ?? '').includes('json') ||
    (accept.includes('application/json') && !accept.includes('text/html'))
  );
}

/** The path of the copy's page the request came from, when its Referer is on the same host. */
function fromPageOf(req: IncomingMessage): string | undefined {
  const referer = req.headers.referer;
  if (!referer) return undefined;
  try {
    const url = new URL(referer);
    return url.host === req.headers.host ? url.pathname + url.search : undefined;
  } catch {
    return undefined;
  }
}

function methodNotAllowed(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  send(req, res, 405, 'text/plain; charset=utf-8', 'Method Not Allowed\n', {
    allow: 'GET, HEAD',
    'cache-control': NO_CACHE,
  });
}

function notAvailable(
  req: IncomingMessage,
  res: ServerResponse,
  locale: LocaleCode,
  status: number,
): void {
  const texts = FORM_TEXTS[locale];
  if (wantsJson(req)) {
    send(
      req,
      res,
      status,
      'application/json',
      JSON.stringify({ ok: false, error: FORM_MESSAGES.notAvailable }),
    );
    return;
  }
  textPage(req, res, status, locale, texts.notAvailable, texts.notAvailableBody, fromPageOf(req));
}

function thanks(
  req: IncomingMessage,
  res: ServerResponse,
  locale: LocaleCode,
  manifest: Manifest,
  form: SiteForm,
  redirectUrl: string | null,
  fromPage: string | undefined,
): void {
  if (wantsJson(req)) {
    send(req, res, 200, 'application/json', '{"ok":true}');
    return;
  }
  const texts = FORM_TEXTS[locale];
  const to = redirectUrl ?? thankYouPageOf(manifest, form);
  if (to) {
    send(req, res, 303, 'text/plain; charset=utf-8', '', { location: to });
    return;
  }
  textPage(req, res, 200, locale, texts.thanksTitle, texts.thanksBody, fromPage);
}
