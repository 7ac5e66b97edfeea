import { randomInt } from 'node:crypto';
import {
  RESERVED_SUBDOMAINS,
  SITE_MESSAGES,
  SUBDOMAIN_PATTERN,
  VERSION_PREVIEW_LABEL,
} from '@mirror/contract';
import type { Kysely, Transaction } from 'kysely';
import { badRequest } from '../../errors.js';
import type { Database } from '../../platform/db/schema.js';

const ADJECTIVES = [
  'amber',
  'bright',
  'calm',
  'crisp',
  'eager',
  'fair',
  'gentle',
  'golden',
  'happy',
  'keen',
  'lucky',
  'mellow',
  'nimble',
  'proud',
  'quick',
  'quiet',
  'rapid',
  'silver',
  'steady',
  'sunny',
  'swift',
  'tidy',
  'vivid',
  'warm',
  'wise',
];
const NOUNS = [
  'brook',
  'canyon',
  'cedar',
  'cloud',
  'comet',
  'delta',
  'falcon',
  'fern',
  'harbor',
  'island',
  'lagoon',
  'maple',
  'meadow',
  'orchid',
  'otter',
  'pine',
  'prairie',
  'reef',
  'river',
  'sparrow',
  'summit',
  'tiger',
  'valley',
  'willow',
  'zephyr',
];

/** A readable random subdomain such as `swift-harbor-4821`. */
export function randomSubdomain(): string {
  return `${ADJECTIVES[randomInt(ADJECTIVES.length)]}-${NOUNS[randomInt(NOUNS.length)]}-${randomInt(1000, 10000)}`;
}

const RANDOM_SUBDOMAIN = new RegExp(`^(?:${ADJECTIVES.join('|')})-(?:${NOUNS.join('|')})-\\d{4}$`);

/**
 * Whether the owner chose a subdomain (`bakery`) rather than got a random one (`swift-harbor-4821`):
 * only a chosen one is affected when a plan without custom subdomains takes over.
 */
export function isChosenSubdomain(label: string): boolean {
  return !RANDOM_SUBDOMAIN.test(label);
}

/** How many of an account's sites live on a subdomain their owner chose. */
export async function countChosenSubdomains(
  db: Kysely<Database> | Transaction<Database>,
  ownerId: string,
): Promise<number> {
  const rows = await db
    .selectFrom('sites')
    .select('subdomain')
    .where('owner_id', '=', ownerId)
    .where('subdomain', 'is not', null)
    .execute();
  return rows.filter((row) => row.subdomain !== null && isChosenSubdomain(row.subdomain)).length;
}

/**
 * A requested subdomain, given as a label (`shop`) or a full host (`shop.{sitesDomain}`): lower-cased
 * and checked against the DNS label rules and the reserved names. Blank means "choose one".
 */
export function parseSubdomain(input: string | undefined, sitesDomain: string): string | null {
  const raw = (input ?? '').trim().toLowerCase().replace(/\.$/, '');
  if (raw === '') return null;
  const label = raw.endsWith(`.${sitesDomain}`) ? raw.slice(0, -(sitesDomain.length + 1)) : raw;
  if (!SUBDOMAIN_PATTERN.test(label)) throw badRequest(SITE_MESSAGES.subdomainInvalid);
  if (RESERVED_SUBDOMAINS.includes(label) || VERSION_PREVIEW_LABEL.test(label)) {
    throw badRequest(SITE_MESSAGES.subdomainReserved);
  }
  return label;
}
