import {
  CUSTOM_HTML_MAX_LENGTH,
  DOMAIN_NAME_MAX_LENGTH,
  DOMAIN_NAME_PATTERN,
  normalizeDomainName,
  type Monetization,
  type ParkDomainBody,
  type ParkingTemplate,
} from '@mirror/contract';
import type { FieldErrors } from '../../../hooks/use-validated-form';

export type ParkField = 'domain' | 'template' | 'content' | 'monetization';
export type ParkValues = Record<ParkField, string>;

export const INITIAL_PARK_VALUES: ParkValues = {
  domain: '',
  template: 'default',
  content: '',
  monetization: 'none',
};

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

/** The custom template needs its HTML, within the server's size limit. */
export function validateCustomHtml(template: string, content: string): string | undefined {
  if (template !== 'custom') return undefined;
  if (content.trim() === '') return 'domains.validation.contentRequired';
  if (content.length > CUSTOM_HTML_MAX_LENGTH) return 'domains.validation.contentTooLong';
  return undefined;
}

export function validatePark(values: ParkValues): FieldErrors<ParkField> {
  return {
    domain: validateDomainName(values.domain),
    content: validateCustomHtml(values.template, values.content),
  };
}

/** The POST /domains/park body: HTML only for the custom template (SPEC §3). */
export function toParkBody(values: ParkValues): ParkDomainBody {
  const template = values.template as ParkingTemplate;
  return {
    domain: normalizeDomainName(values.domain),
    template,
    ...(template === 'custom' ? { content: values.content } : {}),
    monetization: values.monetization as Monetization,
  };
}
