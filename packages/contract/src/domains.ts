import { z } from 'zod';
import { LOCALE_CODES } from './locales.js';
import {
  ASKING_PRICE_MAX_USD,
  COMING_SOON_MONETIZATION,
  CUSTOM_HTML_MAX_LENGTH,
  DNS_RECORD_PURPOSES,
  DNS_RECORD_STATES,
  DNS_RECORD_TYPES,
  DOMAIN_KINDS,
  DOMAIN_MESSAGES,
  DOMAIN_NAME_MAX_LENGTH,
  DOMAIN_PROBLEMS,
  DOMAIN_STATUSES,
  MONETIZATION_OPTIONS,
  PARKED_MESSAGE_KINDS,
  PARKING_MESSAGE_MAX_LENGTH,
  PARKING_TEMPLATES,
  WWW_REDIRECTS,
} from './domain-rules.js';
import { CloneRecord } from './sites.js';
import { DOMAIN_NAME_PATTERN } from './url.js';

/**
 * Domains over the API (SPEC §3, §7; issue 8): custom domains attached to sites
 * (`POST /domains/deploy`), parked domains (`POST /domains/park`), their DNS check
 * (`GET /domains/check/{domain}`) and the lists. Constants and texts are in `domain-rules.ts`.
 */

/** A domain name as SPEC §5 validates it; answered trimmed and in lower case. */
export const DomainNameField = z
  .string({ error: DOMAIN_MESSAGES.required })
  .trim()
  .toLowerCase()
  .transform((value) => value.replace(/\.$/, ''))
  .pipe(
    z
      .string()
      .min(1, { error: DOMAIN_MESSAGES.required, abort: true })
      .max(DOMAIN_NAME_MAX_LENGTH, { error: DOMAIN_MESSAGES.tooLong, abort: true })
      .regex(DOMAIN_NAME_PATTERN, { error: DOMAIN_MESSAGES.invalid }),
  );

export const DomainStatusField = z.enum(DOMAIN_STATUSES);

/** One DNS record the owner creates, with what the last check found for it. */
export const DnsRecord = z.object({
  type: z.enum(DNS_RECORD_TYPES),
  /** Relative to the DNS zone, as DNS providers ask for it: `@` for the apex, `shop`, `www`. */
  name: z.string(),
  /** The fully qualified name, e.g. `shop.example.com`. */
  host: z.string(),
  value: z.string(),
  purpose: z.enum(DNS_RECORD_PURPOSES),
  /** False for records that are recommended but not needed to activate (the www companion). */
  required: z.boolean(),
  /** `missing` until the first check. */
  status: z.enum(DNS_RECORD_STATES),
  /** Values of this type the last check found at `host` (empty before the first check). */
  found: z.array(z.string()),
});
export type DnsRecord = z.infer<typeof DnsRecord>;

/** The DNS verification state shared by custom and parked domains. */
export const DomainVerification = z.object({
  status: DomainStatusField,
  problem: z.enum(DOMAIN_PROBLEMS).nullable(),
  /** The problem in words, naming what was found and what to change. */
  reason: z.string().nullable(),
  /** The records to create. An apex domain gets A/AAAA (a CNAME at the apex is not valid DNS). */
  records: z.array(DnsRecord),
  /** A CNAME to Mirror is not valid DNS at the apex; providers with ALIAS/flattening are fine. */
  isApex: z.boolean(),
  /** Certificate authorities CAA allows for the domain (empty when it has no CAA records). */
  caa: z.object({ allowed: z.boolean(), records: z.array(z.string()) }),
  checkedAt: z.string().nullable(),
  verifiedAt: z.string().nullable(),
  /** When the server checks again by itself (null once it stopped trying: press Check Now). */
  nextCheckAt: z.string().nullable(),
});
export type DomainVerification = z.infer<typeof DomainVerification>;

