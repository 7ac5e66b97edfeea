import { Readable } from 'node:stream';
import {
  FORM_MESSAGES,
  getPlan,
  matchLocale,
  type FormSettingsInput,
  type FormSubmission,
  type FormSubmissionList,
  type SiteFormList,
  type SiteFormSummary,
} from '@mirror/contract';
import { siteFormsOf, type BlobStore, type SiteForm } from '@mirror/engine';
import type { FastifyBaseLogger } from 'fastify';
import { badRequest, notFound } from '../../errors.js';
import type { Db } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/schema.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import type { SiteVersions } from '../sites/site-versions.js';
import type { SitesService } from '../sites/sites.service.js';
import { digestMail } from './form-mail.js';
import { FORM_TEXTS } from './form-texts.js';
import {
  countOwnerSubmissions,
  countsBySiteForm,
  deleteSubmission,
  filesOf,
  findSubmission,
  listSubmissions,
  markSubmissionsMailed,
  setSpam,
  settingsOf,
  unmailedSubmissions,
  upsertSettings,
  type FileRow,
  type SettingsRow,
  type SubmissionRow,
} from './forms.repository.js';
import { newWebhookSecret, type FormWebhooks } from './form-webhooks.js';
import type { FormRecipients } from './form-recipients.js';
import { isPrivateWebhook, WEBHOOK_MESSAGES } from '../../platform/webhooks/signed-post.js';

/** Submissions per page of the owner's list. */
const PAGE_SIZE = 50;
/** Rows of one CSV export (newest first). */
const EXPORT_MAX = 50_000;
/** A digest goes once its oldest submission is this old: one a day per account at most. */
const DIGEST_AFTER_MS = 24 * 3_600_000;
const DIGEST_BATCH = 2_000;

export interface FormsServiceDeps {
  db: Db;
  blobs: BlobStore;
  mailer: Mailer;
  log: FastifyBaseLogger;
  sites: Pick<SitesService, 'ownedSite'>;
  versions: Pick<SiteVersions, 'loadManifest'>;
  webhooks: FormWebhooks;
  recipients: FormRecipients;
  /** Webhooks may be on private networks (tests, a deployment that allows mirroring them). */
  allowPrivateNetworks: boolean;
  now?: () => Date;
}

export type FormsService = ReturnType<typeof createFormsService>;

