/** Web archives in and out (issue 35, docs/archives.md): WARC and WACZ. */
export { ArchiveError, isArchiveError, type ArchiveErrorCode } from './errors.js';
export type {
  ArchivedResponse,
  ArchiveFormat,
  ArchiveIndex,
  ArchiveInfo,
  ArchivePage,
  CdxjLine,
  HeaderList,
  WarcInput,
  WarcResourceInput,
  WarcResponseInput,
  WarcRevisitInput,
} from './types.js';
export { formatCdxj, sortedCdxj, surtKey, timestamp14 } from './cdxj.js';
export { writeWarc, type WarcWriterInfo, type WarcWriteResult } from './warc-writer.js';
export {
  writeWacz,
  pagesJsonl,
  WACZ_VERSION,
  type WaczOptions,
  type WaczPage,
} from './wacz-writer.js';
export { openArchive, type OpenArchiveOptions } from './open-archive.js';
export { createArchiveClient } from './archive-client.js';