/** A custom domain serving one of the user's sites (SPEC §3 domain record: id, status, …). */
export const CustomDomain = DomainVerification.extend({
  id: z.string(),
  kind: z.literal('custom'),
  domain: z.string(),
  siteId: z.string(),
  /** Where the site is served, `https://` and the canonical host (after the www redirect). */
  url: z.string(),
  wwwRedirect: z.enum(WWW_REDIRECTS),
  /** Certificates are always issued automatically for active domains. */
  sslEnabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CustomDomain = z.infer<typeof CustomDomain>;

/** A parked domain and its parking page (SPEC §3 parked domain request, plus its state). */
export const ParkedDomain = DomainVerification.extend({
  id: z.string(),
  kind: z.literal('parked'),
  domain: z.string(),
  projectId: z.string(),
  template: z.enum(PARKING_TEMPLATES),
  /** The custom template's HTML (kept while another template is chosen); null when none. */
  content: z.string().nullable(),
  monetization: z.enum(MONETIZATION_OPTIONS),
  /** The page's language; null follows the owner's language setting. */
  language: z.enum(LOCALE_CODES).nullable(),
  /** A short line shown under the domain name on the built-in templates. */
  message: z.string().nullable(),
  forSale: z.boolean(),
  /** Whole US dollars; shown when the domain is for sale. */
  askingPrice: z.number().int().nullable(),
  url: z.string(),
  /** Contact messages and offers received. */
  messageCount: z.number().int(),
  /**
   * The parking page's audience over the last `PARKED_VISITS_DAYS` days (today included): people
   * per day summed, and page views; bots left out.
   */
  visits: z.object({ visitors: z.number().int(), pageViews: z.number().int() }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ParkedDomain = z.infer<typeof ParkedDomain>;

/** What GET /domains/check/{domain} answers: the DNS state of one of your domains. */
export const DomainCheckResponse = DomainVerification.extend({
  id: z.string(),
  kind: z.enum(DOMAIN_KINDS),
  domain: z.string(),
});
export type DomainCheckResponse = z.infer<typeof DomainCheckResponse>;

/** An item of the combined list: enough for counters and the active/pending split (SPEC §4). */
export const DomainListItem = z.object({
  id: z.string(),
  kind: z.enum(DOMAIN_KINDS),
  domain: z.string(),
  status: DomainStatusField,
  /** The site a custom domain serves; null for parked domains. */
  siteId: z.string().nullable(),
  createdAt: z.string(),
});
export type DomainListItem = z.infer<typeof DomainListItem>;

/** GET /domains: your sites (cloned items), and your custom and parked domains. */
export const DomainsOverview = z.object({
  sites: z.array(CloneRecord),
  /** Custom and parked domains together, newest first. */
  domains: z.array(DomainListItem),
  customDomains: z.array(CustomDomain),
  parkedDomains: z.array(ParkedDomain),
});
export type DomainsOverview = z.infer<typeof DomainsOverview>;

export const DomainIdParams = z.object({ id: z.string().min(1).max(64) });

/** GET /domains/parked/{id}/preview: the parking page with this template (default: the saved one). */
export const ParkingPreviewQuery = z.object({
  template: z.enum(PARKING_TEMPLATES, { error: DOMAIN_MESSAGES.templateUnknown }).optional(),
});
export type ParkingPreviewQuery = z.input<typeof ParkingPreviewQuery>;
export const DomainNameParams = z.object({ domain: z.string().min(1).max(300) });

/** POST /domains/deploy (SPEC §7): attach a domain to one of your sites. */
export const DeployBody = z.object({
  siteId: z.string({ error: DOMAIN_MESSAGES.siteNotFound }).min(1).max(64),
  domain: DomainNameField,
  /** Always on: active domains get certificates automatically (SPEC §9 "Deploys set up SSL"). */
  setupSSL: z.boolean().optional(),
  wwwRedirect: z.enum(WWW_REDIRECTS).optional(),
});
export type DeployBody = z.input<typeof DeployBody>;

/** PUT /domains/domain/{id}: serve another of your sites, or flip the www redirect. */
export const UpdateCustomDomainBody = z.object({
  siteId: z.string().min(1).max(64).optional(),
  wwwRedirect: z.enum(WWW_REDIRECTS).optional(),
});
export type UpdateCustomDomainBody = z.input<typeof UpdateCustomDomainBody>;

const ProjectIdField = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9._-]{1,64}$/, { error: DOMAIN_MESSAGES.projectIdInvalid });

const MonetizationField = z
  .enum(MONETIZATION_OPTIONS)
  .refine((value) => !COMING_SOON_MONETIZATION.includes(value), {
    error: DOMAIN_MESSAGES.monetizationComingSoon,
  });

const ContentField = z
  .string()
  .max(CUSTOM_HTML_MAX_LENGTH, { error: DOMAIN_MESSAGES.contentTooLong });

const ParkingMessageField = z
  .string()
  .trim()
  .max(PARKING_MESSAGE_MAX_LENGTH, { error: DOMAIN_MESSAGES.messageTooLong });

const AskingPriceField = z
  .number({ error: DOMAIN_MESSAGES.askingPriceInvalid })
  .int({ error: DOMAIN_MESSAGES.askingPriceInvalid })
  .min(1, { error: DOMAIN_MESSAGES.askingPriceInvalid })
  .max(ASKING_PRICE_MAX_USD, { error: DOMAIN_MESSAGES.askingPriceInvalid });

/** The page settings that POST /domains/park and PUT /domains/park/{id} share. */
const ParkingFields = {
  template: z.enum(PARKING_TEMPLATES),
  /** Only for the custom template (ignored otherwise). */
  content: ContentField.nullable(),
  monetization: MonetizationField,
  language: z.enum(LOCALE_CODES).nullable(),
  message: ParkingMessageField.nullable(),
  forSale: z.boolean(),
  askingPrice: AskingPriceField.nullable(),
};

/** POST /domains/park (SPEC §3 parked domain request). Answers the ParkedDomain (id, domain, …). */
export const ParkDomainBody = z
  .object({
    domain: DomainNameField,
    /** Generated from the time when absent (SPEC §7). */
    projectId: ProjectIdField.optional(),
    template: ParkingFields.template.default('default'),
    content: ParkingFields.content.optional(),
    monetization: ParkingFields.monetization.default('none'),
    language: ParkingFields.language.optional(),
    message: ParkingFields.message.optional(),
    forSale: ParkingFields.forSale.default(false),
    askingPrice: ParkingFields.askingPrice.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.template === 'custom' && !body.content?.trim()) {
      ctx.addIssue({ code: 'custom', path: ['content'], message: DOMAIN_MESSAGES.contentRequired });
    }
    if (body.forSale && body.askingPrice == null) {
      ctx.addIssue({
        code: 'custom',
        path: ['askingPrice'],
        message: DOMAIN_MESSAGES.askingPriceRequired,
      });
    }
  });
export type ParkDomainBody = z.input<typeof ParkDomainBody>;

/** PUT /domains/park/{id}: any of the page settings; the domain itself does not change. */
export const UpdateParkedDomainBody = z.object({
  template: ParkingFields.template.optional(),
  content: ParkingFields.content.optional(),
  monetization: ParkingFields.monetization.optional(),
  language: ParkingFields.language.optional(),
  message: ParkingFields.message.optional(),
  forSale: ParkingFields.forSale.optional(),
  askingPrice: ParkingFields.askingPrice.optional(),
});
export type UpdateParkedDomainBody = z.input<typeof UpdateParkedDomainBody>;

/** A contact message or an offer sent from a parked page (GET /domains/parked/{id}/messages). */
export const ParkedMessage = z.object({
  id: z.string(),
  kind: z.enum(PARKED_MESSAGE_KINDS),
  name: z.string(),
  email: z.string(),
  message: z.string(),
  /** The offer in whole US dollars; null for contact messages. */
  amount: z.number().int().nullable(),
  createdAt: z.string(),
});
export type ParkedMessage = z.infer<typeof ParkedMessage>;