/** The owner's side of forms on copies (issue 34): the Forms tab and its API. */
export function createFormsService(deps: FormsServiceDeps) {
  const { db, blobs, mailer, log } = deps;
  const now = deps.now ?? (() => new Date());

  async function liveForms(siteId: string, liveVersionId: string | null): Promise<SiteForm[]> {
    if (!liveVersionId) return [];
    const manifest = await deps.versions.loadManifest(liveVersionId);
    return manifest ? siteFormsOf(manifest) : [];
  }

  function summaryOf(
    form: SiteForm,
    settings: SettingsRow | undefined,
    counts: { kept: number; spam: number; last_at: string | null } | undefined,
    recipients: ReadonlyMap<string, 'pending' | 'confirmed' | 'declined'>,
  ): SiteFormSummary {
    const recipient = settings?.recipient_email ?? null;
    return {
      key: form.key,
      id: form.id,
      label: form.label,
      kind: form.kind,
      captured: form.captured,
      refusal: form.refusal ?? null,
      action: form.actionPath || form.action,
      method: form.method,
      fields: form.fields.map((f) => ({ name: f.name, type: f.type, required: f.required })),
      pages: form.pages,
      pageCount: form.pageCount,
      submitLabel: form.submitLabel ?? null,
      enabled: settings ? settings.enabled === 1 : true,
      redirectUrl: settings?.redirect_url ?? null,
      notify: settings?.notify ?? 'each',
      webhookUrl: settings?.webhook_url ?? null,
      webhookSecret: settings?.webhook_url ? settings.webhook_secret : null,
      recipient: recipient
        ? { email: recipient, status: recipients.get(recipient) ?? 'pending' }
        : null,
      submissions: Number(counts?.kept ?? 0),
      spam: Number(counts?.spam ?? 0),
      lastSubmissionAt: counts?.last_at ?? null,
    };
  }

  function submissionOf(row: SubmissionRow, files: FileRow[]): FormSubmission {
    const fields = JSON.parse(row.fields) as [string, string][];
    return {
      id: row.id,
      formKey: row.form_key,
      formLabel: row.form_label,
      page: row.page,
      createdAt: row.created_at,
      spam: row.spam === 1,
      spamReason: row.spam_reason,
      fields: fields.map(([name, value]) => ({ name, value })),
      files: files.map((f) => ({
        field: f.field,
        name: f.name,
        contentType: f.content_type,
        size: f.size,
      })),
    };
  }

  async function withFiles(rows: SubmissionRow[]): Promise<FormSubmission[]> {
    const files = new Map<string, FileRow[]>();
    for (const file of await filesOf(
      db,
      rows.map((r) => r.id),
    ))
      files.set(file.submission_id, [...(files.get(file.submission_id) ?? []), file]);
    return rows.map((row) => submissionOf(row, files.get(row.id) ?? []));
  }

  async function ownedSubmission(user: UserRow, siteId: string, submissionId: string) {
    await deps.sites.ownedSite(user, siteId);
    const row = await findSubmission(db, siteId, submissionId);
    if (!row) throw notFound(FORM_MESSAGES.submissionNotFound);
    return row;
  }

  return {
    /** The forms of the live copy with their settings and counts, and the month's use. */
    async list(user: UserRow, siteId: string): Promise<SiteFormList> {
      const site = await deps.sites.ownedSite(user, siteId);
      const [forms, settings, counts, recipients] = await Promise.all([
        liveForms(site.id, site.live_version_id),
        settingsOf(db, site.id),
        countsBySiteForm(db, site.id),
        deps.recipients.statusesOf(site.id),
      ]);
      const at = now();
      const monthStart = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
      const used = await countOwnerSubmissions(db, user.id, monthStart.toISOString());
      return {
        forms: forms.map((form) =>
          summaryOf(
            form,
            settings.find((s) => s.form_key === form.key),
            counts.find((c) => c.form_key === form.key),
            recipients,
          ),
        ),
        usage: {
          month: monthStart.toISOString().slice(0, 7),
          used,
          limit: getPlan(user.plan).limits.formSubmissions,
        },
      };
    },

    async updateSettings(
      user: UserRow,
      siteId: string,
      formKey: string,
      input: FormSettingsInput,
    ): Promise<SiteFormSummary> {
      const site = await deps.sites.ownedSite(user, siteId);
      const form = (await liveForms(site.id, site.live_version_id)).find((f) => f.key === formKey);
      if (!form) throw notFound(FORM_MESSAGES.notFound);
      const current = (await settingsOf(db, site.id)).find((s) => s.form_key === formKey);
      const webhookUrl =
        input.webhookUrl === undefined ? (current?.webhook_url ?? null) : input.webhookUrl;
      if (webhookUrl && (await isPrivateWebhook(webhookUrl, deps.allowPrivateNetworks)))
        throw badRequest(WEBHOOK_MESSAGES.private);
      const row: SettingsRow = {
        site_id: site.id,
        form_key: formKey,
        enabled: input.enabled ? 1 : 0,
        redirect_url: input.redirectUrl,
        notify: input.notify,
        webhook_url: webhookUrl,
        webhook_secret: current?.webhook_secret ?? (webhookUrl ? newWebhookSecret() : null),
        // Set only by a published edit; the owner may send the mails back to their own address.
        recipient_email: input.recipient === null ? null : (current?.recipient_email ?? null),
      };
      await upsertSettings(db, row);
      const counts = (await countsBySiteForm(db, site.id)).find((c) => c.form_key === formKey);
      return summaryOf(form, row, counts, await deps.recipients.statusesOf(site.id));
    },

    /** Mails a form's pending recipient its confirmation again (few, spaced: `RECIPIENT_LIMITS`). */
    async resendRecipientConfirmation(
      user: UserRow,
      siteId: string,
      formKey: string,
    ): Promise<SiteFormSummary> {
      const site = await deps.sites.ownedSite(user, siteId);
      const form = (await liveForms(site.id, site.live_version_id)).find((f) => f.key === formKey);
      if (!form) throw notFound(FORM_MESSAGES.notFound);
      const current = (await settingsOf(db, site.id)).find((s) => s.form_key === formKey);
      await deps.recipients.resend(site.id, current?.recipient_email ?? null);
      const counts = (await countsBySiteForm(db, site.id)).find((c) => c.form_key === formKey);
      return summaryOf(form, current, counts, await deps.recipients.statusesOf(site.id));
    },

    /**
     * What publishing a draft does to the forms (`setFormRecipient` edits of its plan), read
     * from the version it publishes; null when nothing.
     */
    async publishEffects(
      site: { id: string; owner_id: string | null },
      version: { id: string; plan: string | null },
    ) {
      if (!site.owner_id || !version.plan?.includes('setFormRecipient')) return null;
      const owner = await db
        .selectFrom('users')
        .select('email')
        .where('id', '=', site.owner_id)
        .executeTakeFirst();
      const manifest = await deps.versions.loadManifest(version.id);
      if (!owner || !manifest) return null;
      return deps.recipients.publishEffects(
        { id: site.id, ownerEmail: owner.email },
        version.plan,
        siteFormsOf(manifest),
      );
    },

    async listSubmissions(
      user: UserRow,
      siteId: string,
      query: { form?: string; q?: string; spam?: 'true' | 'false'; before?: string },
    ): Promise<FormSubmissionList> {
      const site = await deps.sites.ownedSite(user, siteId);
      const rows = await listSubmissions(
        db,
        site.id,
        {
          ...(query.form ? { formKey: query.form } : {}),
          spam: query.spam === 'true',
          ...(query.q ? { search: query.q } : {}),
          ...(query.before ? { before: query.before } : {}),
        },
        PAGE_SIZE + 1,
      );
      const page = rows.slice(0, PAGE_SIZE);
      return {
        submissions: await withFiles(page),
        nextBefore: rows.length > PAGE_SIZE ? page[page.length - 1]!.created_at : null,
      };
    },

    async setSpam(user: UserRow, siteId: string, submissionId: string, spam: boolean) {
      const row = await ownedSubmission(user, siteId, submissionId);
      await setSpam(db, siteId, row.id, spam);
      const [updated] = await withFiles([(await findSubmission(db, siteId, row.id))!]);
      return updated!;
    },

    async deleteSubmission(user: UserRow, siteId: string, submissionId: string): Promise<void> {
      const row = await ownedSubmission(user, siteId, submissionId);
      await deleteSubmission(db, siteId, row.id);
    },

    /**
     * Every submission (of one form, or all) as CSV, newest first: the date, the form, the page,
     * then one column per field name in the order the names first appear, then the files.
     */
    async exportCsv(
      user: UserRow,
      siteId: string,
      query: { form?: string; spam?: 'true' | 'false' },
    ): Promise<string> {
      const site = await deps.sites.ownedSite(user, siteId);
      const rows = await listSubmissions(
        db,
        site.id,
        { ...(query.form ? { formKey: query.form } : {}), spam: query.spam === 'true' },
        EXPORT_MAX,
      );
      const submissions = await withFiles(rows);
      const columns: string[] = [];
      const seen = new Set<string>();
      for (const s of submissions)
        for (const f of s.fields)
          if (!seen.has(f.name)) {
            seen.add(f.name);
            columns.push(f.name);
          }
      const lines = [['submitted_at', 'form', 'page', ...columns, 'files'].map(csvCell).join(',')];
      for (const s of submissions) {
        const values = new Map<string, string[]>();
        for (const f of s.fields) values.set(f.name, [...(values.get(f.name) ?? []), f.value]);
        lines.push(
          [
            s.createdAt,
            s.formLabel,
            s.page ?? '',
            ...columns.map((c) => (values.get(c) ?? []).join('\n')),
            s.files.map((f) => `${f.field}: ${f.name} (${f.size} B)`).join('\n'),
          ]
            .map(csvCell)
            .join(','),
        );
      }
      return `\uFEFF${lines.join('\r\n')}\r\n`;
    },

    /** A file sent with a submission, to download. */
    async file(user: UserRow, siteId: string, submissionId: string, index: number) {
      const row = await ownedSubmission(user, siteId, submissionId);
      const file = (await filesOf(db, [row.id]))[index];
      if (!file) throw notFound(FORM_MESSAGES.submissionNotFound);
      return {
        name: file.name,
        contentType: file.content_type,
        size: file.size,
        body: Readable.from(blobs.read(file.hash)),
      };
    },

    /** The page a recipient's confirmation link opens, and its answer (public: the token decides). */
    recipientPage(token: string) {
      return deps.recipients.page(token);
    },
    answerRecipient(token: string, answer: 'confirm' | 'decline') {
      return deps.recipients.answer(token, answer);
    },

    /** Tries the webhook deliveries that are due again (the periodic task). */
    deliverWebhooks(): Promise<number> {
      return deps.webhooks.deliverDue();
    },

    /**
     * Daily digests: an account whose oldest owed submission is a day old gets one mail with
     * every submission it is owed, and they are marked mailed. Runs every 15 minutes.
     */
    async sendDigests(): Promise<number> {
      const rows = await unmailedSubmissions(db, DIGEST_BATCH);
      // One digest per account and address: a form with a confirmed recipient of its own has its
      // submissions mailed there, the others to the owner.
      const byOwner = new Map<string, ((typeof rows)[number] & { own: string | null })[]>();
      for (const row of rows) {
        const own = row.recipient_status === 'confirmed' && row.recipient ? row.recipient : null;
        const group = `${row.owner_id}\n${own ?? row.email}`;
        byOwner.set(group, [
          ...(byOwner.get(group) ?? []),
          { ...row, email: own ?? row.email, own },
        ]);
      }
      const due = now().getTime() - DIGEST_AFTER_MS;
      let sent = 0;
      for (const owed of byOwner.values()) {
        if (Date.parse(owed[0]!.created_at) > due) continue;
        const texts = FORM_TEXTS[matchLocale([owed[0]!.locale ?? 'en']) ?? 'en'];
        const own = owed[0]!.own;
        try {
          // An address of its own can stop the mails of each site it gets.
          const stops = own
            ? await Promise.all(
                [...new Set(owed.map((r) => r.site_id))].map(async (siteId) =>
                  texts.mailStop(await deps.recipients.linkOf(siteId, own)),
                ),
              )
            : [];
          await mailer.send(
            digestMail(
              texts,
              owed[0]!.email,
              owed.map((r) => ({
                site: new URL(r.source_url).host,
                formLabel: r.form_label,
                page: r.page ?? '/',
                createdAt: r.created_at,
                fields: JSON.parse(r.fields) as [string, string][],
              })),
              stops,
            ),
          );
          await markSubmissionsMailed(
            db,
            owed.map((r) => r.id),
            now().toISOString(),
          );
          sent++;
        } catch (err) {
          log.warn({ err, ownerId: owed[0]!.owner_id }, 'form digest not sent');
        }
      }
      return sent;
    },
  };
}

/** A CSV cell (RFC 4180), with spreadsheet formulas defused (a leading = + - @ is quoted away). */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) || safe !== value ? `"${safe.replace(/"/g, '""')}"` : safe;
}
