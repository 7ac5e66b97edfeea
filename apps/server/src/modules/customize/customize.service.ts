import {
  CUSTOMIZE_MESSAGES,
  isPaidPlan,
  type AiRewritePricingResponse,
  type CloneStatusResponse,
  type CloneWithAiResponse,
  type Customizations,
  type Understanding,
  EditPlan,
  PageEditOp,
  type EditOp,
} from '@mirror/contract';
import { z } from 'zod';
import type { Config } from '../../config/env.js';
import {
  AppError,
  badRequest,
  conflict,
  forbidden,
  notFound,
  tooManyRequests,
} from '../../errors.js';
import type { Db } from '../../platform/db/database.js';
import type { SiteStatus, UserRow } from '../../platform/db/schema.js';
import type { JobDefinition, JobQueue } from '../../platform/jobs/job.js';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import type { SitesService } from '../sites/sites.service.js';
import type { BlobStore } from '@mirror/engine';
import type { SiteVersions } from '../sites/site-versions.js';
import type { CustomizeSitePayload } from './customize-site.job.js';
import { rewritesAvailable, type AiProviders } from './ai-provider.js';
import { understandInstructions } from './understand.js';
import { blobsOf, restoredPage, versionOfSite } from './restore-page.js';
import {
  blobsHeldBy,
  deleteDraft,
  findVersionRow,
  insertStep,
  RewriteNotPaidError,
  uploadHashesOf,
  type NewStep,
} from './customize.repository.js';
import { assertMayPublish } from '../sites/plan-limits.js';
import type { StorageService } from '../storage/storage.service.js';

const HOUR = 3_600_000;
const RUNNING: SiteStatus[] = ['pending', 'processing', 'completing'];
/** Customizations and rewrites per user and hour (model calls cost money and time). */
export const CUSTOMIZE_RATE_LIMIT = { limit: 30, windowMs: HOUR };
export const REWRITE_RATE_LIMIT = { limit: 10, windowMs: HOUR };
/** "What will these instructions do?" per user (each reads the site's pages). */
export const UNDERSTAND_RATE_LIMIT = { limit: 120, windowMs: HOUR };

export const paymentRequired = () =>
  new AppError('payment_required', 402, CUSTOMIZE_MESSAGES.paymentRequired);

export interface CustomizeServiceDeps {
  db: Db;
  jobs: JobQueue;
  customizeJob: JobDefinition<CustomizeSitePayload>;
  sites: SitesService;
  limiter: RateLimiter;
  config: Config;
  blobs: BlobStore;
  versions: Pick<SiteVersions, 'loadManifest'>;
  providers: AiProviders;
  storage: Pick<StorageService, 'assertRoom' | 'hold' | 'holdVersion'>;
  /** Tells the sites host that what it serves changed (a discarded draft's preview goes away). */
  onPublished(siteId: string): void;
  /** A version was deleted: its blobs can be collected. */
  afterDeletion(): void;
}

/** Structured edits sent in a rewrite's free-form `customizations` object. */
function opsOf(customizations: Record<string, unknown> | undefined): EditOp[] {
  const parsed = z.array(PageEditOp).safeParse(customizations?.ops ?? []);
  if (!parsed.success) throw badRequest(parsed.error.issues.map((i) => i.message));
  return parsed.data;
}

