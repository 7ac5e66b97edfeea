import {
  CUSTOM_HTML_MAX_LENGTH,
  normalizeDomainName,
  type Monetization,
  type ParkDomainBody,
  type ParkingTemplate,
} from '@mirror/contract';
import type { FieldErrors } from '../../../hooks/use-validated-form';
import { validateDomainName } from '../../../lib/domain-name';

export type ParkField = 'domain' | 'template' | 'content' | 'monetization';
export type ParkValues = Record<ParkField, string>;

export const INITIAL_PARK_VALUES: ParkValues = {
  domain: '',
  template: 'default',
  content: '',
  monetization: 'none',
};

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
