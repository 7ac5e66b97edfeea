import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ASKING_PRICE_MAX_USD,
  DEFAULT_LOCALE,
  isLocaleCode,
  type LocaleCode,
  type ParkingTemplate,
} from '@mirror/contract';
import { z } from 'zod';
import type { Config } from '../../config/env.js';
import type { SiteLogger } from '../../hosting/site-server.js';
import { addressGroupOf, clientAddressOf } from '../../lib/client-address.js';
import { escapeUTF8 } from 'entities';
import type { Db } from '../../platform/db/database.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import type { VisitRecorder } from '../analytics/visit-recorder.js';
import { findPublicPage, insertMessage } from './parking.repository.js';
import {
  HONEYPOT_FIELD,
  renderParkingPage,
  type FormState,
  type ParkingForm,
} from './parking-templates.js';
import { PARKING_TEXTS, type ParkingTexts } from './parking-texts.js';

/**
 * The public side of parked domains, answered by the sites host for an active parked domain's
 * host: its page (a built-in template, or the owner's HTML under a strict CSP), and the contact
 * and offer forms, which store what visitors send and mail it to the owner.
 */

const PAGE_TTL_MS = 5_000;
const MAX_FORM_BYTES = 16 * 1024;
/** Sends per visitor address, per form kind, across every parked domain. */
export const PARKING_FORM_RATE_LIMIT = { limit: 5, windowMs: 60 * 60_000 };

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
};
/** Built-in templates: our inline CSS, forms posting to the page itself, nothing else. */
const TEMPLATE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
/**
 * The owner's HTML: no script, no form, no plugin, no framing; images, styles and fonts over
 * https only. `sandbox` gives the document an opaque origin, so nothing in it can read cookies or
 * storage of the host even if a rule above were loosened.
 */
export const CUSTOM_HTML_CSP =
  "default-src 'none'; img-src https: data:; style-src 'unsafe-inline' https:; font-src https: data:; media-src https:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'; sandbox allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation";

/**
 * The owner's preview on the app (GET /api/domains/parked/{id}/preview): the page as its domain will
 * show it, framed by the app only, in a sandbox (opaque origin, no script, no form), never indexed
 * or kept. The owner's HTML keeps its own limits.
 */
const PREVIEW_TEMPLATE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; frame-ancestors 'self'; base-uri 'none'; sandbox";
const PREVIEW_CUSTOM_CSP =
  "default-src 'none'; img-src https: data:; style-src 'unsafe-inline' https:; font-src https: data:; media-src https:; form-action 'none'; frame-ancestors 'self'; base-uri 'none'; sandbox";

export interface ParkingPreview {
  html: string;
  headers: Record<string, string>;
}

/** What a parking page shows: its domain, template, custom HTML, language and sale notice. */
interface ParkingPageContent {
  domain: string;
  template: ParkingTemplate;
  content: string | null;
  locale: LocaleCode;
  message: string | null;
  forSale: boolean;
  askingPrice: number | null;
}

/** A parked domain's page with any template, for its owner to look at before choosing. */
export function renderParkingPreview(page: ParkingPageContent): ParkingPreview {
  const custom = page.template === 'custom' && page.content !== null;
  const html = custom
    ? page.content!
    : renderParkingPage({
        domain: page.domain,
        template: page.template === 'custom' ? 'default' : page.template,
        locale: page.locale,
        message: page.message,
        forSale: page.forSale,
        askingPrice: page.askingPrice,
        sent: null,
      });
  return {
    html,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': custom ? PREVIEW_CUSTOM_CSP : PREVIEW_TEMPLATE_CSP,
      'x-frame-options': 'SAMEORIGIN',
      'x-robots-tag': 'noindex, nofollow',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    },
  };
}

interface PublicPage extends ParkingPageContent {
  domainId: string;
  ownerEmail: string;
  ownerLocale: LocaleCode;
}

export interface ParkingPagesDeps {
  db: Db;
  limiter: RateLimiter;
  mailer: Mailer;
  config: Pick<Config, 'trustProxy'>;
  /** Counts the page's audience (bots left out). */
  visits?: Pick<VisitRecorder, 'recordParked'>;
}

function contactSchema(t: ParkingTexts) {
  return z.object({
    name: z.string().trim().min(1, t.nameRequired).max(100, t.nameRequired),
    email: z.string().trim().max(254, t.emailInvalid).pipe(z.email(t.emailInvalid)),
    message: z.string().trim().min(1, t.messageRequired).max(5000, t.messageRequired),
  });
}