export function createCustomizeService(deps: CustomizeServiceDeps) {
  const { db, sites, config } = deps;

  async function limit(user: UserRow, kind: 'customize' | 'rewrite') {
    await deps.storage.assertRoom(user.id, user.plan);
    const hit = await deps.limiter.hit(
      `${kind}:user:${user.id}`,
      kind === 'customize' ? CUSTOMIZE_RATE_LIMIT : REWRITE_RATE_LIMIT,
    );
    if (!hit.allowed) throw tooManyRequests(hit.retryAfterSeconds, CUSTOMIZE_MESSAGES.rateLimited);
  }

  /** A signed-in owner's completed site; visitors' demos are refused with a clear message. */
  async function customizableSite(user: UserRow | null, id: string) {
    const site = await sites.visibleSite(user, id);
    if (site.is_demo === 1 || !user) throw forbidden(CUSTOMIZE_MESSAGES.demoRefused);
    // Beyond the plan's number of sites (after a downgrade) a site is read-only.
    await assertMayPublish(db, site.id);
    if (RUNNING.includes(site.status)) throw conflict(CUSTOMIZE_MESSAGES.busy);
    if (!site.live_version_id) throw conflict(CUSTOMIZE_MESSAGES.noLiveVersion);
    return site;
  }

  /**
   * Every upload reference names an image the caller's own account holds: otherwise 400, nothing
   * written. Another account's file and a made-up hash get the same answer (issue 30, item 4).
   */
  async function assertOwnUploads(user: UserRow, ops: readonly EditOp[]): Promise<void> {
    const hashes = uploadHashesOf(ops);
    if (hashes.length === 0) return;
    const held = await blobsHeldBy(db, user.id, hashes);
    if (hashes.some((hash) => !held.has(hash))) throw badRequest(CUSTOMIZE_MESSAGES.uploadNotFound);
  }

  /** What instructions will do to a version (the built-in engine), or that a model decides. */
  async function understand(
    user: UserRow,
    versionId: string,
    instructions: string,
  ): Promise<Understanding> {
    if (deps.providers.providerFor(user.plan).kind === 'model')
      return { byModel: true, willDo: [], notUnderstood: [] };
    const hit = await deps.limiter.hit(`understand:user:${user.id}`, UNDERSTAND_RATE_LIMIT);
    if (!hit.allowed) throw tooManyRequests(hit.retryAfterSeconds, CUSTOMIZE_MESSAGES.rateLimited);
    const manifest = await deps.versions.loadManifest(versionId);
    if (!manifest) throw conflict(CUSTOMIZE_MESSAGES.noLiveVersion);
    return understandInstructions(manifest, deps.blobs, instructions);
  }

  /** `held`: blobs the step reuses besides its uploads (a restored page's), held from now on. */
  async function start(step: NewStep, held: readonly string[] = []): Promise<void> {
    let versionId: string | null;
    try {
      versionId = await insertStep(db, step, RUNNING);
    } catch (err) {
      // Another rewrite used the payment first (the transaction changed nothing).
      if (err instanceof RewriteNotPaidError) throw paymentRequired();
      throw err;
    }
    if (!versionId) throw conflict(CUSTOMIZE_MESSAGES.busy);
    // The step reuses blobs by hash: the uploads it names and, for an undo, the files the draft it
    // replaces added. They are held from now on, whatever becomes of that draft or those uploads
    // before the step runs (issue 30, item 8); the step holds them again and checks they are there.
    const replaced = step.replacesVersionId
      ? await findVersionRow(db, step.replacesVersionId)
      : undefined;
    if (replaced) await deps.storage.holdVersion(versionId, replaced.id);
    await deps.storage.hold(versionId, [...uploadHashesOf(step.ops), ...held]);
    await deps.jobs.enqueue(deps.customizeJob, {
      siteId: step.siteId,
      versionId,
      ...(replaced?.manifest_hash ? { replacedManifestHash: replaced.manifest_hash } : {}),
    });
  }

  return {
    pricing(): AiRewritePricingResponse {
      return {
        amount: config.ai.rewritePriceCents,
        currency: 'usd',
        available: rewritesAvailable(config),
      };
    },

    /** "I will: …" for instructions on the live version, before anything is applied. */
    async understand(user: UserRow, id: string, instructions: string): Promise<Understanding> {
      const site = await customizableSite(user, id);
      return understand(user, site.live_version_id!, instructions);
    },

    /** A new version of the live one with the customizations applied: a draft to review. */
    async customize(
      user: UserRow | null,
      id: string,
      customizations: Customizations,
    ): Promise<CloneStatusResponse> {
      const site = await customizableSite(user, id);
      const instructions = customizations.instructions?.trim() ?? '';
      const ops = customizations.ops ?? [];
      if (!instructions && ops.length === 0) throw badRequest(CUSTOMIZE_MESSAGES.nothingToApply);
      // The built-in engine reads instructions the same way now as when the step runs: a part it
      // cannot read refuses the whole request, so a misread instruction never makes a version,
      // unless the owner chose to make the draft from the parts understood (`partial`): the step
      // then keeps the others on the draft as not understood.
      if (instructions) {
        const understood = await understand(user!, site.live_version_id!, instructions);
        if (understood.notUnderstood.length > 0 && customizations.partial !== true)
          throw badRequest(CUSTOMIZE_MESSAGES.notUnderstood(understood.notUnderstood));
        if (understood.willDo.length === 0 && ops.length === 0 && !understood.byModel)
          throw badRequest(CUSTOMIZE_MESSAGES.nothingToApply);
      }
      await assertOwnUploads(user!, ops);
      await limit(user!, 'customize');
      await start({
        siteId: site.id,
        kind: 'customize',
        baseVersionId: site.live_version_id!,
        instructions: instructions || null,
        idea: null,
        ops,
      });
      return sites.status(user, site.id);
    },

    /**
     * Idea mode: rewrite an owned completed clone (into a draft), or mirror the reference first and
     * rewrite it as the next step. Free for paid plans; others need a paid rewrite for the clone.
     */
    async cloneWithAi(
      user: UserRow,
      body: {
        sourceUrl: string;
        aiInstructions?: string | undefined;
        originalIdea: string;
        cloneId?: string | undefined;
        targetDomain?: string | undefined;
        customizations?: Record<string, unknown> | undefined;
        isDemo?: boolean | undefined;
      },
      ip: string,
    ): Promise<CloneWithAiResponse> {
      if (body.isDemo === true) throw forbidden(CUSTOMIZE_MESSAGES.demoRefused);
      // Without a model there is no rewrite to run: refused before anything is written or used
      // (after the site is found, so others' sites stay 404).
      const unavailable = () => conflict(CUSTOMIZE_MESSAGES.rewriteUnavailable);
      const ops = opsOf(body.customizations);
      const instructions = body.aiInstructions?.trim() || null;
      const paid = isPaidPlan(user.plan);
      if (body.cloneId) {
        const site = await customizableSite(user, body.cloneId);
        await assertOwnUploads(user, ops);
        if (!rewritesAvailable(config)) throw unavailable();
        if (!paid && !site.ai_rewrite_paid_at) throw paymentRequired();
        await limit(user, 'rewrite');
        // One payment opens one rewrite: starting it uses the payment up (given back on failure).
        await start({
          siteId: site.id,
          kind: 'rewrite',
          useRewritePayment: !paid,
          baseVersionId: site.live_version_id!,
          instructions,
          idea: body.originalIdea,
          ops,
        });
        return { id: site.id, previewUrl: sites.previewUrlOf(site.subdomain) };
      }
      await assertOwnUploads(user, ops);
      if (!rewritesAvailable(config)) throw unavailable();
      // A clone made here has no payment yet: only paid plans can rewrite in one go.
      if (!paid) throw paymentRequired();
      await limit(user, 'rewrite');
      const { customizations } = body;
      const rest = customizations ? { ...customizations } : {};
      delete rest.ops;
      const record = await sites.createClone(
        user,
        {
          sourceUrl: body.sourceUrl,
          ...(body.targetDomain !== undefined ? { targetDomain: body.targetDomain } : {}),
          ...(Object.keys(rest).length > 0 ? { customizations: rest } : {}),
          isDemo: false,
        },
        ip,
        { followUp: { kind: 'rewrite', instructions, idea: body.originalIdea, ops } },
      );
      return { id: record.id, previewUrl: record.previewUrl };
    },

    /**
     * Undoes one edit of a draft: a new draft from the same base with every other edit of the
     * draft's applied plan (re-run as structured edits, no instructions), which replaces the old
     * draft when it completes. Undoing a draft's only edit discards the draft.
     */
    async undoEdit(
      user: UserRow,
      id: string,
      versionId: string,
      index: number,
    ): Promise<CloneStatusResponse> {
      const owned = await sites.ownedSite(user, id);
      const version = await findVersionRow(db, versionId);
      if (!version || version.site_id !== owned.id)
        throw notFound(CUSTOMIZE_MESSAGES.versionNotFound);
      if (version.draft !== 1 || version.status !== 'completed' || !version.base_version_id)
        throw conflict(CUSTOMIZE_MESSAGES.undoNotDraft);
      const plan = EditPlan.safeParse(version.plan ? JSON.parse(version.plan) : null);
      if (!plan.success) throw conflict(CUSTOMIZE_MESSAGES.undoNotDraft);
      if (index >= plan.data.ops.length) throw badRequest(CUSTOMIZE_MESSAGES.undoNoSuchEdit);
      const site = await customizableSite(user, owned.id);
      await limit(user, 'customize');
      const rest = plan.data.ops.filter((_, i) => i !== index);
      if (rest.length === 0) {
        await deleteDraft(db, site.id, version.id);
        deps.onPublished(site.id);
        deps.afterDeletion();
        return sites.status(user, site.id);
      }
      await start({
        siteId: site.id,
        kind: version.kind === 'rewrite' ? 'rewrite' : 'customize',
        baseVersionId: version.base_version_id,
        instructions: null,
        idea: null,
        ops: rest,
        replacesVersionId: version.id,
      });
      return sites.status(user, site.id);
    },

    /**
     * "Restore this page from the previous version" (issue 33): on the change report of
     * `versionId`, a draft of the live version with the page at `path` as the version the report
     * compared with had it, and the files it uses that the live version lacks. A step like a
     * customization (reviewed, undone, published or discarded the same way), never published.
     */
    async restorePage(
      user: UserRow,
      id: string,
      versionId: string,
      path: string,
    ): Promise<CloneStatusResponse> {
      const site = await customizableSite(user, id);
      const { baseVersionId } = await sites.changes(user, site.id, versionId);
      const from = baseVersionId
        ? await versionOfSite(db, deps.blobs, site.id, baseVersionId)
        : undefined;
      if (!baseVersionId || !from) throw conflict(CUSTOMIZE_MESSAGES.restoreBaseGone);
      const live = await deps.versions.loadManifest(site.live_version_id!);
      if (!live) throw conflict(CUSTOMIZE_MESSAGES.noLiveVersion);
      const restored = await restoredPage(from.manifest, live, path, deps.blobs);
      if (!restored) throw badRequest(CUSTOMIZE_MESSAGES.restoreNotInBase);
      await limit(user, 'customize');
      // The earlier version's manifest is held too: a version whose manifest a step holds is not
      // pruned, so the step still finds it when it runs.
      await start(
        {
          siteId: site.id,
          kind: 'customize',
          baseVersionId: site.live_version_id!,
          instructions: null,
          idea: null,
          ops: [{ op: 'restorePage', path: restored.page.path, fromVersionId: baseVersionId }],
        },
        [from.manifestHash, ...blobsOf(restored)],
      );
      return sites.status(user, site.id);
    },

    /** Throws away a draft nobody published; the live version and finished versions stay. */
    async discardDraft(user: UserRow, id: string, versionId: string): Promise<void> {
      const site = await sites.ownedSite(user, id);
      const version = await findVersionRow(db, versionId);
      if (!version || version.site_id !== site.id)
        throw notFound(CUSTOMIZE_MESSAGES.versionNotFound);
      if (version.id === site.live_version_id) throw conflict(CUSTOMIZE_MESSAGES.liveVersion);
      if (version.draft !== 1) throw conflict(CUSTOMIZE_MESSAGES.notDraft);
      await deleteDraft(db, site.id, version.id);
      deps.onPublished(site.id);
      deps.afterDeletion();
    },
  };
}

export type CustomizeService = ReturnType<typeof createCustomizeService>;
