import { randomUUID } from 'node:crypto';
import { readBlob, type BlobStore, type Manifest, type MirrorStats } from '@mirror/engine';
import type { Db } from '../../platform/db/database.js';
import { loadManifest, saveManifest } from './manifests.js';
import { publishRefusal } from './plan-limits.js';
import {
  completeVersion,
  deleteVersion,
  findSite,
  findVersionWithOwner,
  insertRepairVersion,
  setLiveVersion,
  setVersionThumbnail,
} from './sites.repository.js';
import { pruneVersions } from './version-pruning.js';

export interface SiteVersionsDeps {
  db: Db;
  blobs: BlobStore;
  /** Which of these manifests a run in progress holds: such versions are not pruned. */
  heldAmong?(hashes: readonly string[]): Promise<Set<string>>;
  /** Versions were pruned: their blobs can be collected. */
  afterDeletion?(): void;
}

/** A copy made outside a mirror run (a fidelity check's repair), stored already. */
export interface StoredCopy {
  manifestHash: string;
  stats: Pick<MirrorStats, 'pages' | 'assets' | 'bytes'>;
  failed: number;
  title?: string | undefined;
}

/**
 * What the jobs of other modules (customize, thumbnails, fidelity checks) read and write of a
 * site's versions: the sites module's tables stay behind this service.
 */
export function createSiteVersions(deps: SiteVersionsDeps) {
  const { db, blobs } = deps;

  /** Deletes the site's versions beyond what its owner's plan keeps (issue 30, item 1). */
  async function prune(siteId: string): Promise<number> {
    const pruned = await pruneVersions(
      { db, heldAmong: deps.heldAmong ?? (async () => new Set<string>()) },
      siteId,
    );
    if (pruned > 0) deps.afterDeletion?.();
    return pruned;
  }

  return {
    prune,

    /** The manifest a version serves; none while it has not completed. */
    loadManifest(versionId: string): Promise<Manifest | undefined> {
      return loadManifest(db, blobs, versionId);
    },

    /** Stores a manifest; its hash goes into the version row. */
    saveManifest(manifest: Manifest): Promise<string> {
      return saveManifest(blobs, manifest);
    },

    /** A version with its site's owner, or none when it was deleted. */
    find(versionId: string) {
      return findVersionWithOwner(db, versionId);
    },

    /**
     * Marks a step's version completed, in the caller's transaction (`trx`) together with the
     * rest of what the step changes.
     */
    complete: completeVersion,

    /** Records a version's thumbnail with its bytes (they count against the owner's storage). */
    async setThumbnail(versionId: string, hash: string): Promise<void> {
      const size = (await readBlob(blobs, hash)).length;
      return setVersionThumbnail(db, versionId, hash, size);
    },

    /**
     * Publishes a repaired copy of the live version `checkedId` as a new live version; null when
     * that version is not live any more, the site may not publish (the publish gate: beyond its
     * owner's plan) or `admit` refuses the copy (the storage allowance).
     */
    async publishRepair(
      siteId: string,
      checkedId: string,
      copy: StoredCopy,
      changes: string[],
      admit: (versionId: string) => Promise<string | null>,
    ): Promise<string | null> {
      const versionId = randomUUID();
      const created = await db.transaction().execute(async (trx) => {
        const site = await findSite(trx, siteId);
        if (site?.live_version_id !== checkedId) return false;
        if (await publishRefusal(trx, siteId)) return false;
        await insertRepairVersion(trx, { id: versionId, siteId, baseVersionId: checkedId });
        return true;
      });
      if (!created) return null;
      const refused = await admit(versionId);
      const published =
        !refused &&
        (await db.transaction().execute(async (trx) => {
          const site = await findSite(trx, siteId);
          if (site?.live_version_id !== checkedId) return false;
          if (await publishRefusal(trx, siteId)) return false;
          await completeVersion(
            trx,
            versionId,
            { ...copy, title: copy.title, finishedAt: new Date().toISOString() },
            { changes: JSON.stringify(changes) },
          );
          await setLiveVersion(trx, siteId, versionId);
          return true;
        }));
      if (!published) {
        await deleteVersion(db, versionId);
        return null;
      }
      await prune(siteId);
      return versionId;
    },
  };
}

export type SiteVersions = ReturnType<typeof createSiteVersions>;
