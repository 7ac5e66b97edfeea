import { randomUUID } from 'node:crypto';
import type { BlobStore, Manifest, MirrorStats } from '@mirror/engine';
import type { Db } from '../../platform/db/database.js';
import { loadManifest, saveManifest } from './manifests.js';
import {
  completeVersion,
  deleteVersion,
  findSite,
  findVersionWithOwner,
  insertRepairVersion,
  setLiveVersion,
  setVersionThumbnail,
} from './sites.repository.js';

export interface SiteVersionsDeps {
  db: Db;
  blobs: BlobStore;
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
  return {
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

    setThumbnail(versionId: string, hash: string): Promise<void> {
      return setVersionThumbnail(db, versionId, hash);
    },

    /**
     * Publishes a repaired copy of the live version `checkedId` as a new live version; null when
     * that version is not live any more or `admit` refuses the copy (the storage allowance).
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
      return versionId;
    },
  };
}

export type SiteVersions = ReturnType<typeof createSiteVersions>;
