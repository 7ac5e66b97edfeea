import { createHmac, randomUUID } from 'node:crypto';
import {
  challengeHostOf,
  DEFAULT_WWW_REDIRECT,
  DNS_CHALLENGE_PREFIX,
  DOMAIN_CLAIM_EXPIRY_DAYS,
  DOMAIN_MESSAGES,
  PENDING_DOMAIN_CLAIM_LIMITS,
  getPlan,
  normalizeDomainName,
  type CustomDomain,
  type DeployBody,
  type DomainCheckResponse,
  type DomainKind,
  type UpdateCustomDomainBody,
  type WwwRedirect,
} from '@mirror/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { Config } from '../../config/env.js';
import { conflict, forbidden, notFound, badRequest, tooManyRequests } from '../../errors.js';
import type { Db } from '../../platform/db/database.js';
import type { Database, UserRow } from '../../platform/db/schema.js';
import type { Mailer, MailMessage } from '../../platform/mail/mailer.js';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import type { SitesService } from '../sites/sites.service.js';
import {
  buildClaimExpiredEmail,
  buildClaimTakenEmail,
  buildVerifiedClaimTakenEmail,
} from './claim-emails.js';
import {
  checkDomainDns,
  DnsUnreachableError,
  findZone,
  type CheckResult,
  type DnsTarget,
} from './dns-check.js';
import { createDnsLookup, type DnsLookup } from './dns-lookup.js';
import type { DomainRegistry } from './domain-registry.js';
import { createDomainRecords, type StoredCheck } from './domain-records.js';
import {
  claimDueCheck,
  countOwnedDomains,
  countPendingClaims,
  deleteDomain,
  deleteUnverifiedDomain,
  deleteVerifiedDomain,
  findDomainById,
  findDomainByName,
  findOwnerContact,
  findServerSecret,
  insertDomain,
  listDueDomains,
  listExpiredClaims,
  listOwnedDomains,
  updateDomain,
  type DomainRow,
} from './domains.repository.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Background checks of a domain that is not active: 1, 2, 4 … minutes, then every 6 hours. */
const FIRST_RETRY_MS = MINUTE;
const MAX_RETRY_MS = 6 * HOUR;
/** About a week of background checks; then only Check Now looks again. */
const MAX_AUTO_CHECKS = 40;
/** Active domains are looked at again daily: one that left us stops being served. */
const ACTIVE_RECHECK_MS = 24 * HOUR;
/** A background check taken by a process; another may take it after this. */
const CHECK_LEASE_MS = 5 * MINUTE;
const CHECKS_PER_TICK = 20;
/** Unverified claims removed per tick (the rest on the next ones). */
const EXPIRIES_PER_TICK = 50;
const CLAIM_EXPIRY_MS = DOMAIN_CLAIM_EXPIRY_DAYS * 24 * HOUR;
const CHECK_CONCURRENCY = 4;
export const CHECK_RATE_LIMIT = { limit: 30, windowMs: MINUTE };

/** A new domain's first background check, soon enough to find records made beforehand. */
function firstCheckAt(now: Date): string {
  return new Date(now.getTime() + 30_000).toISOString();
}

export interface DomainsServiceDeps {
  db: Db;
  sites: SitesService;
  registry: DomainRegistry;
  limiter: RateLimiter;
  config: Config;
  log: FastifyBaseLogger;
  /** Mails about claims that ended (taken over by a proven owner, or expired unverified). */
  mailer: Mailer;
  /** DNS as the checks see it (default: node's resolver asking DNS_SERVERS). */
  createLookup?: () => DnsLookup;
}

