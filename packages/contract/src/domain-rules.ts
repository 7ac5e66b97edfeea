import type { PlanId } from './plans.js';
import { DOMAIN_NAME_PATTERN } from './url.js';

/**
 * Domains (issue 8): custom domains attached to sites and parked domains, both verified through
 * DNS. Zod-free like `site-rules.ts`: the web imports these constants and texts without pulling the
 * schemas of `domains.ts` (and zod) into its bundles.
 */

/** `pending` until DNS is right; `misconfigured` when a record points somewhere else. */
export const DOMAIN_STATUSES = ['pending', 'misconfigured', 'active'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

export const DOMAIN_KINDS = ['custom', 'parked'] as const;
export type DomainKind = (typeof DOMAIN_KINDS)[number];

/** `ALIAS` appears only when the server has no fixed addresses for apex domains (SITES_IPV4). */
export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'ALIAS', 'TXT'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

/** routing: the domain reaches us; www: the www companion of an apex; ownership: the TXT proof. */
export const DNS_RECORD_PURPOSES = ['routing', 'www', 'ownership'] as const;
export type DnsRecordPurpose = (typeof DNS_RECORD_PURPOSES)[number];

/** Per record: present and right, not there (yet), or there with another value. */
export const DNS_RECORD_STATES = ['ok', 'missing', 'wrong'] as const;
export type DnsRecordState = (typeof DNS_RECORD_STATES)[number];

/** Why a domain is not active; the answer's `reason` says it in words, with the values found. */
export const DOMAIN_PROBLEMS = [
  /** pending: the routing records are not visible yet. */
  'records_missing',
  /** pending: the TXT ownership record is missing or has another token. */
  'txt_missing',
  /** pending: our DNS servers could not be asked (timeout, SERVFAIL); nothing is concluded. */
  'dns_unreachable',
  /** misconfigured: the domain points at another host or address. */
  'wrong_target',
  /** misconfigured: the domain is proxied through a CDN, which hides our server. */
  'cdn_proxy',
  /** misconfigured: a CAA record does not allow our certificate authority. */
  'caa_forbidden',
  /** misconfigured: some records point at us and others elsewhere. */
  'conflicting_records',
] as const;
export type DomainProblem = (typeof DOMAIN_PROBLEMS)[number];

/** For an apex domain: which of `example.com` and `www.example.com` redirects to the other. */
export const WWW_REDIRECTS = ['www-to-apex', 'apex-to-www'] as const;
export type WwwRedirect = (typeof WWW_REDIRECTS)[number];
export const DEFAULT_WWW_REDIRECT: WwwRedirect = 'www-to-apex';

/** The TXT ownership record lives at `_mirror-challenge.<domain>`. */
export const DNS_CHALLENGE_LABEL = '_mirror-challenge';
/** Its value: this prefix and the domain's token. */
export const DNS_CHALLENGE_PREFIX = 'mirror-verification=';

export const PARKING_TEMPLATES = ['default', 'minimalist', 'contact-form', 'custom'] as const;
export type ParkingTemplate = (typeof PARKING_TEMPLATES)[number];

/** SPEC §9: ads and affiliate are coming soon; the server refuses them until they are built. */
export const MONETIZATION_OPTIONS = ['none', 'ads', 'affiliate'] as const;
export type Monetization = (typeof MONETIZATION_OPTIONS)[number];
export const COMING_SOON_MONETIZATION: readonly Monetization[] = ['ads', 'affiliate'];

/** What visitors of a parked page can send its owner. */
export const PARKED_MESSAGE_KINDS = ['contact', 'offer'] as const;
export type ParkedMessageKind = (typeof PARKED_MESSAGE_KINDS)[number];

/** Parked domains an account may keep (custom domains are `PLANS[…].limits.customDomains`). */
export const PARKED_DOMAIN_LIMITS: Readonly<Record<PlanId, number>> = {
  free: 3,
  pro: 25,
  agency: 100,
};

/**
 * Domains waiting for their first verification (never verified) an account may hold at once, all
 * kinds together (issue 18): a claim costs nothing, so a pending one must not hold a name for long
 * nor in bulk. Below the free plan's three parked domains, so the third waits for one to verify.
 */
export const PENDING_DOMAIN_CLAIM_LIMITS: Readonly<Record<PlanId, number>> = {
  free: 2,
  pro: 10,
  agency: 50,
};

/** A claim not verified within this many days is removed (verified domains never expire). */
export const DOMAIN_CLAIM_EXPIRY_DAYS = 7;

export const DOMAIN_NAME_MAX_LENGTH = 253;
export const CUSTOM_HTML_MAX_LENGTH = 100_000;
export const PARKING_MESSAGE_MAX_LENGTH = 500;
/** Asking price of a domain for sale, whole US dollars. */
export const ASKING_PRICE_MAX_USD = 100_000_000;

export const DOMAIN_MESSAGES = {
  // SPEC §5 (park domain form) and the server's own validation.
  required: 'Domain name is required',
  invalid: 'Invalid domain name format (e.g., example.com)',
  tooLong: `Domain names are at most ${DOMAIN_NAME_MAX_LENGTH} characters long.`,
  reserved: 'This domain belongs to Mirror and cannot be added.',
  takenByOther: 'This domain is already connected to another account.',
  /** The 409 for a domain another account claimed but never verified: how to prove it is yours. */
  takenProveOwnership: (host: string, value: string) =>
    `This domain is already connected to another account. It has not been verified there: if the domain is yours, add a TXT record named ${host} with the value ${value} to its DNS, then add the domain again. The first account to prove ownership gets the domain.`,
  /**
   * The 409 for a domain another account verified once: how to take it over when that account no
   * longer passes verification (its TXT record gone and nothing pointing at Mirror).
   */
  takenVerifiedProveOwnership: (host: string, value: string) =>
    `This domain is already connected to another account. If the domain is yours, add a TXT record named ${host} with the value ${value} to its DNS, then add the domain again. It moves to your account once that account's verification no longer holds: no other mirror-verification value in that TXT record, and no record of the domain pointing to Mirror.`,
  /** The 409 when the caller proved ownership but the verified holder still passes verification. */
  takenStillVerified: (host: string) =>
    `This domain is already connected to another account, and its DNS still verifies it there. To move it to your account, remove the other mirror-verification value from the TXT record ${host} and point the domain away from Mirror, then add the domain again (you can point it back afterwards).`,
  pendingClaimLimit: (limit: number) =>
    `Your plan allows ${limit} domains waiting for DNS verification at a time. Finish verifying one, or remove one, before adding another.`,
  alreadyYours: 'This domain is already in your account.',
  customDomainsNeedPlan:
    'Custom domains are available on Mirror Pro (2 domains) and Mirror Agency (15 domains). Upgrade to connect your own domain.',
  customDomainLimit: (limit: number) =>
    `Your plan allows ${limit} custom domains and all are in use. Upgrade or remove a domain to add another.`,
  parkedDomainLimit: (limit: number) =>
    `Your plan allows ${limit} parked domains and all are in use. Upgrade or remove a parked domain to park another.`,
  notFound: 'Domain not found.',
  siteNotFound: 'Site not found.',
  monetizationComingSoon: 'Ads and affiliate monetization are coming soon. Choose "none" for now.',
  contentRequired: 'Please provide the HTML of your custom parking page.',
  templateUnknown: `Unknown parking page template. Choose one of: ${PARKING_TEMPLATES.join(', ')}.`,
  contentTooLong: `Custom HTML can be at most ${CUSTOM_HTML_MAX_LENGTH.toLocaleString('en-US')} characters long.`,
  messageTooLong: `The message can be at most ${PARKING_MESSAGE_MAX_LENGTH} characters long.`,
  askingPriceInvalid: `The asking price must be a whole number of dollars from 1 to ${ASKING_PRICE_MAX_USD.toLocaleString('en-US')}.`,
  askingPriceRequired: 'Please give an asking price for a domain that is for sale.',
  projectIdInvalid: 'Project ids use 1-64 letters, digits, dots, underscores and hyphens.',
  wwwOnlyForApex: 'The www redirect applies to apex domains (such as example.com) only.',
  checkRateLimited: 'Too many DNS checks. Please wait a minute and try again.',
  deleted: 'Domain removed.',
  // SPEC §8 fallbacks of the domain store, shown when the server sends no message.
  parkFailed: 'Domain parking failed',
  updateFailed: 'Domain update failed',
  fetchFailed: 'Failed to fetch domains',
  checkFailed: 'Domain availability check failed',
  deployFailed: 'Deployment failed',
  deleteFailed: 'Failed to delete domain',
  analyticsFailed: 'Failed to fetch analytics',
  // SPEC §8 screen messages.
  parkScreenFailed: 'Failed to park domain',
  parked: (domain: string) => `Domain ${domain} parked successfully!`,
  dnsCopied: 'DNS record copied to clipboard!',
  dnsCopyFailed: 'Failed to copy DNS record',
  dnsCheckFailed: 'Failed to check DNS status',
  dnsPropagating: 'DNS propagation is still in progress. Please check again in a few minutes.',
  /** SPEC §9: DNS changes may take up to 24 hours. */
  propagationNote: 'DNS changes may take up to 24 hours to propagate.',
} as const;

/** Trimmed, lower case, without the trailing dot of a fully qualified name. */
export function normalizeDomainName(value: string): string {
  return value.trim().toLowerCase().replace(/\.$/, '');
}

/** The SPEC §5 message for a domain name, or null when it is valid. */
export function domainNameError(value: string): string | null {
  const domain = normalizeDomainName(value);
  if (domain === '') return DOMAIN_MESSAGES.required;
  if (domain.length > DOMAIN_NAME_MAX_LENGTH) return DOMAIN_MESSAGES.tooLong;
  return DOMAIN_NAME_PATTERN.test(domain) ? null : DOMAIN_MESSAGES.invalid;
}

/** Where the TXT ownership record of a domain lives. */
export function challengeHostOf(domain: string): string {
  return `${DNS_CHALLENGE_LABEL}.${domain}`;
}
