import type { ArchiveImportResponse } from '@mirror/contract';
import { uploadForm } from '../../../lib/api-client';

/**
 * "Host an archive" (docs/archives.md): uploads a WACZ or WARC as a new site, reporting the
 * upload's progress. The server reads the archive before it answers; a bad one is answered with
 * what is wrong with it and nothing is kept.
 */
export function hostArchive(
  file: File,
  options: { url?: string; onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<ArchiveImportResponse> {
  const form = new FormData();
  if (options.url) form.append('url', options.url);
  form.append('file', file, file.name);
  return uploadForm<ArchiveImportResponse>('/domains/clone/archive', form, {
    defaultMessage: 'Could not host the archive',
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}
