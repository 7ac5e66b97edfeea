/**
 * Hero URL rules (SPEC §5): trimmed, trailing slash removed, `https://` prepended when there is no
 * http(s) scheme but the text contains a dot. Returns null when the result does not parse as a URL.
 */
export function withAutoPrefix(input: string): string {
  const trimmed = input.trim();
  if (trimmed === '' || /^https?:\/\//i.test(trimmed) || !trimmed.includes('.')) return trimmed;
  return `https://${trimmed}`;
}

export function normalizeSourceUrl(input: string): string | null {
  const prefixed = withAutoPrefix(input).replace(/\/+$/, '');
  if (prefixed === '') return null;
  try {
    const url = new URL(prefixed);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (!url.hostname.includes('.') && url.hostname !== 'localhost') return null;
    return prefixed;
  } catch {
    return null;
  }
}

/** Park-domain rule (SPEC §5): dot-separated labels of 1-63 letters, digits, hyphens; 2-6 letter TLD. */
export const DOMAIN_NAME_PATTERN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,6}$/i;

export function isValidDomainName(value: string): boolean {
  return DOMAIN_NAME_PATTERN.test(value.trim());
}
