import { readBlob, type BlobStore, type Manifest } from '@mirror/engine';
import type { Db } from '../../platform/db/database.js';

async function* bytesOf(text: string): AsyncIterable<Uint8Array> {
  yield Buffer.from(text, 'utf8');
}

/** A manifest is stored as a JSON blob; the version row keeps its hash. */
export async function saveManifest(blobs: BlobStore, manifest: Manifest): Promise<string> {
  return (await blobs.put(bytesOf(JSON.stringify(manifest)))).hash;
}

export async function loadManifest(
  db: Db,
  blobs: BlobStore,
  versionId: string,
): Promise<Manifest | undefined> {
  const version = await db
    .selectFrom('site_versions')
    .select('manifest_hash')
    .where('id', '=', versionId)
    .executeTakeFirst();
  if (!version?.manifest_hash) return undefined;
  return JSON.parse((await readBlob(blobs, version.manifest_hash)).toString('utf8')) as Manifest;
}

/** A served version's manifest: one that has none is an error of the caller's. */
export async function requireManifest(
  db: Db,
  blobs: BlobStore,
  versionId: string,
): Promise<Manifest> {
  const manifest = await loadManifest(db, blobs, versionId);
  if (!manifest) throw new Error(`version ${versionId} has no manifest`);
  return manifest;
}
