export * from './types.js';
export { createUrlMapper, FOREIGN_PREFIX, type UrlMapper } from './url-map.js';
export {
  mirror,
  MirrorError,
  DEFAULTS as MIRROR_DEFAULTS,
  type MirrorErrorCode,
  type MirrorFailure,
} from './crawl/mirror.js';
export { exportStatic, exportPathOf } from './export/export-static.js';
export { agreedQueryVariants } from './query-variants.js';
export { MINIMUM_NODE, unsupportedNode } from './node-version.js';
export { homeTitle } from './home-title.js';
export * from './forms/index.js';
export { createFsBlobStore } from './storage/fs-blob-store.js';
export { createMemoryBlobStore } from './storage/memory-blob-store.js';
export { readBlob, BLOB_PRESENCE_TTL_MS, createPresenceCache } from './storage/blob-utils.js';
export * from './net/index.js';
export * from './references/index.js';
export * from './render/index.js';
export * from './fidelity/index.js';
export * from './changes/index.js';
export {
  writeVersionArchive,
  type ArchiveFormat as VersionArchiveFormat,
  type VersionArchiveOptions,
  type VersionArchiveResult,
} from './export/export-archive.js';
export { importArchive, type ImportArchiveOptions } from './crawl/import-archive.js';
export { readCaptureLog, type CapturedResponses } from './crawl/capture-log.js';
export * from './archive/index.js';
export { createVersionClient } from './export/version-client.js';
