import { randomUUID } from 'node:crypto';
import {
  getPlan,
  PAGE_SOURCE_MAX_BYTES,
  PAGE_SOURCE_MESSAGES,
  PLAN_LIMIT_MESSAGES,
  versionPreviewLabel,
  type PageSource,
  type Watch,
  type WatchHit,
  type WatchInput,
  type WatchList,
  type WatchRule,
  type WatchWebhookBody,
  type WebhookDeliveryList,
} from '@mirror/contract';
import {
  normalizePath,
  readBlob,
  type BlobStore,
  type Manifest,
  type ManifestEntry,
} from '@mirror/engine';
import { escapeUTF8 } from 'entities';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config/env.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import type { Db } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/schema.js';
import { defineJob, type JobDefinition, type JobQueue } from '../../platform/jobs/job.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import {
  isPrivateWebhook,
  nextAttemptAt,
  postSigned,
  WEBHOOK_MESSAGES,
} from '../../platform/webhooks/signed-post.js';
import type { SiteVersions } from '../sites/site-versions.js';
import type { SitesService } from '../sites/sites.service.js';
import { buildDigestEmail, buildHitEmail, describeReason } from './watch-messages.js';
import { selectorProblem } from './watch-hits.js';
import {
  countOwnedWatches,
  deleteDeliveriesBefore,
  deleteWatch,
  feedTokenOf,
  findDelivery,
  findWatch,
  findUserContact,
  insertDelivery,
  insertHits,
  insertWatch,
  listDeliveries,
  listWatches,
  markMailed,
  notificationContext,
  ownersOwedDigests,
  recentHitsOf,
  recordAttempt,
  siteNames,
  siteOfFeedToken,
  unmailedHitsOf,
  updateWatch,
  watchRulesOf,
} from './watches.repository.js';

export const WATCH_MESSAGES = {
  notFound: 'Watch not found',
  webhookPrivate: WEBHOOK_MESSAGES.private,
  feedNotFound: 'Feed not found',
} as const;

/** A daily digest goes at most this often to one account. */
const DIGEST_EVERY_MS = 24 * 3_600_000;
/** Deliveries listed, and how long they are kept. */
const DELIVERIES_LISTED = 50;
const DELIVERIES_KEPT_MS = 30 * 24 * 3_600_000;
/** Feed entries. */
const FEED_ENTRIES = 50;

export interface WatchesServiceDeps {
  db: Db;
  config: Pick<Config, 'appUrl' | 'webhookRetryDelaysMs'> & {
    mirror: Pick<Config['mirror'], 'allowPrivateNetworks'>;
  };
  mailer: Mailer;
  jobs: JobQueue;
  log: FastifyBaseLogger;
  sites: Pick<SitesService, 'ownedSite' | 'previewUrlOf'>;
  /** The live version's manifest and page bodies, for the part picker's page source. */
  versions: Pick<SiteVersions, 'loadManifest'>;
  blobs: BlobStore;
}

export type WatchesService = ReturnType<typeof createWatchesService>;

const DeliveryPayload = z.object({ deliveryId: z.string() });

const isPage = (e: ManifestEntry) =>
  e.kind === 'page' && e.status >= 200 && e.status < 300 && e.hash !== '';

/**
 * The page of a copy a watch's path names, as the part picker shows it. Matched on the manifest's
 * entry paths with the engine's `normalizePath`, the key the watch evaluation (`watch-hits.ts`)
 * finds pages by, so the path answered is one a watch will find again. Not the sites host's
 * `findResource`: it answers bodies rather than entries, and falls back to the app shell and the
 * site's 404 page, which would show the owner a page the copy does not have. The spellings tried
 * are the ones that host accepts for a page (`/about`, `/about/`, `/about/index.html`,
 * `/about.html`), and `/` is the copy's start page when it started elsewhere.
 */
function findPage(manifest: Manifest, wanted: string): ManifestEntry | undefined {
  const pages = new Map<string, ManifestEntry>();
  for (const entry of manifest.entries) {
    const key = normalizePath(entry.path);
    if (isPage(entry) && !pages.has(key)) pages.set(key, entry);
  }
  const q = wanted.indexOf('?');
  const query = q === -1 ? '' : wanted.slice(q);
  let path = q === -1 ? wanted : wanted.slice(0, q);
  try {
    // Percent-encoding and dot segments as a browser sends them; prefixed, never a host.
    path = new URL(`http://h${path}`).pathname;
  } catch {
    // Kept as typed: it matches no entry.
  }
  const spellings = [path];
  if (path.endsWith('/')) {
    spellings.push(`${path}index.html`, `${path}index.htm`);
    if (path !== '/') spellings.push(path.slice(0, -1));
  } else {
    spellings.push(`${path}/`, `${path}.html`, `${path}.htm`);
    const folder = /\/index\.html?$/.exec(path);
    if (folder) spellings.push(path.slice(0, folder.index + 1));
    else if (/\.html?$/.test(path)) spellings.push(path.replace(/\.html?$/, ''));
  }
  for (const spelling of spellings) {
    const entry = pages.get(normalizePath(`${spelling}${query}`));
    if (entry) return entry;
  }
  return path === '/' && !query ? pages.get(normalizePath(manifest.entryPath)) : undefined;
}

