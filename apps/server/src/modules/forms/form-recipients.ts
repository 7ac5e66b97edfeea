/**
 * "Send the contact form to sales@…" (issue 34, item 6; docs/forms.md, "A form's own recipient").
 * The instruction is an edit like any other (`setFormRecipient` in the draft's plan): nothing
 * changes until the draft is published. Then the forms it names get that recipient, and the
 * address gets one mail asking whether it wants them; mails go there only once it confirms, as
 * Formspree and Netlify do, so an instruction cannot make the host mail a stranger. Until then,
 * and after it declines (from that mail or from the end of any mail it gets), they go to the
 * owner. The confirmation mail says only the site's address: no text of a page goes to a stranger.
 */
import { createHash, createHmac } from 'node:crypto';
import {
  EditPlan,
  FORM_MESSAGES,
  matchLocale,
  type FormRecipient,
  type LocaleCode,
  type SetFormRecipientOp,
} from '@mirror/contract';
import type { SiteForm } from '@mirror/engine';
import { escapeUTF8 } from 'entities';
import type { FastifyBaseLogger } from 'fastify';
import { conflict, notFound, tooManyRequests } from '../../errors.js';
import type { Db } from '../../platform/db/database.js';
import { findOrCreateSecret } from '../../platform/db/server-secrets.js';
import type { FormRecipientsTable } from '../../platform/db/schema.js';
import type { Mailer, MailMessage } from '../../platform/mail/mailer.js';
import { FORM_TEXTS, type FormTexts } from './form-texts.js';

export const RECIPIENT_LIMITS = {
  /** Confirmation mails one address gets for one site, in all. */
  mailsPerAddress: 3,
  /** Between two of them. */
  resendAfterMs: 10 * 60_000,
  /** Confirmation mails one owner's sites send in a day, to all addresses. */
  mailsPerOwnerDay: 20,
} as const;

export type RecipientRow = FormRecipientsTable;
type Answer = 'confirm' | 'decline';

/** The `setFormRecipient` edits of a version's plan, in order (a later one wins). */
export function recipientEditsOf(planJson: string | null | undefined): SetFormRecipientOp[] {
  if (!planJson) return [];
  try {
    const plan = EditPlan.safeParse(JSON.parse(planJson));
    if (!plan.success) return [];
    return plan.data.ops.filter((op): op is SetFormRecipientOp => op.op === 'setFormRecipient');
  } catch {
    return [];
  }
}

const STOP_WORDS = /^(?:the|a|an|our|my|form|forms|of|to|for)$/;

/**
 * The forms of a version an edit names, among those the copy takes: a kind (`contact` by default,
 * `newsletter`), `all`, or a form named by its id or words (`get-quote` names the form
 * `quote-form` or one labelled "Get a quote").
 */
export function formsNamed(forms: readonly SiteForm[], target: string | undefined): SiteForm[] {
  const taken = forms.filter((f) => f.captured && f.kind !== 'search');
  const which = (target ?? 'contact').toLowerCase();
  if (which === 'all') return taken;
  if (which === 'contact' || which === 'newsletter') {
    const ofKind = taken.filter((f) => f.kind === which);
    // A page whose only form is not classed a contact form still means it by "contact form".
    if (ofKind.length > 0 || which === 'newsletter') return ofKind;
    return taken.length === 1 ? taken : [];
  }
  const exact = taken.filter((f) => f.id.toLowerCase() === which);
  if (exact.length > 0) return exact;
  const words = which.split(/[-_]+/).filter((w) => w && !STOP_WORDS.test(w));
  if (words.length === 0) return [];
  return taken.filter((f) => {
    const named = `${f.id} ${f.label} ${f.submitLabel ?? ''}`.toLowerCase();
    return words.every((w) => named.includes(w));
  });
}

export interface FormRecipientsDeps {
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** Links in mails point at the app's API. */
  appUrl: string;
  now?: () => Date;
}

export type FormRecipients = ReturnType<typeof createFormRecipients>;