function offerSchema(t: ParkingTexts) {
  return z.object({
    name: z.string().trim().min(1, t.nameRequired).max(100, t.nameRequired),
    email: z.string().trim().max(254, t.emailInvalid).pipe(z.email(t.emailInvalid)),
    amount: z
      .string()
      .trim()
      .regex(/^\d{1,9}$/, t.amountInvalid)
      .transform(Number)
      .pipe(z.number().int().min(1, t.amountInvalid).max(ASKING_PRICE_MAX_USD, t.amountInvalid)),
    message: z.string().trim().max(2000, t.messageRequired).default(''),
  });
}

function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string,
): void {
  const buffer = Buffer.from(body);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'cache-control': 'no-cache',
    'content-length': String(buffer.length),
    ...headers,
  });
  if (req.method === 'HEAD') res.end();
  else res.end(buffer);
}

/** The form body, or null when it is not a form or too large. */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return null;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function formatUsd(amount: number): string {
  return `$${amount.toLocaleString('en-US')}`;
}

export function createParkingPages(deps: ParkingPagesDeps) {
  const { db } = deps;
  const pages = new Map<string, { page: PublicPage | null; expires: number }>();

  async function pageOf(domainId: string): Promise<PublicPage | null> {
    const cached = pages.get(domainId);
    if (cached && cached.expires > Date.now()) return cached.page;
    const row = await findPublicPage(db, domainId);
    const ownerLocale = isLocaleCode(row?.owner_locale) ? row.owner_locale : DEFAULT_LOCALE;
    const page: PublicPage | null =
      row && row.status === 'active'
        ? {
            domainId: row.domain_id,
            domain: row.domain,
            template: row.template,
            content: row.content,
            locale: isLocaleCode(row.language) ? row.language : ownerLocale,
            message: row.message,
            forSale: row.for_sale === 1,
            askingPrice: row.asking_price,
            ownerEmail: row.owner_email,
            ownerLocale,
          }
        : null;
    if (pages.size > 10_000) pages.clear();
    pages.set(domainId, { page, expires: Date.now() + PAGE_TTL_MS });
    return page;
  }

  function servePage(
    req: IncomingMessage,
    res: ServerResponse,
    page: PublicPage,
    status = 200,
    extra: { sent?: ParkingForm | null; form?: FormState } = {},
  ): void {
    if (page.template === 'custom' && page.content) {
      send(
        req,
        res,
        status,
        {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': CUSTOM_HTML_CSP,
        },
        page.content,
      );
      return;
    }
    const html = renderParkingPage({
      domain: page.domain,
      template: page.template === 'custom' ? 'default' : page.template,
      locale: page.locale,
      message: page.message,
      forSale: page.forSale,
      askingPrice: page.askingPrice,
      sent: extra.sent ?? null,
      form: extra.form,
    });
    send(
      req,
      res,
      status,
      {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': TEMPLATE_CSP,
      },
      html,
    );
  }

  function mailOwner(page: PublicPage, kind: ParkingForm, data: Record<string, string | number>) {
    const t = PARKING_TEXTS[page.ownerLocale];
    const amount = typeof data.amount === 'number' ? formatUsd(data.amount) : null;
    const subject =
      kind === 'offer'
        ? t.mailOfferSubject(page.domain, amount!)
        : t.mailContactSubject(page.domain);
    const lines = [
      `${t.mailFrom}: ${String(data.name)} <${String(data.email)}>`,
      ...(amount ? [`${t.mailOffer}: ${amount}`] : []),
      '',
      String(data.message ?? ''),
      '',
      t.mailFooter,
    ];
    const dir = page.ownerLocale === 'ar' ? 'rtl' : 'ltr';
    const html = `<!doctype html><html lang="${page.ownerLocale}" dir="${dir}"><body style="font-family:system-ui,sans-serif;line-height:1.6;color:#1d2233">
<p><strong>${escapeUTF8(t.mailFrom)}:</strong> ${escapeUTF8(String(data.name))} &lt;${escapeUTF8(String(data.email))}&gt;${
      amount ? `<br><strong>${escapeUTF8(t.mailOffer)}:</strong> ${escapeUTF8(amount)}` : ''
    }</p>
<p style="white-space:pre-wrap">${escapeUTF8(String(data.message ?? ''))}</p>
<p style="font-size:14px;color:#555">${escapeUTF8(t.mailFooter)}</p></body></html>`;
    return deps.mailer.send({ to: page.ownerEmail, subject, text: lines.join('\n'), html });
  }

  async function handleForm(
    req: IncomingMessage,
    res: ServerResponse,
    page: PublicPage,
    kind: ParkingForm,
    log: SiteLogger,
  ): Promise<void> {
    const available = kind === 'offer' ? page.forSale : page.template === 'contact-form';
    if (!available || page.template === 'custom') {
      send(req, res, 404, { 'content-type': 'text/plain; charset=utf-8' }, 'Not Found\n');
      return;
    }
    const form = await readForm(req);
    if (form === null) {
      send(req, res, 400, { 'content-type': 'text/plain; charset=utf-8' }, 'Bad Request\n');
      return;
    }
    const t = PARKING_TEXTS[page.locale];
    const redirectHome = () => {
      res.writeHead(303, {
        ...SECURITY_HEADERS,
        location: `/?sent=${kind}#${kind}`,
        'content-length': '0',
        'cache-control': 'no-store',
      });
      res.end();
    };
    // Bots fill the field people never see: they get the same answer and nothing is kept.
    if ((form.get(HONEYPOT_FIELD) ?? '') !== '') {
      redirectHome();
      return;
    }
    const values = Object.fromEntries(
      ['name', 'email', 'message', 'amount'].map((name) => [name, form.get(name) ?? '']),
    );
    const parsed = (kind === 'offer' ? offerSchema(t) : contactSchema(t)).safeParse(values);
    if (!parsed.success) {
      const errors: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const name = String(issue.path[0] ?? '');
        errors[name] ??= issue.message;
      }
      servePage(req, res, page, 400, { form: { kind, values, errors } });
      return;
    }
    const hit = await deps.limiter.hit(
      `parking:${kind}:${addressGroupOf(clientAddressOf(req, deps.config.trustProxy))}`,
      PARKING_FORM_RATE_LIMIT,
    );
    if (!hit.allowed) {
      res.setHeader('retry-after', String(hit.retryAfterSeconds));
      servePage(req, res, page, 429, { form: { kind, values, errors: {}, error: t.tooMany } });
      return;
    }
    const data = parsed.data as { name: string; email: string; message: string; amount?: number };
    await insertMessage(db, {
      id: randomUUID(),
      domain_id: page.domainId,
      kind,
      name: data.name,
      email: data.email.toLowerCase(),
      message: data.message,
      amount: data.amount ?? null,
      created_at: new Date().toISOString(),
    });
    // Kept first, mailed after: a mail that fails leaves the message in the owner's list.
    mailOwner(page, kind, data).catch((err: unknown) =>
      log.warn({ err, domain: page.domain }, 'parking mail not sent'),
    );
    redirectHome();
  }

  async function answer(
    req: IncomingMessage,
    res: ServerResponse,
    domainId: string,
    log: SiteLogger,
  ): Promise<void> {
    const page = await pageOf(domainId);
    const url = new URL(req.url ?? '/', 'http://parked.invalid');
    if (page === null) {
      send(req, res, 404, { 'content-type': 'text/plain; charset=utf-8' }, 'Not Found\n');
      return;
    }
    if (req.method === 'POST' && (url.pathname === '/contact' || url.pathname === '/offer')) {
      await handleForm(req, res, page, url.pathname.slice(1) as ParkingForm, log);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(
        req,
        res,
        405,
        { 'content-type': 'text/plain; charset=utf-8', allow: 'GET, HEAD' },
        'Method Not Allowed\n',
      );
      return;
    }
    if (url.pathname === '/robots.txt') {
      send(
        req,
        res,
        200,
        { 'content-type': 'text/plain; charset=utf-8' },
        'User-agent: *\nAllow: /\n',
      );
      return;
    }
    if (url.pathname === '/favicon.ico') {
      send(req, res, 404, { 'content-type': 'text/plain; charset=utf-8' }, 'Not Found\n');
      return;
    }
    const sent = url.searchParams.get('sent');
    servePage(req, res, page, 200, {
      sent: sent === 'contact' || sent === 'offer' ? sent : null,
    });
    if (req.method === 'GET') deps.visits?.recordParked(page.domainId, req);
  }

  return {
    handleNode(
      req: IncomingMessage,
      res: ServerResponse,
      domainId: string,
      log: SiteLogger,
    ): Promise<void> {
      return answer(req, res, domainId, log).catch((err: unknown) => {
        log.error({ err }, 'serving a parked domain failed');
        if (!res.headersSent) {
          send(
            req,
            res,
            503,
            { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '5' },
            'Service Unavailable\n',
          );
        } else if (!res.destroyed) {
          res.destroy();
        }
      });
    },
    /** A page's settings changed (or the domain is gone): the next request reads them again. */
    invalidate(domainId?: string): void {
      if (domainId === undefined) pages.clear();
      else pages.delete(domainId);
    },
  };
}

export type ParkingPages = ReturnType<typeof createParkingPages>;
