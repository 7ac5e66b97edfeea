import { randomUUID } from 'node:crypto';
import { CUSTOMIZE_STATUS_TEXTS, type EditOp } from '@mirror/contract';
import type { Db } from '../../platform/db/database.js';
import type { SiteStatus, VersionKind } from '../../platform/db/schema.js';

/** The version rows a customization or rewrite reads and writes. */

export function findVersionRow(db: Db, versionId: string) {
  return db.selectFrom('site_versions').selectAll().where('id', '=', versionId).executeTakeFirst();
}

export function findSiteRow(db: Db, siteId: string) {
  return db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirst();
}

export interface NewStep {
  siteId: string;
  kind: Exclude<VersionKind, 'mirror'>;
  baseVersionId: string;
  instructions: string | null;
  idea: string | null;
  ops: EditOp[];
  /** Uses up the site's one-off rewrite payment (accounts without a paid plan). */
  useRewritePayment?: boolean;
  /** The draft this step's draft replaces when it completes (one of its edits undone). */
  replacesVersionId?: string;
}

/** The site has no unused rewrite payment: the step was not started and nothing changed. */
export class RewriteNotPaidError extends Error {}

/**
 * A pending customization version and the site's run state, in one transaction; only a site that
 * is not running gets one (the update's condition), so two requests cannot both start a run.
 */
export async function insertStep(
  db: Db,
  step: NewStep,
  running: SiteStatus[],
): Promise<string | null> {
  const id = randomUUID();
  const now = new Date().toISOString();
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable('sites')
      .set({
        status: 'pending',
        current_status: CUSTOMIZE_STATUS_TEXTS.queued,
        progress: 0,
        estimated_time: null,
        error: null,
        error_kind: null,
        error_detail: null,
        current_version_id: id,
        updated_at: now,
      })
      .where('id', '=', step.siteId)
      .where('status', 'not in', running)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return null;
    // One payment, one rewrite: a conditional update takes the payment, so two requests can never
    // both use it (the claim above holds the row until this transaction ends).
    let credit: string | null = null;
    if (step.useRewritePayment) {
      const paid = await trx
        .selectFrom('sites')
        .select('ai_rewrite_paid_at')
        .where('id', '=', step.siteId)
        .executeTakeFirst();
      const taken = await trx
        .updateTable('sites')
        .set({ ai_rewrite_paid_at: null })
        .where('id', '=', step.siteId)
        .where('ai_rewrite_paid_at', 'is not', null)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 0 || !paid?.ai_rewrite_paid_at) {
        throw new RewriteNotPaidError();
      }
      credit = paid.ai_rewrite_paid_at;
    }
    const last = await trx
      .selectFrom('site_versions')
      .select((eb) => eb.fn.max<number>('number').as('n'))
      .where('site_id', '=', step.siteId)
      .executeTakeFirst();
    await trx
      .insertInto('site_versions')
      .values({
        id,
        site_id: step.siteId,
        number: Number(last?.n ?? 0) + 1,
        status: 'pending',
        manifest_hash: null,
        error: null,
        created_at: now,
        finished_at: null,
        kind: step.kind,
        base_version_id: step.baseVersionId,
        instructions: step.instructions,
        idea: step.idea,
        requested_ops: step.ops.length > 0 ? JSON.stringify(step.ops) : null,
        rewrite_credit: credit,
        replaces_version_id: step.replacesVersionId ?? null,
      })
      .execute();
    return id;
  });
}

export async function deleteDraft(db: Db, siteId: string, versionId: string): Promise<void> {
  await db
    .deleteFrom('site_versions')
    .where('site_id', '=', siteId)
    .where('id', '=', versionId)
    .where('draft', '=', 1)
    .execute();
  await settleDraftStatus(db, siteId, CUSTOMIZE_STATUS_TEXTS.discarded);
}

/**
 * The site's status stops saying a draft waits for review once none does (issue 31): `text` says
 * what became of it. A run that started since has its own status, which stays.
 */
export async function settleDraftStatus(db: Db, siteId: string, text: string): Promise<void> {
  await db
    .updateTable('sites')
    .set({ current_status: text })
    .where('id', '=', siteId)
    .where('current_status', 'in', [
      CUSTOMIZE_STATUS_TEXTS.draftReady,
      CUSTOMIZE_STATUS_TEXTS.editsReady,
    ])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('site_versions')
            .select('id')
            .where('site_id', '=', siteId)
            .where('draft', '=', 1),
        ),
      ),
    )
    .execute();
}

/**
 * Which of `hashes` the account holds: blobs of completed versions of its own sites (what it
 * mirrored, and images it placed in its edits). There is no other record of who stored a blob, so
 * this is what an upload reference may name (issue 30, item 4): another account's files and
 * made-up hashes are alike absent, and an account's files go with its sites when it is deleted.
 * One query, never the blob store, so the answer takes the same time whether a blob exists or not.
 */
export async function blobsHeldBy(
  db: Db,
  ownerId: string | null,
  hashes: readonly string[],
): Promise<Set<string>> {
  const wanted = [...new Set(hashes)];
  if (!ownerId || wanted.length === 0) return new Set();
  const rows = await db
    .selectFrom('version_blobs as b')
    .innerJoin('site_versions as v', 'v.id', 'b.version_id')
    .innerJoin('sites as s', 's.id', 'v.site_id')
    .select('b.hash')
    .distinct()
    .where('s.owner_id', '=', ownerId)
    .where('v.status', '=', 'completed')
    .where('b.hash', 'in', wanted)
    .execute();
  return new Set(rows.map((r) => r.hash));
}

/** The upload references of structured edits (`replaceImage` with `upload`). */
export function uploadHashesOf(ops: readonly EditOp[]): string[] {
  return ops.flatMap((op) => (op.op === 'replaceImage' && op.upload ? [op.upload.hash] : []));
}
