/**
 * A repair for the fidelity check: pages captured again, one small run each (the page alone, with
 * the render tier, the site's last manifest as `previous` so unchanged files are revalidated
 * rather than downloaded), merged into the manifest. The CLI exports the result again; the
 * server's job would store it as a new version.
 */
import { mirror } from '../crawl/mirror.js';
import type { FailureReason, Manifest, MirrorOptions } from '../types.js';

export type RecaptureOptions = Omit<
  MirrorOptions,
  'url' | 'previous' | 'maxPages' | 'maxDepth' | 'onProgress'
>;

/** The manifest with `patch`'s files in (a path in both takes `patch`'s), and what it fixed. */
export function mergeManifests(base: Manifest, patch: Manifest): Manifest {
  const entries = new Map(base.entries.map((e) => [e.path, e]));
  for (const entry of patch.entries) entries.set(entry.path, entry);
  const fixed = new Set(patch.entries.filter((e) => e.status < 400).map((e) => e.url));
  const failures = base.failures.filter((f) => !fixed.has(f.url));
  let failureCounts = base.failureCounts;
  if (failureCounts) {
    failureCounts = { ...failureCounts };
    for (const gone of base.failures.filter((f) => fixed.has(f.url))) {
      const reason: FailureReason = gone.reason;
      failureCounts[reason] = Math.max(0, (failureCounts[reason] ?? 0) - 1);
    }
  }
  return {
    ...base,
    entries: [...entries.values()],
    failures,
    ...(failureCounts ? { failureCounts } : {}),
  };
}

/**
 * Captures each URL again (`render: 'always'` unless said otherwise) and merges it into the
 * manifest, one after the other. A page that fails to be captured again leaves the manifest as it
 * was for it; the error goes to `onError`.
 */
export async function recapturePages(
  manifest: Manifest,
  urls: readonly string[],
  options: RecaptureOptions & { onError?: (url: string, error: unknown) => void },
): Promise<Manifest> {
  const { onError, ...mirrorOptions } = options;
  let current = manifest;
  for (const url of urls) {
    try {
      const patch = await mirror({
        render: 'always',
        ...mirrorOptions,
        url,
        previous: current,
        maxPages: 1,
        maxDepth: 0,
      });
      current = mergeManifests(current, patch);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      onError?.(url, error);
    }
  }
  if (current !== manifest && current.notes.length < 50) {
    current = {
      ...current,
      notes: [...current.notes, `Captured again after the fidelity check: ${urls.join(', ')}`],
    };
  }
  return current;
}
