import {
  CUSTOMIZE_MESSAGES,
  CUSTOMIZE_STATUS_TEXTS,
  EDIT_PLAN_LIMITS,
  EditOp,
  EditPlan,
} from '@mirror/contract';
import {
  failedCount,
  readBlob,
  siteFormsOf,
  type BlobStore,
  type Manifest,
  type ManifestEntry,
} from '@mirror/engine';
import { applyPlan, describePlan, type PageOutline } from '@mirror/customize';
import { z } from 'zod';
import type { Config } from '../../config/env.js';
import { ModelPlannerError } from '../../platform/ai/model-planner.js';
import type { Db } from '../../platform/db/database.js';
import type { SiteStatus } from '../../platform/db/schema.js';
import type { Sandbox } from '../../platform/sandbox/sandbox.js';
import { defineJob, type JobDefinition } from '../../platform/jobs/job.js';
import type { UserPlans } from '../auth/user-plans.js';
import { publishRefusal } from '../sites/plan-limits.js';
import type { SiteVersions } from '../sites/site-versions.js';
import { planEdits, type AiProviders } from './ai-provider.js';
import {
  blobsHeldBy,
  deleteDraft,
  findSiteRow,
  findVersionRow,
  uploadHashesOf,
} from './customize.repository.js';
import { localizeFontsInSandbox } from './font-assets.task.js';
import { resolveRestores } from './restore-page.js';
import { describeOutcome } from './plain-changes.js';
import { buildManifest, outlinesOf, readDocuments } from './version-files.js';
import { formsNamed } from '../forms/form-recipients.js';
import type { StorageService } from '../storage/storage.service.js';

/** Tries of one run, like a mirror run. */
const MAX_ATTEMPTS = 3;

const CustomizeSitePayload = z.object({
  siteId: z.string(),
  versionId: z.string(),
  /** An undo: the manifest of the draft it replaces, whose added files it keeps (held for it). */
  replacedManifestHash: z.string().optional(),
});
export type CustomizeSitePayload = z.infer<typeof CustomizeSitePayload>;

export interface CustomizeSiteDeps {
  db: Db;
  blobs: BlobStore;
  /** Font stylesheets (a stranger's CSS) are fetched and read in a sandboxed run. */
  sandbox: Pick<Sandbox, 'run'>;
  config: Config;
  providers: AiProviders;
  versions: Pick<SiteVersions, 'loadManifest' | 'saveManifest' | 'complete' | 'find' | 'prune'>;
  /** The site owner's plan chooses the AI provider. */
  plans: UserPlans;
  /** Lists the new version's blobs and checks the owner's storage; holds what the step reuses. */
  storage: Pick<StorageService, 'admitVersion' | 'hold' | 'heldBy' | 'release'>;
  onPublished(siteId: string): void;
  /** A version completed (thumbnails are made from here). */
  onVersionReady?(siteId: string, versionId: string): Promise<void>;
  /** A draft was replaced (an edit undone): its blobs can be collected. */
  afterDeletion?(): void;
}

/** A plan the run's planner answered, as kept in `site_versions.planned`. */
const KeptPlanning = z.object({
  plan: EditPlan,
  unparsed: z.array(z.string()),
  notes: z.array(z.string()),
});

/** A failure that trying again cannot fix: the run is reported failed at once. */
class StepFailure extends Error {}

/** Each applied edit in plain words for the owner, one line per op (never a selector). */
function describeEdits(plan: EditPlan, outlines: PageOutline[]): string[] {
  try {
    const lines = describePlan(plan, outlines);
    if (lines.length === plan.ops.length) return lines;
  } catch {
    // Described again from the plan alone when the versions are listed.
  }
  return [];
}

/**
 * One customization or rewrite: plan edits for the base version (the site's live version when the
 * run was asked for), apply them by splicing, store only what changed, and write a new manifest.
 * The result is a draft for its owner to review on its own preview address (issue 19); only the
 * edits a re-mirror re-applies (`carried`) are published in one update. A failure changes nothing
 * that is served.
 */
