import { randomBytes, randomUUID } from 'node:crypto';
import type { FormWebhookBody } from '@mirror/contract';
import type { Db } from '../../platform/db/database.js';
import {
  nextAttemptAt,
  postSigned,
  WEBHOOK_TIMEOUT_MS,
} from '../../platform/webhooks/signed-post.js';

/** Deliveries tried per pass of the periodic task. */
const DUE_BATCH = 50;

export interface FormWebhooksDeps {
  db: Db;
  config: { webhookRetryDelaysMs: readonly number[]; allowPrivateNetworks: boolean };
}

export type FormWebhooks = ReturnType<typeof createFormWebhooks>;

/** A new webhook secret, as watches' (`whsec_…`). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

/**
 * Form submissions sent to the owner's webhook (issue 34, item 3; docs/forms.md, "Webhook"): one
 * signed JSON delivery per submission kept (not spam), tried at once by the process that took it
 * (the sites host has no job queue), then again by the periodic task of a worker after each of
 * `WEBHOOK_RETRY_DELAYS_MS`. A try first moves the delivery's due time on (by more than a try
 * takes), so two processes never make the same try.
 */
export function createFormWebhooks(deps: FormWebhooksDeps) {
  const { db, config } = deps;

  /** Takes the delivery for one try: false when another process has it, or it is over. */
  async function claim(id: string): Promise<boolean> {
    const now = new Date();
    const result = await db
      .updateTable('form_webhook_deliveries')
      .set({ next_attempt_at: new Date(now.getTime() + 2 * WEBHOOK_TIMEOUT_MS).toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now.toISOString())
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async function attempt(id: string): Promise<void> {
    const row = await db
      .selectFrom('form_webhook_deliveries as d')
      .innerJoin('form_settings as s', (join) =>
        join.onRef('s.site_id', '=', 'd.site_id').onRef('s.form_key', '=', 'd.form_key'),
      )
      .select(['d.id', 'd.url', 'd.body', 'd.attempts', 's.webhook_secret'])
      .where('d.id', '=', id)
      .executeTakeFirst();
    if (!row?.webhook_secret) return;
    const attempts = row.attempts + 1;
    const { statusCode, error } = await postSigned({
      url: row.url,
      secret: row.webhook_secret,
      body: row.body,
      deliveryId: row.id,
      allowPrivateNetworks: config.allowPrivateNetworks,
    });
    const next = error === null ? null : nextAttemptAt(config.webhookRetryDelaysMs, attempts);
    const done = next === null;
    await db
      .updateTable('form_webhook_deliveries')
      .set({
        attempts,
        status: error === null ? 'delivered' : done ? 'failed' : 'pending',
        last_status_code: statusCode,
        last_error: error,
        next_attempt_at: next?.toISOString() ?? null,
        finished_at: done ? new Date().toISOString() : null,
      })
      .where('id', '=', row.id)
      .execute();
  }

  return {
    /** Keeps a submission's delivery and makes its first try (not awaited by the visitor). */
    async queue(input: {
      submissionId: string;
      siteId: string;
      formKey: string;
      url: string;
      body: FormWebhookBody;
    }): Promise<void> {
      const id = randomUUID();
      const now = new Date().toISOString();
      await db
        .insertInto('form_webhook_deliveries')
        .values({
          id,
          submission_id: input.submissionId,
          site_id: input.siteId,
          form_key: input.formKey,
          url: input.url,
          body: JSON.stringify({ ...input.body, deliveryId: id }),
          status: 'pending',
          attempts: 0,
          last_status_code: null,
          last_error: null,
          created_at: now,
          finished_at: null,
          next_attempt_at: now,
        })
        .execute();
      if (await claim(id)) await attempt(id);
    },

    /** Tries the deliveries that are due (the periodic task). Answers how many it tried. */
    async deliverDue(): Promise<number> {
      const due = await db
        .selectFrom('form_webhook_deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', new Date().toISOString())
        .orderBy('next_attempt_at')
        .limit(DUE_BATCH)
        .execute();
      let tried = 0;
      for (const { id } of due) {
        if (!(await claim(id))) continue;
        await attempt(id);
        tried++;
      }
      return tried;
    },
  };
}