export function createDomainsService(deps: DomainsServiceDeps) {
  const { db, config, registry } = deps;
  const target: DnsTarget = {
    cnameTarget: config.domains.cnameTarget,
    ipv4: config.domains.ipv4,
    ipv6: config.domains.ipv6,
    caaIssuers: config.domains.caaIssuers,
  };
  const newLookup = deps.createLookup ?? (() => createDnsLookup(config.domains));
  const { mailer } = deps;
  const { dnsOf, urlOf, verificationOf, toCustomDomain } = createDomainRecords(config, target);

  /** Our own names (the app, the sites domain, the CNAME target) are never a customer's. */
  function isReserved(domain: string): boolean {
    const ours = [config.sitesDomain, config.domains.cnameTarget, ...config.appHosts];
    return ours.some((name) => domain === name || domain.endsWith(`.${name}`));
  }

  async function ownedDomain(user: UserRow, id: string, kind: DomainKind): Promise<DomainRow> {
    const row = await findDomainById(db, id);
    if (!row || row.owner_id !== user.id || row.kind !== kind) {
      throw notFound(DOMAIN_MESSAGES.notFound);
    }
    return row;
  }

  let claimKey: Promise<string> | null = null;
  /** The key of the TXT tokens, made by migration 0011 and shared by every process. */
  function claimSecret(): Promise<string> {
    claimKey ??= findServerSecret(db, 'domain-claims').then(
      (value) => {
        if (!value) throw new Error('server secret "domain-claims" is missing (migration 0011)');
        return value;
      },
      (err: unknown) => {
        // Asked again next time (the database may have been away).
        claimKey = null;
        throw err;
      },
    );
    return claimKey;
  }

  /**
   * The TXT token of an account for a domain: the same whenever it is asked, before the account
   * holds the domain and after, and different for every other account, so a record in DNS says
   * which account its owner chose.
   */
  async function tokenFor(userId: string, domain: string): Promise<string> {
    return createHmac('sha256', await claimSecret())
      .update(`${userId}\n${domain}`)
      .digest('hex')
      .slice(0, 32);
  }

  /** Whether the domain's DNS has the account's TXT record now (no answer: not proven). */
  async function provesOwnership(userId: string, domain: string): Promise<boolean> {
    const expected = `${DNS_CHALLENGE_PREFIX}${await tokenFor(userId, domain)}`;
    try {
      return (await newLookup().txt(challengeHostOf(domain))).includes(expected);
    } catch (err) {
      if (err instanceof DnsUnreachableError) return false;
      throw err;
    }
  }

  /**
   * Whether an account that verified a domain once still passes verification: its TXT record is
   * in DNS, or the domain (or its www) still reaches Mirror. DNS that cannot be asked counts as
   * passing: nothing moves on silence.
   */
  async function holderStillVerified(holder: DomainRow): Promise<boolean> {
    try {
      const { records } = await checkDomainDns(newLookup(), dnsOf(holder), target, {
        verified: false,
      });
      return records.some((record) => record.status === 'ok');
    } catch (err) {
      if (err instanceof DnsUnreachableError) return true;
      throw err;
    }
  }

  /** The 409 for a domain another account holds, with the way to prove it is the caller's. */
  async function takenError(user: UserRow, domain: string, holder: DomainRow) {
    if (holder.owner_id === user.id) return conflict(DOMAIN_MESSAGES.alreadyYours);
    const host = challengeHostOf(domain);
    const value = `${DNS_CHALLENGE_PREFIX}${await tokenFor(user.id, domain)}`;
    return conflict(
      holder.verified_at !== null
        ? DOMAIN_MESSAGES.takenVerifiedProveOwnership(host, value)
        : DOMAIN_MESSAGES.takenProveOwnership(host, value),
    );
  }

  /**
   * Refuses a domain that is ours, already the caller's, or held by another account (for a
   * companion www: under another account's apex), unless the caller proves ownership (their TXT
   * record in DNS). A claim never verified gives way to that proof; a verified one only once its
   * holder no longer passes verification (issue 30: its TXT record gone and nothing pointing at
   * Mirror). The row it displaces is returned, to be removed with the caller's insert. Without
   * proof: 409 with the record to make. Each pending claim counts against the plan (checked before
   * DNS is asked).
   */
  async function assertClaimable(user: UserRow, domain: string): Promise<DomainRow | null> {
    if (isReserved(domain)) throw badRequest(DOMAIN_MESSAGES.reserved);
    const existing = await findDomainByName(db, domain);
    if (existing?.owner_id === user.id) throw await takenError(user, domain, existing);
    // `www.example.com` is the companion of another account's `example.com`.
    let apex: DomainRow | undefined;
    if (domain.startsWith('www.')) {
      const found = await findDomainByName(db, domain.slice(4));
      if (found && found.owner_id !== user.id && found.zone === found.domain) apex = found;
    }
    const limit = PENDING_DOMAIN_CLAIM_LIMITS[user.plan];
    if ((await countPendingClaims(db, user.id)) >= limit) {
      throw forbidden(DOMAIN_MESSAGES.pendingClaimLimit(limit));
    }
    const holders = [existing, apex].filter((row): row is DomainRow => row !== undefined);
    if (holders.length === 0) return null;
    if (!(await provesOwnership(user.id, domain))) {
      const verified = holders.find((row) => row.verified_at !== null);
      throw await takenError(user, domain, verified ?? holders[0]!);
    }
    for (const holder of holders) {
      if (holder.verified_at !== null && (await holderStillVerified(holder))) {
        throw conflict(DOMAIN_MESSAGES.takenStillVerified(challengeHostOf(holder.domain)));
      }
    }
    return existing ?? null;
  }

  function sendMail(message: MailMessage, what: string, domain: string): void {
    // After the answer (or the tick): a slow or failing mail server changes nothing else.
    void mailer
      .send(message)
      .catch((err: unknown) => deps.log.error({ err, domain }, `sending the ${what} mail failed`));
  }

  /** Tells the owner of a removed claim why it went. */
  async function mailClaimEnded(
    row: DomainRow,
    why: 'taken' | 'taken-verified' | 'expired',
    owner?: { email: string; name: string },
  ): Promise<void> {
    const contact = owner ?? (await findOwnerContact(db, row.owner_id));
    if (!contact) return;
    const input = { domain: row.domain, kind: row.kind, appUrl: config.appUrl };
    const recipient = { to: contact.email, name: contact.name };
    const build = {
      taken: buildClaimTakenEmail,
      'taken-verified': buildVerifiedClaimTakenEmail,
      expired: buildClaimExpiredEmail,
    }[why];
    sendMail(build(recipient, input), `claim ${why}`, row.domain);
  }

  /**
   * Adds a domain to the account: validated, refused when taken, its zone found through DNS (so
   * the records name it relative to the zone), and its first check scheduled. `also` writes the
   * rest in the same transaction (a parked page). Another account's unverified claim that the
   * caller's TXT record beat is removed in that transaction, and its owner mailed.
   */
  async function claim(
    user: UserRow,
    input: {
      domain: string;
      kind: DomainKind;
      siteId: string | null;
      wwwRedirect?: WwwRedirect;
    },
    also?: (trx: Transaction<Database>, id: string) => Promise<void>,
  ): Promise<DomainRow> {
    const domain = normalizeDomainName(input.domain);
    const displaced = await assertClaimable(user, domain);
    const { zone } = await findZone(newLookup(), domain);
    if (input.wwwRedirect === 'apex-to-www' && zone !== domain) {
      throw badRequest(DOMAIN_MESSAGES.wwwOnlyForApex);
    }
    const id = randomUUID();
    const now = new Date();
    const token = await tokenFor(user.id, domain);
    let removed = false;
    try {
      await db.transaction().execute(async (trx) => {
        // Only while still as it was looked at; if it changed meanwhile the insert below fails.
        if (displaced) {
          removed =
            displaced.verified_at === null
              ? await deleteUnverifiedDomain(trx, displaced.id)
              : await deleteVerifiedDomain(trx, displaced);
        }
        await insertDomain(trx, {
          id,
          owner_id: user.id,
          kind: input.kind,
          domain,
          site_id: input.siteId,
          zone,
          token,
          www_redirect: input.wwwRedirect ?? DEFAULT_WWW_REDIRECT,
          next_check_at: firstCheckAt(now),
          created_at: now.toISOString(),
        });
        if (also) await also(trx, id);
      });
    } catch (err) {
      // Another request claimed it in between (the unique index decided).
      const taken = await findDomainByName(db, domain);
      if (taken) throw await takenError(user, domain, taken);
      throw err;
    }
    if (displaced && removed) {
      const wasVerified = displaced.verified_at !== null;
      deps.log.info(
        { domain, from: displaced.owner_id, to: user.id },
        wasVerified
          ? 'verified domain whose verification lapsed taken over by proof of ownership'
          : 'unverified domain claim taken over by proof of ownership',
      );
      if (displaced.status === 'active') await registry.refresh();
      await mailClaimEnded(displaced, wasVerified ? 'taken-verified' : 'taken');
    }
    return (await findDomainById(db, id))!;
  }

  /**
   * Removes claims never verified within DOMAIN_CLAIM_EXPIRY_DAYS (a parked page and a custom
   * domain's link to its site go with the row) and mails each owner. Verified domains stay.
   */
  async function expireClaims(now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - CLAIM_EXPIRY_MS).toISOString();
    let expired = 0;
    for (const row of await listExpiredClaims(db, cutoff, EXPIRIES_PER_TICK)) {
      // Another process may have removed it, or a check verified it, meanwhile.
      if (!(await deleteUnverifiedDomain(db, row.id))) continue;
      expired++;
      deps.log.info(
        { domain: row.domain, ownerId: row.owner_id },
        'unverified domain claim expired',
      );
      await mailClaimEnded(row, 'expired', { email: row.owner_email, name: row.owner_name });
    }
    return expired;
  }

  function nextCheckAt(now: Date, status: DomainRow['status'], attempts: number): string | null {
    if (status === 'active') return new Date(now.getTime() + ACTIVE_RECHECK_MS).toISOString();
    if (attempts >= MAX_AUTO_CHECKS) return null;
    const delay = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
    return new Date(now.getTime() + delay).toISOString();
  }

  /**
   * Checks a domain's DNS now and stores the outcome. A domain that was active stays active when
   * DNS cannot be asked or only its (no longer needed) TXT record is gone; a definite wrong answer
   * takes it off the air.
   */
  async function runCheck(row: DomainRow, manual: boolean): Promise<DomainRow> {
    const lookup = newLookup();
    const now = new Date();
    const attempts = manual ? 0 : row.check_attempts + 1;
    const found = await findZone(lookup, row.domain);
    // The zone is kept when DNS did not answer (the rule of thumb may be wrong where DNS is right).
    const zone = found.reachable ? found.zone : row.zone;
    const verified = row.verified_at !== null;
    let result: CheckResult | null = null;
    try {
      if (!found.reachable) throw new DnsUnreachableError(row.domain, 'ETIMEOUT');
      result = await checkDomainDns(lookup, { ...dnsOf(row), zone }, target, { verified });
    } catch (err) {
      if (!(err instanceof DnsUnreachableError)) throw err;
      deps.log.warn({ domain: row.domain, code: err.code }, 'domain check could not ask DNS');
    }
    if (result === null) {
      const stillActive = row.status === 'active';
      await updateDomain(db, row.id, {
        zone,
        problem: stillActive ? null : 'dns_unreachable',
        reason: stillActive
          ? null
          : 'We could not reach DNS to check this domain. We will try again shortly.',
        checked_at: now.toISOString(),
        check_attempts: attempts,
        next_check_at: nextCheckAt(now, row.status, attempts),
      });
    } else {
      const status = result.status;
      await updateDomain(db, row.id, {
        zone,
        status,
        problem: result.problem,
        reason: result.reason,
        last_check: JSON.stringify({
          records: result.records.map(({ type, host, value, status: s, found }) => ({
            type,
            host,
            value,
            status: s,
            found,
          })),
          caa: result.caa,
        } satisfies StoredCheck),
        checked_at: now.toISOString(),
        verified_at: row.verified_at ?? (status === 'active' ? now.toISOString() : null),
        check_attempts: status === 'active' ? 0 : attempts,
        next_check_at: nextCheckAt(now, status, status === 'active' ? 0 : attempts),
      });
      if ((row.status === 'active') !== (status === 'active') || zone !== row.zone) {
        await registry.refresh();
      }
      if (status !== row.status) {
        deps.log.info({ domain: row.domain, from: row.status, to: status }, 'domain status');
      }
    }
    return (await findDomainById(db, row.id))!;
  }

  async function removeDomain(user: UserRow, id: string, kind: DomainKind): Promise<void> {
    const row = await ownedDomain(user, id, kind);
    await deleteDomain(db, row.id);
    if (row.status === 'active') await registry.refresh();
  }

  return {
    verificationOf,
    urlOf,
    ownedDomain,
    claim,
    removeDomain,
    listOwned: (user: UserRow, kind: DomainKind) => listOwnedDomains(db, user.id, kind),
    countOwned: (user: UserRow, kind: DomainKind) => countOwnedDomains(db, user.id, kind),

    /** POST /domains/deploy: attaches a domain to a site (again: moves it or keeps it). */
    async deploy(
      user: UserRow,
      body: DeployBody,
    ): Promise<{ created: boolean; domain: CustomDomain }> {
      const site = await deps.sites.ownedSite(user, body.siteId);
      const domain = normalizeDomainName(body.domain);
      const limit = getPlan(user.plan).limits.customDomains;
      if (limit === 0) throw forbidden(DOMAIN_MESSAGES.customDomainsNeedPlan);
      const existing = await findDomainByName(db, domain);
      if (existing?.owner_id === user.id && existing.kind === 'custom') {
        // Deploying again: the same domain now serves this site (and keeps its verification).
        const changes = {
          ...(existing.site_id !== site.id ? { site_id: site.id } : {}),
          ...(body.wwwRedirect && existing.zone === existing.domain
            ? { www_redirect: body.wwwRedirect }
            : {}),
        };
        if (Object.keys(changes).length > 0) {
          await updateDomain(db, existing.id, changes);
          if (existing.status === 'active') await registry.refresh();
        }
        return { created: false, domain: toCustomDomain((await findDomainById(db, existing.id))!) };
      }
      if ((await countOwnedDomains(db, user.id, 'custom')) >= limit) {
        throw forbidden(DOMAIN_MESSAGES.customDomainLimit(limit));
      }
      const row = await claim(user, {
        domain,
        kind: 'custom',
        siteId: site.id,
        wwwRedirect: body.wwwRedirect,
      });
      deps.log.info({ domain: row.domain, siteId: site.id }, 'custom domain added');
      return { created: true, domain: toCustomDomain(row) };
    },

    async listCustom(user: UserRow): Promise<CustomDomain[]> {
      return (await listOwnedDomains(db, user.id, 'custom')).map(toCustomDomain);
    },

    async getCustom(user: UserRow, id: string): Promise<CustomDomain> {
      return toCustomDomain(await ownedDomain(user, id, 'custom'));
    },

    async updateCustom(
      user: UserRow,
      id: string,
      body: UpdateCustomDomainBody,
    ): Promise<CustomDomain> {
      const row = await ownedDomain(user, id, 'custom');
      if (body.wwwRedirect && row.zone !== row.domain && body.wwwRedirect !== row.www_redirect) {
        throw badRequest(DOMAIN_MESSAGES.wwwOnlyForApex);
      }
      const siteId = body.siteId ? (await deps.sites.ownedSite(user, body.siteId)).id : undefined;
      await updateDomain(db, row.id, {
        ...(siteId ? { site_id: siteId } : {}),
        ...(body.wwwRedirect ? { www_redirect: body.wwwRedirect } : {}),
      });
      if (row.status === 'active') await registry.refresh();
      return toCustomDomain((await findDomainById(db, row.id))!);
    },

    removeCustom: (user: UserRow, id: string) => removeDomain(user, id, 'custom'),

    /** GET /domains/check/{domain}: checks one of the user's domains (custom or parked) now. */
    async check(user: UserRow, name: string): Promise<DomainCheckResponse> {
      const row = await findDomainByName(db, normalizeDomainName(name));
      if (!row || row.owner_id !== user.id) throw notFound(DOMAIN_MESSAGES.notFound);
      const hit = await deps.limiter.hit(`domains:check:${user.id}`, CHECK_RATE_LIMIT);
      if (!hit.allowed) {
        throw tooManyRequests(hit.retryAfterSeconds, DOMAIN_MESSAGES.checkRateLimited);
      }
      const checked = await runCheck(row, true);
      return {
        ...verificationOf(checked),
        id: checked.id,
        kind: checked.kind,
        domain: checked.domain,
      };
    },

    /**
     * The periodic work: unverified claims past their time are removed first, then the background
     * checks that are due (pending domains with back-off, active ones daily).
     */
    async runDueChecks(now = new Date()): Promise<{ checked: number; expired: number }> {
      let expired = 0;
      try {
        expired = await expireClaims(now);
      } catch (err) {
        deps.log.error({ err }, 'expiring unverified domain claims failed');
      }
      const due = await listDueDomains(db, now.toISOString(), CHECKS_PER_TICK);
      const lease = new Date(now.getTime() + CHECK_LEASE_MS).toISOString();
      let checked = 0;
      const queue = [...due];
      const worker = async () => {
        for (let row = queue.shift(); row; row = queue.shift()) {
          if (!row.next_check_at || !(await claimDueCheck(db, row.id, row.next_check_at, lease))) {
            continue;
          }
          try {
            await runCheck(row, false);
            checked++;
          } catch (err) {
            deps.log.error({ err, domain: row.domain }, 'domain check failed');
          }
        }
      };
      await Promise.all(Array.from({ length: CHECK_CONCURRENCY }, worker));
      return { checked, expired };
    },
  };
}

export type DomainsService = ReturnType<typeof createDomainsService>;
export type { DomainRow };