export function createWatchesService(deps: WatchesServiceDeps) {
  const { db, config, log } = deps;
  const delays = config.webhookRetryDelaysMs;
  const reportUrl = (siteId: string, versionId: string) =>
    `${config.appUrl}/dashboard/site/${siteId}/changes/${versionId}`;

  async function checkInput(input: WatchInput): Promise<void> {
    if (input.scope === 'part' && input.selector) {
      const problem = selectorProblem(input.selector);
      if (problem) throw badRequest(problem);
    }
    if (
      input.webhookUrl &&
      (await isPrivateWebhook(input.webhookUrl, config.mirror.allowPrivateNetworks))
    )
      throw badRequest(WATCH_MESSAGES.webhookPrivate);
  }

  async function ownedWatch(user: UserRow, siteId: string, id: string) {
    await deps.sites.ownedSite(user, siteId);
    const watch = await findWatch(db, siteId, id);
    if (!watch) throw notFound(WATCH_MESSAGES.notFound);
    return watch;
  }

  /** Sends one delivery; answers whether it is over (delivered, or given up). */
  async function deliver(deliveryId: string): Promise<void> {
    const row = await findDelivery(db, deliveryId);
    if (!row || row.status !== 'pending') return;
    const attempts = row.attempts + 1;
    const { statusCode, error } = await postSigned({
      url: row.url,
      secret: row.webhook_secret,
      body: row.body,
      deliveryId: row.id,
      allowPrivateNetworks: config.mirror.allowPrivateNetworks,
    });
    const next = error === null ? null : nextAttemptAt(delays, attempts);
    await recordAttempt(db, row.id, {
      attempts,
      status: error === null ? 'delivered' : next ? 'pending' : 'failed',
      statusCode,
      error,
      nextAttemptAt: next?.toISOString() ?? null,
    });
    if (next) await deps.jobs.enqueue(deliveryJob, { deliveryId: row.id }, { runAt: next });
  }

  /** One try of a webhook delivery; the next try is queued by the one before (its status shows). */
  const deliveryJob: JobDefinition<{ deliveryId: string }> = defineJob({
    name: 'webhook-delivery',
    payload: DeliveryPayload,
    maxAttempts: 3,
    backoffMs: 30_000,
    handle: async ({ deliveryId }) => deliver(deliveryId),
  });

  return {
    deliveryJob,

    async list(user: UserRow, siteId: string): Promise<WatchList> {
      await deps.sites.ownedSite(user, siteId);
      return {
        watches: await listWatches(db, siteId),
        limit: getPlan(user.plan).limits.watches,
        used: await countOwnedWatches(db, user.id),
        feedUrl: `${config.appUrl}/api/domains/clone/${siteId}/changes.atom?token=${await feedTokenOf(db, siteId)}`,
      };
    },

    async create(user: UserRow, siteId: string, input: WatchInput): Promise<Watch> {
      await deps.sites.ownedSite(user, siteId);
      const limit = getPlan(user.plan).limits.watches;
      if ((await countOwnedWatches(db, user.id)) >= limit)
        throw forbidden(PLAN_LIMIT_MESSAGES.watchesLimit(limit));
      await checkInput(input);
      return insertWatch(db, siteId, user.id, input);
    },

    async update(user: UserRow, siteId: string, id: string, input: WatchInput): Promise<Watch> {
      await ownedWatch(user, siteId, id);
      await checkInput(input);
      const watch = await updateWatch(db, siteId, id, input);
      if (!watch) throw notFound(WATCH_MESSAGES.notFound);
      return watch;
    },

    async remove(user: UserRow, siteId: string, id: string): Promise<void> {
      await ownedWatch(user, siteId, id);
      await deleteWatch(db, siteId, id);
    },

    /**
     * A page of the live version as its host serves it, for the part picker: the owner's page
     * looked at in a sandboxed frame of the app, with its address to make its references absolute.
     */
    async pageSource(user: UserRow, siteId: string, path: string): Promise<PageSource> {
      const site = await deps.sites.ownedSite(user, siteId);
      const versionId = site.live_version_id;
      const manifest = versionId ? await deps.versions.loadManifest(versionId) : undefined;
      const entry = manifest ? findPage(manifest, path) : undefined;
      const host = versionId ? deps.sites.previewUrlOf(versionPreviewLabel(versionId)) : null;
      if (!entry || !host) throw notFound(PAGE_SOURCE_MESSAGES.notInCopy);
      if (entry.size > PAGE_SOURCE_MAX_BYTES) throw badRequest(PAGE_SOURCE_MESSAGES.tooLarge);
      const bytes = await readBlob(deps.blobs, entry.hash);
      if (bytes.length > PAGE_SOURCE_MAX_BYTES) throw badRequest(PAGE_SOURCE_MESSAGES.tooLarge);
      return {
        path: entry.path,
        // Joined, not resolved: a path such as `//x/` stays on the preview host.
        url: `${new URL(host).origin}${entry.path}`,
        html: new TextDecoder().decode(bytes),
      };
    },

    async deliveries(user: UserRow, siteId: string): Promise<WebhookDeliveryList> {
      await deps.sites.ownedSite(user, siteId);
      return { deliveries: await listDeliveries(db, siteId, DELIVERIES_LISTED) };
    },

    /** The rules a mirror run of the site evaluates. */
    rulesOf(siteId: string): Promise<WatchRule[]> {
      return watchRulesOf(db, siteId);
    },

    /**
     * A new version met these watches: the hits are kept, mailed now (watches that mail each
     * change) and sent to webhooks. A mail that fails is logged; the hit stays in the feed.
     */
    async notify(
      siteId: string,
      versionId: string,
      summary: string,
      hits: WatchHit[],
    ): Promise<void> {
      if (hits.length === 0) return;
      const records = await insertHits(db, siteId, versionId, hits);
      const context = await notificationContext(db, siteId, versionId);
      if (!context) return;
      for (const record of records) {
        const { watch } = record;
        const url = reportUrl(siteId, versionId);
        if (watch.email === 'each') {
          await deps.mailer
            .send(
              buildHitEmail(context.owner, {
                siteName: context.siteName,
                watchName: watch.name,
                versionNumber: context.versionNumber,
                summary,
                reasons: record.reasons,
                reportUrl: url,
              }),
            )
            .catch((err: unknown) => log.warn({ err, watchId: watch.id }, 'watch mail not sent'));
        }
        if (watch.webhookUrl) {
          const id = randomUUID();
          const body: WatchWebhookBody = {
            type: 'site.changed',
            deliveryId: id,
            site: { id: siteId, name: context.siteName },
            watch: { id: watch.id, name: watch.name },
            version: { id: versionId, number: context.versionNumber },
            summary,
            reasons: record.reasons,
            reportUrl: url,
            createdAt: new Date().toISOString(),
          };
          await insertDelivery(
            db,
            { id, watchId: watch.id, siteId, versionId, url: watch.webhookUrl },
            JSON.stringify(body),
          );
          await deps.jobs.enqueue(deliveryJob, { deliveryId: id });
        }
      }
    },

    /** The daily digests that are due (one a day per account at most), and old deliveries. */
    async sendDigests(now = new Date()): Promise<number> {
      let sent = 0;
      for (const { ownerId, lastMailedAt } of await ownersOwedDigests(db)) {
        if (lastMailedAt && now.getTime() - Date.parse(lastMailedAt) < DIGEST_EVERY_MS) continue;
        const hits = await unmailedHitsOf(db, ownerId);
        const owner = await findUserContact(db, ownerId);
        if (!owner || hits.length === 0) continue;
        const names = await siteNames(db, [...new Set(hits.map((h) => h.siteId))]);
        await deps.mailer.send(
          buildDigestEmail(
            owner,
            hits.map((h) => ({
              siteName: names.get(h.siteId) ?? h.siteId,
              watchName: h.watchName,
              reasons: h.reasons,
              reportUrl: reportUrl(h.siteId, h.versionId),
            })),
          ),
        );
        await markMailed(
          db,
          hits.map((h) => h.id),
          now.toISOString(),
        );
        sent++;
      }
      await deleteDeliveriesBefore(db, new Date(now.getTime() - DELIVERIES_KEPT_MS).toISOString());
      return sent;
    },

    /** The site's Atom feed: the versions that met its watches, newest first. */
    async feed(siteId: string, token: string): Promise<string> {
      const owner = await siteOfFeedToken(db, token);
      if (owner !== siteId) throw notFound(WATCH_MESSAGES.feedNotFound);
      const hits = await recentHitsOf(db, siteId, FEED_ENTRIES);
      const names = await siteNames(db, [siteId]);
      const siteName = names.get(siteId) ?? siteId;
      const selfUrl = `${config.appUrl}/api/domains/clone/${siteId}/changes.atom`;
      const updated = hits[0]?.createdAt ?? new Date(0).toISOString();
      const x = escapeUTF8;
      const entries = hits.map((hit) => {
        const url = reportUrl(siteId, hit.versionId);
        const lines = hit.reasons.map(describeReason);
        return `  <entry>
    <id>urn:uuid:${hit.id}</id>
    <title>${x(`${hit.watchName}: ${lines[0] ?? 'changed'}`)}</title>
    <updated>${x(hit.createdAt)}</updated>
    <link rel="alternate" type="text/html" href="${x(url)}"/>
    <summary type="text">${x(lines.join('\n'))}</summary>
  </entry>`;
      });
      return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>urn:mirror:site:${x(siteId)}:changes</id>
  <title>${x(`${siteName}: changes`)}</title>
  <updated>${x(updated)}</updated>
  <link rel="self" type="application/atom+xml" href="${x(selfUrl)}"/>
  <link rel="alternate" type="text/html" href="${x(`${config.appUrl}/dashboard/site/${siteId}`)}"/>
  <author><name>Mirror</name></author>
${entries.join('\n')}
</feed>
`;
    },
  };
}
