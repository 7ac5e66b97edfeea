import { DOMAIN_NAME_MAX_LENGTH, DOMAIN_NAME_PATTERN, normalizeDomainName } from '@mirror/contract';

// The domain name rule of the forms that take a domain: the park form and the site's custom
// domains panel.

/** The example host in 'Invalid domain name format (e.g., {host})'. */
export const EXAMPLE_DOMAIN = 'example.com';

/** SPEC §5 domain rule; the value is an i18n key under domains.validation. */
export function validateDomainName(value: string): string | undefined {
  const domain = normalizeDomainName(value);
  if (domain === '') return 'domains.validation.required';
  if (domain.length > DOMAIN_NAME_MAX_LENGTH || !DOMAIN_NAME_PATTERN.test(domain)) {
    return 'domains.validation.invalid';
  }
  return undefined;
}