export function createFormRecipients(deps: FormRecipientsDeps) {
  const { db, mailer, log } = deps;
  const now = deps.now ?? (() => new Date());
  let key: Promise<string> | undefined;

  /** One token per site and address, made again from a server key (only its hash is kept). */
  async function tokenOf(siteId: string, email: string): Promise<string> {
    key ??= findOrCreateSecret(db, 'form-recipient-key');
    return createHmac('sha256', await key)
      .update(`${siteId}\n${email}`)
      .digest('base64url');
  }
  const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

  async function linkOf(siteId: string, email: string): Promise<string> {
    const token = await tokenOf(siteId, email);
    return `${deps.appUrl.replace(/\/$/, '')}/api/forms/recipients/confirm?token=${token}`;
  }

  async function siteOf(siteId: string) {
    return db
      .selectFrom('sites as s')
      .innerJoin('users as u', 'u.id', 's.owner_id')
      .select(['s.id', 's.owner_id', 's.subdomain', 's.source_url', 'u.email', 'u.locale'])
      .where('s.id', '=', siteId)
      .executeTakeFirst();
  }

  function textsOf(locale: string | null | undefined): { texts: FormTexts; locale: LocaleCode } {
    const code = matchLocale([locale ?? 'en']) ?? 'en';
    return { texts: FORM_TEXTS[code], locale: code };
  }

  /** Confirmation mails the owner's sites sent since a day ago. */
  async function ownerMailsToday(ownerId: string): Promise<number> {
    const since = new Date(now().getTime() - 24 * 3_600_000).toISOString();
    const row = await db
      .selectFrom('form_recipients as r')
      .innerJoin('sites as s', 's.id', 'r.site_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('s.owner_id', '=', ownerId)
      .where('r.last_mailed_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Sends the confirmation mail when it may: a pending address, fewer than its mails, spaced,
   * and the owner's day not used up. Says why not otherwise.
   */
  async function mailConfirmation(
    siteId: string,
    email: string,
  ): Promise<'sent' | 'answered' | 'recent' | 'used-up' | 'gone'> {
    const site = await siteOf(siteId);
    const row = await db
      .selectFrom('form_recipients')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('email', '=', email)
      .executeTakeFirst();
    if (!site?.owner_id || !row) return 'gone';
    if (row.status !== 'pending') return 'answered';
    if (row.mails_sent >= RECIPIENT_LIMITS.mailsPerAddress) return 'used-up';
    const at = now();
    if (
      row.last_mailed_at &&
      at.getTime() - Date.parse(row.last_mailed_at) < RECIPIENT_LIMITS.resendAfterMs
    )
      return 'recent';
    if ((await ownerMailsToday(site.owner_id)) >= RECIPIENT_LIMITS.mailsPerOwnerDay)
      return 'recent';
    // Counted before it goes: two processes never both send the same try.
    const claimed = await db
      .updateTable('form_recipients')
      .set({ mails_sent: row.mails_sent + 1, last_mailed_at: at.toISOString() })
      .where('site_id', '=', siteId)
      .where('email', '=', email)
      .where('mails_sent', '=', row.mails_sent)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return 'recent';
    const { texts } = textsOf(site.locale);
    const siteName = siteNameOf(site);
    const link = await linkOf(siteId, email);
    await mailer.send(confirmationMail(texts, email, siteName, link));
    return 'sent';
  }

  return {
    tokenOf,
    linkOf,

    /**
     * What publishing a draft does to the site's forms: the recipients its plan names, set on
     * the forms of the version it publishes (`forms`). `write` runs in the publish's transaction;
     * `after` mails the new addresses once it committed. Null when the plan names none.
     */
    async publishEffects(
      site: { id: string; ownerEmail: string },
      planJson: string | null | undefined,
      forms: readonly SiteForm[],
    ): Promise<{ write(trx: Db): Promise<void>; after(): Promise<void> } | null> {
      const edits = recipientEditsOf(planJson);
      if (edits.length === 0) return null;
      const byForm = new Map<string, string>();
      for (const edit of edits)
        for (const form of formsNamed(forms, edit.form))
          byForm.set(form.key, edit.email.trim().toLowerCase());
      if (byForm.size === 0) return null;
      const addresses = [...new Set(byForm.values())];
      const owner = site.ownerEmail.trim().toLowerCase();
      // Read before the publish's transaction, which holds SQLite's one connection.
      const tokenHashes = new Map<string, string>();
      for (const email of addresses) tokenHashes.set(email, hashOf(await tokenOf(site.id, email)));
      return {
        async write(trx) {
          const at = now().toISOString();
          for (const [formKey, email] of byForm) {
            await trx
              .insertInto('form_settings')
              .values({
                site_id: site.id,
                form_key: formKey,
                enabled: 1,
                redirect_url: null,
                notify: 'each',
                webhook_url: null,
                webhook_secret: null,
                recipient_email: email,
              })
              .onConflict((oc) =>
                oc.columns(['site_id', 'form_key']).doUpdateSet({ recipient_email: email }),
              )
              .execute();
          }
          for (const email of addresses) {
            // The owner's own address needs no asking; an address that answered keeps its answer.
            await trx
              .insertInto('form_recipients')
              .values({
                site_id: site.id,
                email,
                status: email === owner ? 'confirmed' : 'pending',
                token_hash: tokenHashes.get(email)!,
                requested_at: at,
                answered_at: email === owner ? at : null,
                mails_sent: 0,
                last_mailed_at: null,
              })
              .onConflict((oc) => oc.columns(['site_id', 'email']).doNothing())
              .execute();
          }
        },
        async after() {
          for (const email of addresses) {
            try {
              await mailConfirmation(site.id, email);
            } catch (err) {
              log.warn({ err, siteId: site.id }, 'form recipient confirmation not sent');
            }
          }
        },
      };
    },

    /** The recipients of a site's forms, by address. */
    async statusesOf(siteId: string): Promise<Map<string, FormRecipient['status']>> {
      const rows = await db
        .selectFrom('form_recipients')
        .select(['email', 'status'])
        .where('site_id', '=', siteId)
        .execute();
      return new Map(rows.map((r) => [r.email, r.status]));
    },

    /** Where a form's mails go: its recipient once confirmed, else nowhere of its own (null). */
    async confirmedRecipient(siteId: string, email: string | null): Promise<string | null> {
      if (!email) return null;
      const row = await db
        .selectFrom('form_recipients')
        .select('status')
        .where('site_id', '=', siteId)
        .where('email', '=', email)
        .executeTakeFirst();
      return row?.status === 'confirmed' ? email : null;
    },

    /** The owner asks again for a pending address's answer (its mails are few and spaced). */
    async resend(siteId: string, email: string | null): Promise<void> {
      if (!email) throw notFound(FORM_MESSAGES.recipientNotFound);
      const outcome = await mailConfirmation(siteId, email);
      if (outcome === 'gone') throw notFound(FORM_MESSAGES.recipientNotFound);
      if (outcome === 'recent')
        throw tooManyRequests(
          Math.ceil(RECIPIENT_LIMITS.resendAfterMs / 1000),
          FORM_MESSAGES.recipientMailedRecently,
        );
      if (outcome === 'used-up') throw conflict(FORM_MESSAGES.recipientTooManyMails);
    },

    /** The page a confirmation link opens: the question, with two buttons (a POST each). */
    async page(token: string): Promise<{ status: number; html: string }> {
      const found = await byToken(token);
      if (!found) return invalidPage();
      const { texts, locale } = textsOf(found.site.locale);
      const state =
        found.row.status === 'confirmed'
          ? `<p><strong>${escapeUTF8(texts.recipientConfirmed)}</strong></p>`
          : found.row.status === 'declined'
            ? `<p><strong>${escapeUTF8(texts.recipientDeclined)}</strong></p>`
            : `<p>${escapeUTF8(texts.recipientAsk)}</p>`;
      const button = (answer: Answer, label: string) =>
        `<form method="post" action="/api/forms/recipients/confirm"><input type="hidden" name="token" value="${escapeUTF8(token)}"><input type="hidden" name="answer" value="${answer}"><button type="submit">${escapeUTF8(label)}</button></form>`;
      const buttons = [
        found.row.status !== 'confirmed' ? button('confirm', texts.recipientConfirm) : '',
        found.row.status !== 'declined' ? button('decline', texts.recipientDecline) : '',
      ].join('');
      return {
        status: 200,
        html: recipientPage(
          locale,
          texts.recipientTitle,
          `<p>${escapeUTF8(texts.recipientIntro(siteNameOf(found.site)))}</p><p dir="ltr"><code>${escapeUTF8(found.row.email)}</code></p>${state}<div class="answers">${buttons}</div>`,
        ),
      };
    },

    /** The address's answer: its mails start (confirmed) or stop (declined) from now on. */
    async answer(token: string, answer: Answer): Promise<{ status: number; html: string }> {
      const found = await byToken(token);
      if (!found) return invalidPage();
      const status = answer === 'confirm' ? 'confirmed' : 'declined';
      await db
        .updateTable('form_recipients')
        .set({ status, answered_at: now().toISOString() })
        .where('site_id', '=', found.row.site_id)
        .where('email', '=', found.row.email)
        .execute();
      log.info({ siteId: found.row.site_id, status }, 'form recipient answered');
      const { texts, locale } = textsOf(found.site.locale);
      return {
        status: 200,
        html: recipientPage(
          locale,
          texts.recipientTitle,
          `<p>${escapeUTF8(status === 'confirmed' ? texts.recipientConfirmed : texts.recipientDeclined)}</p>`,
        ),
      };
    },
  };

  async function byToken(token: string) {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
    const row = await db
      .selectFrom('form_recipients')
      .selectAll()
      .where('token_hash', '=', hashOf(token))
      .executeTakeFirst();
    const site = row ? await siteOf(row.site_id) : undefined;
    return row && site ? { row, site } : undefined;
  }
}

function siteNameOf(site: { subdomain: string | null; source_url: string }): string {
  return site.subdomain ?? new URL(site.source_url).host;
}

function invalidPage(): { status: number; html: string } {
  const texts = FORM_TEXTS.en;
  return {
    status: 404,
    html: recipientPage('en', texts.recipientTitle, `<p>${escapeUTF8(texts.recipientInvalid)}</p>`),
  };
}

/** The one mail an address gets before any submission: the site, and the link to answer. */
export function confirmationMail(
  texts: FormTexts,
  to: string,
  siteName: string,
  link: string,
): MailMessage {
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.6;color:#1d2233">
<p>${escapeUTF8(texts.recipientIntro(siteName))}</p><p>${escapeUTF8(texts.recipientAsk)}</p>
<p><a href="${escapeUTF8(link)}">${escapeUTF8(texts.recipientConfirm)} / ${escapeUTF8(texts.recipientDecline)}</a></p></body></html>`;
  return {
    to,
    subject: texts.recipientSubject(siteName),
    text: [texts.recipientIntro(siteName), '', texts.recipientAsk, '', link].join('\n'),
    html,
  };
}

/** A page of the app's own (the API answers it: the link works without the web app). */
function recipientPage(locale: LocaleCode, title: string, inner: string): string {
  return `<!doctype html><html lang="${locale}" dir="${locale === 'ar' ? 'rtl' : 'ltr'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeUTF8(title)}</title>
<style>body{font:16px/1.6 system-ui,sans-serif;color:#1d2233;background:#f7f8fb;margin:0;display:grid;place-items:center;min-height:100vh}main{background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002;padding:1.5rem;margin:1rem;max-width:36rem;width:calc(100% - 5rem);overflow-wrap:anywhere}h1{font-size:1.4rem;margin:0 0 .5rem}.answers{display:flex;flex-wrap:wrap;gap:.5rem}button{font:inherit;padding:.5rem 1rem;cursor:pointer}</style></head>
<body><main><h1>${escapeUTF8(title)}</h1>${inner}</main></body></html>`;
}
