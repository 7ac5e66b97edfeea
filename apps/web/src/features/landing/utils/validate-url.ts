import { normalizeSourceUrl } from '@mirror/contract';

export type UrlCheck = { ok: true; url: string } | { ok: false; errorKey: string };

/** Required, trimmed, trailing slash removed, https:// added, must parse (SPEC §5). */
export function checkSourceUrl(input: string): UrlCheck {
  if (input.trim() === '') return { ok: false, errorKey: 'hero.url.required' };
  const url = normalizeSourceUrl(input);
  return url ? { ok: true, url } : { ok: false, errorKey: 'hero.url.invalid' };
}
