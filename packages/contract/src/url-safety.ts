/**
 * Which addresses a customization may write into a page. Zod-free and dependency-free, so the
 * engine's pure code imports it (`@mirror/contract/url-safety`) without loading any schema.
 */

/** Attributes whose value is a URL: they get the same check as links and images. */
export const URL_ATTRIBUTES: readonly string[] = [
  'href',
  'src',
  'action',
  'formaction',
  'poster',
  'data',
  'cite',
  'background',
  'xlink:href',
];

/** True for addresses a customization may write: no script-running or document-carrying schemes. */
export function isSafeUrl(value: string): boolean {
  // Browsers ignore ASCII whitespace and control characters inside a scheme.
  // eslint-disable-next-line no-control-regex
  const squeezed = value.replace(/[\u0000-\u0020]/g, '').toLowerCase();
  if (/^(?:javascript|vbscript):/.test(squeezed)) return false;
  if (squeezed.startsWith('data:')) return squeezed.startsWith('data:image/');
  return true;
}
