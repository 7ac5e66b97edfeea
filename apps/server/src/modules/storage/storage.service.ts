import {
  BLOB_PRESENCE_TTL_MS,
  readBlob,
  type Manifest,
  type StoredBlob,
  type SweepableBlobStore,
} from '@mirror/engine';
import { PLAN_STORAGE_BYTES, STORAGE_MESSAGES, type PlanId } from '@mirror/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/database.js';
import { AppError } from '../../errors.js';
import {
  deleteVersionBlobs,
  forgetFailedVersions,
  insertVersionBlobs,
  oldestRunSince,
  referencedAmong,
  usedBytes,
  versionsToIndex,
} from './storage.repository.js';

/**
 * A blob nothing refers to is deleted only once it was last written longer ago than this: a store
 * may skip writing a body it remembers holding for `BLOB_PRESENCE_TTL_MS`, so a blob written again
 * within this time may be about to be referred to.
 */
export const SWEEP_GRACE_MS = 3 * BLOB_PRESENCE_TTL_MS;
/** A run row older than this in a running state belongs to a run that died (runs last ≤ 1 h). */
const DEAD_RUN_MS = 24 * 3_600_000;
/** Temporary files of unfinished writes are left this long (a large body may stream for an hour). */
const TEMPORARY_GRACE_MS = 2 * 3_600_000;
/** Blobs asked about in one query. */
const SWEEP_BATCH = 500;

export interface StorageDeps {
  db: Db;
  blobs: SweepableBlobStore;
  log: FastifyBaseLogger;
}

export interface SweepResult {
  /** Blobs looked at, deleted, and the bytes that freed. */
  listed: number;
  removed: number;
  freedBytes: number;
  temporaries: number;
}

/**
 * Storage per account and the garbage collector (issue 18). Every completed version lists the blobs
 * it holds (`version_blobs`): what an account uses is the distinct bytes of its versions, checked
 * against its plan before a run and before a finished copy is published; a blob no version,
 * thumbnail or screenshot refers to is deleted by a mark-and-sweep pass over the store (periodic,
 * and right after a deletion), which leaves alone anything a run in progress may still refer to.
 */
export function createStorageService(deps: StorageDeps) {
  const { db, blobs, log } = deps;

  /** The blobs of a version: its manifest, and every body it serves (and the source of each page). */
  async function blobsOf(manifestHash: string): Promise<Map<string, number>> {
    const held = new Map<string, number>();
    if (!(await blobs.has(manifestHash))) {
      // The manifest itself is gone: nothing else of the version can be served or protected.
      held.set(manifestHash, 0);
      return held;
    }
    const raw = await readBlob(blobs, manifestHash);
    held.set(manifestHash, raw.length);
    const manifest = JSON.parse(raw.toString('utf8')) as Manifest;
    for (const entry of manifest.entries) {
      held.set(entry.hash, entry.size);
      // The body as fetched is about the size of the page served (a rewritten copy of it).
      if (entry.sourceHash && !held.has(entry.sourceHash)) held.set(entry.sourceHash, entry.size);
    }
    return held;
  }

  async function indexVersion(versionId: string, manifestHash: string): Promise<void> {
    await insertVersionBlobs(db, versionId, await blobsOf(manifestHash));
  }

  /** Lists the blobs of every completed version not listed yet. */
  async function indexPending(): Promise<number> {
    let indexed = 0;
    for (;;) {
      const batch = await versionsToIndex(db, 50);
      if (batch.length === 0) return indexed;
      for (const version of batch) await indexVersion(version.id, version.manifest_hash);
      indexed += batch.length;
    }
  }

  /** What the owner's sites hold, and what the plan allows. */
  async function usage(
    ownerId: string,
    plan: PlanId,
  ): Promise<{ usedBytes: number; limitBytes: number }> {
    await indexPending();
    return { usedBytes: await usedBytes(db, ownerId), limitBytes: PLAN_STORAGE_BYTES[plan] };
  }

  return {
    usage,

    /** Before a run: refused once the owner's storage is used up. */
    async assertRoom(ownerId: string, plan: PlanId): Promise<void> {
      const { usedBytes: used, limitBytes } = await usage(ownerId, plan);
      if (used >= limitBytes)
        throw new AppError('storage_full', 403, STORAGE_MESSAGES.full(used, limitBytes));
    },

    /**
     * A finished copy, before it completes: lists its blobs and checks the owner's storage with it.
     * Answers the message to fail the run with when it would go over the plan (its list is dropped
     * again, so it counts for nothing); null when it fits. Visitors' demos are not counted.
     */
    async admitVersion(
      owner: { id: string; plan: PlanId } | null,
      versionId: string,
      manifestHash: string,
    ): Promise<string | null> {
      await indexVersion(versionId, manifestHash);
      if (!owner) return null;
      await indexPending();
      const needed = await usedBytes(db, owner.id, versionId);
      const limit = PLAN_STORAGE_BYTES[owner.plan];
      if (needed <= limit) return null;
      await deleteVersionBlobs(db, versionId);
      return STORAGE_MESSAGES.wouldExceed(needed, limit);
    },

    /**
     * One mark-and-sweep pass: deletes every stored blob nothing refers to that was last written
     * before the grace period and before the oldest run in progress started.
     */
    async sweep(now = new Date()): Promise<SweepResult> {
      await forgetFailedVersions(db);
      await indexPending();
      const oldestRun = await oldestRunSince(
        db,
        new Date(now.getTime() - DEAD_RUN_MS).toISOString(),
      );
      const start = oldestRun ? Math.min(now.getTime(), Date.parse(oldestRun)) : now.getTime();
      const writtenBefore = new Date(start - SWEEP_GRACE_MS);
      const result: SweepResult = { listed: 0, removed: 0, freedBytes: 0, temporaries: 0 };
      let batch: StoredBlob[] = [];
      const flush = async () => {
        const referenced = await referencedAmong(
          db,
          batch.map((b) => b.hash),
        );
        for (const blob of batch) {
          if (referenced.has(blob.hash)) continue;
          if (await blobs.remove(blob.hash, writtenBefore)) {
            result.removed++;
            result.freedBytes += blob.size;
          }
        }
        batch = [];
      };
      for await (const blob of blobs.list()) {
        result.listed++;
        if (blob.modifiedAt.getTime() >= writtenBefore.getTime()) continue;
        batch.push(blob);
        if (batch.length >= SWEEP_BATCH) await flush();
      }
      await flush();
      result.temporaries = await blobs.removeTemporaries(
        new Date(now.getTime() - TEMPORARY_GRACE_MS),
      );
      log.info({ ...result, writtenBefore: writtenBefore.toISOString() }, 'storage swept');
      return result;
    },
  };
}

export type StorageService = ReturnType<typeof createStorageService>;
