import { createFsBlobStore, type SweepableBlobStore } from '@mirror/engine';
import type { Config } from '../../config/env.js';
import { createS3BlobStore } from './s3-blob-store.js';

/** Where blobs live: plain data, so a sandboxed run can open the same store in its own process. */
export type BlobStoreSettings = Pick<Config['mirror'], 'blobsDir' | 's3'>;

/** The blob store of the configuration: an S3-compatible bucket when set, else local files. */
export function createBlobStore(settings: BlobStoreSettings): SweepableBlobStore {
  const { s3 } = settings;
  if (!s3) return createFsBlobStore(settings.blobsDir);
  return createS3BlobStore({
    bucket: s3.bucket,
    prefix: s3.prefix,
    client: {
      region: s3.region,
      forcePathStyle: s3.forcePathStyle,
      ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
      ...(s3.credentials ? { credentials: s3.credentials } : {}),
    },
  });
}
