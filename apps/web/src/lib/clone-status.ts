import { CLONE_STATUS_TEXTS, CUSTOMIZE_STATUS_TEXTS, type CloneStatus } from '@mirror/contract';

// Types and plain constants only: the contract's zod schemas stay out of the browser bundle.
// The status call itself is `fetchCloneStatus` in api/sites.ts.

/** A run that may still change: the status is worth polling. */
export function isRunningStatus(status: CloneStatus): boolean {
  return status === 'pending' || status === 'processing' || status === 'completing';
}

export function isSettledStatus(status: CloneStatus): boolean {
  return status === 'completed' || status === 'failed';
}

/** Each known progress text → its i18n key: mirror runs, then customization and rewrite runs. */
const TEXT_KEYS = new Map<string, string>([
  ...Object.entries(CLONE_STATUS_TEXTS).map(
    ([key, text]) => [text, `mirror.progress.${key}`] as const,
  ),
  ...Object.entries(CUSTOMIZE_STATUS_TEXTS).map(
    ([key, text]) => [text, `mirror.customizeProgress.${key}`] as const,
  ),
]);

/**
 * The i18n key of a progress text (`cloning website` → `mirror.progress.cloning`); null for a text
 * the app does not know, which is then shown as the server wrote it.
 */
export function progressTextKey(currentStatus: string): string | null {
  return TEXT_KEYS.get(currentStatus) ?? null;
}

/** The translated progress text, or the server's own words for an unknown one. */
export function translateProgressText(
  t: (key: string, vars?: Record<string, string | number>) => string,
  currentStatus: string,
): string {
  const key = progressTextKey(currentStatus);
  return key ? t(key) : currentStatus;
}
