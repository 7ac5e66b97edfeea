import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
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
  completedManifest,
  deleteHolds,
  deleteStaleHolds,
  deleteStaleSweepMarks,
  deleteSweepMarks,
  deleteVersionBlobs,
  forgetFailedVersions,
  forgetOrphanThumbnails,
  heldAmong,
  insertHolds,
  insertSweepMarks,
  insertVersionBlobs,
  markedAmong,
  oldestRunSince,
  referencedAmong,
  setMeasuredSize,
  unmeasuredBlobs,
  usedBytes,
  versionBlobHashes,
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
/** Blobs a sweep marks at a time before deleting them (each mark is a few seconds of deletes). */
const MARK_BATCH = 50;
/**
 * A sweep deletes a marked blob only this soon after marking it, and a run taking a hold waits at
 * most `HOLD_WAIT_MS` for a mark to go: past that the sweep has finished with the blob or stopped.
 */
const MARK_DELETES_WITHIN_MS = 20_000;
const HOLD_WAIT_MS = 120_000;
/** Marks older than this were left by a sweep that died (clocks of two processes may differ). */
const MARK_STALE_MS = 10 * 60_000;

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
 * it holds (`version_blobs`): what an account uses is the distinct bytes of its versions, of their
 * fidelity screenshots and of their thumbnails (issue 30, item 1), checked against its plan before
 * a run and before a finished copy is published; a blob no version, thumbnail, screenshot or run
 * refers to is deleted by a mark-and-sweep pass over the store (periodic, and right after a
 * deletion), which leaves alone anything a run in progress may still refer to.
 *
 * A run that refers to a blob without writing it (a 304 revalidation against the last version, the
 * files a replaced draft added, an upload, a repair's previous copy) holds it from the moment it
 * takes it (issue 30, item 8): `holdVersion` and `hold` write the hold first and then make sure no
 * sweep is deleting the blob right now (a sweep marks what it is about to delete, then looks for
 * holds once more, so one of the two always sees the other); `release` drops a run's holds when its
 * version is listed or it failed.
 */
export function createStorageService(deps: StorageDeps) {
  const { db, blobs, log } = deps;

  /**
   * The blobs of a version: its manifest, every body it serves (and the source of each page), and
   * its run's capture log (the responses as answered, for WARC export).
   */
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
    if (manifest.capture) held.set(manifest.capture.hash, manifest.capture.size);
    return held;
  }

  async function indexVersion(versionId: string, manifestHash: string): Promise<void> {
    await insertVersionBlobs(db, versionId, await blobsOf(manifestHash));
  }

  /** Lists the blobs of every completed version not listed yet, and sizes what is not sized yet. */
  async function indexPending(): Promise<number> {
    let indexed = 0;
    for (;;) {
      const batch = await versionsToIndex(db, 50);
      if (batch.length === 0) break;
      for (const version of batch) await indexVersion(version.id, version.manifest_hash);
      indexed += batch.length;
    }
    for (;;) {
      const hashes = await unmeasuredBlobs(db, 50);
      if (hashes.length === 0) return indexed;
      for (const hash of hashes) {
        const size = (await blobs.has(hash)) ? (await readBlob(blobs, hash)).length : 0;
        await setMeasuredSize(db, hash, size);
      }
    }
  }

  /**
   * Holds `hashes` for `holder` and waits out a sweep that may be deleting one of them right now;
   * answers the hashes the store does not have (any more). What is held and present stays.
   */
  async function hold(holder: string, hashes: readonly string[]): Promise<Set<string>> {
    const list = [...new Set(hashes)];
    if (list.length === 0) return new Set();
    await insertHolds(db, holder, list, new Date().toISOString());
    // A sweep that marked a blob before our hold was visible may still delete it: wait until it
    // has finished with it (it deletes only within MARK_DELETES_WITHIN_MS of its mark).
    const waitUntil = Date.now() + HOLD_WAIT_MS;
    for (;;) {
      const since = new Date(Date.now() - MARK_STALE_MS).toISOString();
      if ((await markedAmong(db, list, since)).size === 0 || Date.now() > waitUntil) break;
      await sleep(100);
    }
    const missing = new Set<string>();
    for (const hash of list) if (!(await blobs.has(hash))) missing.add(hash);
    return missing;
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
    hold,

    /**
     * Holds every blob of a completed version for `holder` (a run reusing that version's files).
     * False when the version is gone (or was never completed): then nothing of it can be relied on.
     */
    async holdVersion(holder: string, versionId: string): Promise<boolean> {
      let hashes = await versionBlobHashes(db, versionId);
      if (hashes.length === 0) {
        const manifestHash = await completedManifest(db, versionId);
        if (!manifestHash) return false;
        await indexVersion(versionId, manifestHash);
        hashes = await versionBlobHashes(db, versionId);
      }
      await insertHolds(db, holder, hashes, new Date().toISOString());
      // Still there after the holds are visible: its list protected every blob until then, the
      // holds from then on.
      return (await completedManifest(db, versionId)) !== undefined;
    },

    /** Drops a run's holds: its version lists what it kept, or it failed. */
    release(holder: string): Promise<void> {
      return deleteHolds(db, holder);
    },

    /** Which of `hashes` this run holds. */
    heldBy(holder: string, hashes: readonly string[]): Promise<Set<string>> {
      return heldAmong(db, hashes, holder);
    },

    /** Which of `hashes` a run in progress holds (versions whose manifest is held are kept). */
    heldAmong(hashes: readonly string[]): Promise<Set<string>> {
      return heldAmong(db, hashes);
    },

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
      const sweepId = randomUUID();
      await forgetFailedVersions(db);
      await forgetOrphanThumbnails(db);
      await deleteStaleHolds(db, new Date(now.getTime() - DEAD_RUN_MS).toISOString());
      await deleteStaleSweepMarks(db, new Date(Date.now() - 6 * MARK_STALE_MS).toISOString());
      await indexPending();
      const oldestRun = await oldestRunSince(
        db,
        new Date(now.getTime() - DEAD_RUN_MS).toISOString(),
      );
      const start = oldestRun ? Math.min(now.getTime(), Date.parse(oldestRun)) : now.getTime();
      const writtenBefore = new Date(start - SWEEP_GRACE_MS);
      const result: SweepResult = { listed: 0, removed: 0, freedBytes: 0, temporaries: 0 };
      let batch: StoredBlob[] = [];
      /**
       * Marks the candidates, then asks once more whether anything refers to them: a run that took
       * a hold before the mark is seen here, one that takes it after sees the mark and waits.
       */
      const removeMarked = async (candidates: StoredBlob[]) => {
        const markedAt = Date.now();
        const hashes = candidates.map((b) => b.hash);
        await insertSweepMarks(db, sweepId, hashes, new Date(markedAt).toISOString());
        try {
          const referenced = await referencedAmong(db, hashes);
          for (const blob of candidates) {
            if (referenced.has(blob.hash)) continue;
            if (Date.now() - markedAt > MARK_DELETES_WITHIN_MS) break;
            if (await blobs.remove(blob.hash, writtenBefore)) {
              result.removed++;
              result.freedBytes += blob.size;
            }
          }
        } finally {
          await deleteSweepMarks(db, sweepId);
        }
      };
      const flush = async () => {
        const referenced = await referencedAmong(
          db,
          batch.map((b) => b.hash),
        );
        const candidates = batch.filter((blob) => !referenced.has(blob.hash));
        for (let i = 0; i < candidates.length; i += MARK_BATCH)
          await removeMarked(candidates.slice(i, i + MARK_BATCH));
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