export function createCustomizeSiteJob(
  deps: CustomizeSiteDeps,
): JobDefinition<CustomizeSitePayload> {
  const { db, blobs, config, versions } = deps;
  return defineJob({
    name: 'customize-site',
    payload: CustomizeSitePayload,
    maxAttempts: MAX_ATTEMPTS,
    backoffMs: 5_000,
    async handle({ siteId, versionId, replacedManifestHash }, context) {
      const site = await findSiteRow(db, siteId);
      const version = await findVersionRow(db, versionId);
      if (!site || !version || version.site_id !== siteId) return;
      if (version.status === 'completed' || version.status === 'failed') return;

      // A step that follows a mirror continues its progress; it never goes down during a run.
      const floor =
        site.status === 'processing' || site.status === 'completing' ? site.progress : 0;
      let progress = floor;
      const report = async (status: SiteStatus, text: string, fraction: number) => {
        progress = Math.max(progress, floor + (1 - floor) * fraction);
        await db
          .updateTable('sites')
          .set({
            status,
            current_status: text,
            progress,
            estimated_time: null,
            error: null,
            updated_at: new Date().toISOString(),
          })
          .where('id', '=', siteId)
          .execute();
      };

      const fail = async (message: string) => {
        const finishedAt = new Date().toISOString();
        await db.transaction().execute(async (trx) => {
          await trx
            .updateTable('site_versions')
            .set({ status: 'failed', error: message, finished_at: finishedAt })
            .where('id', '=', versionId)
            .execute();
          await trx
            .updateTable('sites')
            .set({
              status: 'failed',
              current_status: CUSTOMIZE_STATUS_TEXTS.failed,
              progress,
              estimated_time: null,
              error: message,
              updated_at: finishedAt,
            })
            .where('id', '=', siteId)
            .execute();
          // A rewrite that used up the site's one-off payment gives it back only when its model
          // never answered with a plan (issue 30, item 9): once it did, the payment is used,
          // whatever fails afterwards, so failing runs cannot buy model calls over and over.
          // Read again: a refund or dispute of the payment meanwhile took the credit away.
          const current = await trx
            .selectFrom('site_versions')
            .select(['rewrite_credit', 'planned'])
            .where('id', '=', versionId)
            .executeTakeFirst();
          if (current?.rewrite_credit && current.planned === null) {
            await trx
              .updateTable('sites')
              .set({ ai_rewrite_paid_at: current.rewrite_credit })
              .where('id', '=', siteId)
              .where('ai_rewrite_paid_at', 'is', null)
              .execute();
          }
        });
        await deps.storage.release(versionId);
      };

      /**
       * The files a replaced draft added to its base (downloaded fonts): the edits kept from it
       * refer to them by their copy paths. Held for this step since the undo was asked for (the
       * draft may be discarded meanwhile); held again here, and any gone named in a note.
       */
      const filesAddedBy = async (
        replaced: string | null,
        base: Manifest,
      ): Promise<{ files: ManifestEntry[]; notes: string[] }> => {
        const manifestHash =
          replacedManifestHash ??
          (replaced ? (await versions.find(replaced))?.manifest_hash : null);
        if (!manifestHash) return { files: [], notes: [] };
        if ((await deps.storage.hold(versionId, [manifestHash])).size > 0)
          return { files: [], notes: ['The files the undone draft added were not found.'] };
        const before = JSON.parse(
          (await readBlob(blobs, manifestHash)).toString('utf8'),
        ) as Manifest;
        const known = new Set(base.entries.map((e) => e.path));
        const added = before.entries.filter((e) => !known.has(e.path));
        const missing = await deps.storage.hold(
          versionId,
          added.map((e) => e.hash),
        );
        return {
          files: added.filter((e) => !missing.has(e.hash)),
          notes: added
            .filter((e) => missing.has(e.hash))
            .map((e) => `The file ${e.path} of the undone draft was not found and is missing.`),
        };
      };

      try {
        await db
          .updateTable('site_versions')
          .set({ status: 'processing', error: null })
          .where('id', '=', versionId)
          .execute();
        await report('processing', CUSTOMIZE_STATUS_TEXTS.planning, 0.1);

        const base = version.base_version_id
          ? await versions.loadManifest(version.base_version_id)
          : undefined;
        if (!base) throw new StepFailure(CUSTOMIZE_MESSAGES.noLiveVersion);
        const { documents, notes: readNotes } = await readDocuments(base, blobs);
        const outlines = outlinesOf(documents, base.entryPath);

        const plan = await deps.plans.planOf(site.owner_id);
        // The planner is asked once per run: a plan it answered in an earlier try is used again.
        // Kept as soon as it answers, so a rewrite whose model answered has used its payment.
        const kept = version.planned ? KeptPlanning.safeParse(JSON.parse(version.planned)) : null;
        const planned = kept?.success
          ? kept.data
          : await planEdits(
              deps.providers.providerFor(plan ?? 'free'),
              {
                instructions: version.instructions ?? '',
                entryOutline: outlines[0],
                outlines,
                ...(version.idea ? { rewriteFor: version.idea } : {}),
              },
              CUSTOMIZE_MESSAGES.rewriteNeedsModel,
            );
        if (!kept?.success) {
          await db
            .updateTable('site_versions')
            .set({ planned: JSON.stringify(planned) })
            .where('id', '=', versionId)
            .execute();
        }
        const requested = version.requested_ops
          ? z.array(EditOp).parse(JSON.parse(version.requested_ops))
          : [];
        const notes = [...readNotes, ...planned.notes];
        let ops = [...planned.plan.ops, ...requested];
        if (ops.length > EDIT_PLAN_LIMITS.maxOps) {
          notes.push(
            `Only the first ${EDIT_PLAN_LIMITS.maxOps} changes were applied; please split your instructions.`,
          );
          ops = ops.slice(0, EDIT_PLAN_LIMITS.maxOps);
        }
        // An upload names an image of the owner's own account (issue 30, item 4): one that a model
        // planned, or a carried or undone edit names, is checked here too and otherwise left out.
        // Uploads this step has held since it was asked for (and checked) stay the account's,
        // whatever became meanwhile of the draft that held them (issue 30, item 8).
        const uploads = uploadHashesOf(ops);
        const held = new Set([
          ...(await blobsHeldBy(db, site.owner_id, uploads)),
          ...(await deps.storage.heldBy(versionId, uploads)),
        ]);
        const foreign = ops.filter(
          (op) => op.op === 'replaceImage' && op.upload && !held.has(op.upload.hash),
        );
        if (foreign.length > 0) {
          ops = ops.filter((op) => !foreign.includes(op));
          notes.push(...foreign.map(() => CUSTOMIZE_MESSAGES.uploadLeftOut));
        }
        // Pages restored from earlier versions (issue 33) are read and held now; one whose
        // version is gone is left out with a note. A restore asked for alone fails the step.
        const restores = await resolveRestores(
          { db, blobs, storage: deps.storage },
          { siteId, holder: versionId, base, ops },
        );
        ops = restores.ops;
        notes.push(...restores.notes);
        if (ops.length === 0 && restores.notes.length > 0 && version.carried !== 1) {
          throw new StepFailure(restores.notes.join(' '));
        }
        if (ops.length === 0 && planned.unparsed.length > 0 && !version.idea) {
          throw new StepFailure(
            `None of the instructions could be understood: ${planned.unparsed.join('; ')}`,
          );
        }

        await report('processing', CUSTOMIZE_STATUS_TEXTS.applying, 0.5);
        const fonts = await localizeFontsInSandbox(
          deps.sandbox,
          {
            ops,
            sourceUrl: site.source_url,
            allowPrivateNetworks: config.mirror.allowPrivateNetworks,
          },
          context.signal,
        );
        const applied: EditPlan = {
          ops: fonts.ops,
          ...(planned.plan.summary ? { summary: planned.plan.summary } : {}),
        };
        const result = applyPlan(applied, documents);

        await report('completing', CUSTOMIZE_STATUS_TEXTS.saving, 0.8);
        const carried = await filesAddedBy(version.replaces_version_id, base);
        // Uploads are kept by hash: held before they are looked for (and until the version lists them).
        await deps.storage.hold(
          versionId,
          result.assets.map((a) => a.hash),
        );
        // A restored page takes the place of the base's copy of it, over any edit of the plan.
        const unreplaced = {
          ...base,
          entries: base.entries.filter((e) => !restores.replaced.has(e.path)),
        };
        const { manifest, missingUploads } = await buildManifest(unreplaced, blobs, {
          changed: result.changed,
          assets: result.assets,
          extra: [...carried.files, ...fonts.entries, ...restores.entries],
        });
        const manifestHash = await versions.saveManifest(manifest);
        const refused = await deps.storage.admitVersion(
          site.owner_id ? { id: site.owner_id, plan: plan ?? 'free' } : null,
          versionId,
          manifestHash,
        );
        if (refused) throw new StepFailure(refused);
        // Where forms' mails go is set when the draft is published, on the forms it names then:
        // a name that finds none on this version is said now.
        const recipientEdits = applied.ops.filter((op) => op.op === 'setFormRecipient');
        if (recipientEdits.length > 0) {
          const forms = siteFormsOf(manifest);
          for (const op of recipientEdits)
            if (formsNamed(forms, op.form).length === 0)
              notes.push(
                `No form of the copy that takes submissions matches '${op.form ?? 'contact'}': mails to ${op.email} would change nothing.`,
              );
        }
        const changes = [
          // The same words and counts as the preview's "I will: …" (understand.ts).
          ...describeOutcome(applied, result.report, outlines),
          ...result.report.flatMap((r) => r.notes ?? []),
          ...fonts.notes,
          ...notes,
          ...missingUploads.map((p) => `The uploaded image for ${p} was not found and is missing.`),
          ...carried.notes,
        ];
        // Draft first (issue 19): only the edits a re-mirror re-applies were reviewed already.
        const draft = version.carried !== 1;
        const edits = describeEdits(applied, outlines);
        const finishedAt = new Date().toISOString();
        await db.transaction().execute(async (trx) => {
          // The publish gate, where the live version switches (a re-mirror's carried edits): a
          // plan that dropped during the run leaves the site as it was. A draft publishes nothing.
          const refusal = draft ? null : await publishRefusal(trx, siteId);
          if (refusal) throw new StepFailure(refusal);
          await versions.complete(
            trx,
            versionId,
            {
              manifestHash,
              stats: manifest.stats,
              failed: failedCount(manifest),
              finishedAt,
              title: manifest.title,
            },
            {
              plan: JSON.stringify(applied),
              changes: JSON.stringify(changes),
              unparsed: JSON.stringify(planned.unparsed),
              draft: draft ? 1 : 0,
            },
          );
          await trx
            .updateTable('site_versions')
            .set({ edits: JSON.stringify(edits) })
            .where('id', '=', versionId)
            .execute();
          // A draft made by undoing one edit of another replaces it.
          // It keeps the draft's number (issue 31): undoing an edit changes the draft, not which
          // draft it is. A draft published or discarded meanwhile is neither deleted nor renumbered.
          if (version.replaces_version_id) {
            const replaced = await findVersionRow(trx, version.replaces_version_id);
            await deleteDraft(trx, siteId, version.replaces_version_id);
            if (replaced?.draft === 1 && replaced.site_id === siteId) {
              await trx
                .updateTable('site_versions')
                .set({ number: replaced.number })
                .where('id', '=', versionId)
                .execute();
            }
          }
          await trx
            .updateTable('sites')
            .set({
              ...(draft ? {} : { live_version_id: versionId }),
              status: 'completed',
              current_status: !draft
                ? CUSTOMIZE_STATUS_TEXTS.customized
                : version.kind === 'rewrite'
                  ? CUSTOMIZE_STATUS_TEXTS.draftReady
                  : CUSTOMIZE_STATUS_TEXTS.editsReady,
              progress: 1,
              estimated_time: 0,
              error: null,
              updated_at: finishedAt,
            })
            .where('id', '=', siteId)
            .execute();
        });
        // The version lists what it kept: the step's holds can go.
        await deps.storage.release(versionId);
        if (!draft || version.replaces_version_id) deps.onPublished(siteId);
        if (version.replaces_version_id) deps.afterDeletion?.();
        await versions.prune(siteId);
        await deps.onVersionReady?.(siteId, versionId);
      } catch (err) {
        if (context.signal.aborted) throw err;
        const permanent =
          err instanceof StepFailure ||
          (err instanceof ModelPlannerError && err.kind === 'invalid-output') ||
          context.attempt >= MAX_ATTEMPTS;
        if (!permanent) throw err;
        const message =
          err instanceof StepFailure || err instanceof ModelPlannerError
            ? err.message
            : // A library's own error stays in the log: the owner gets a plain sentence.
              CUSTOMIZE_MESSAGES.failedUnexpectedly;
        context.log.warn({ err, siteId, versionId }, 'customization failed');
        await fail(message);
      }
    },
  });
}
