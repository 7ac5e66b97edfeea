import {
  type CustomDomain,
  type DnsRecord,
  type DomainListItem,
  type DomainVerification,
  type ParkedDomain,
} from '@mirror/contract';
import type { Config } from '../../config/env.js';
import {
  canonicalHostOf,
  expectedRecords,
  isApexOf,
  type DnsTarget,
  type DomainDns,
} from './dns-check.js';
import type { DomainRow } from './domains.repository.js';

/** What a check found, stored with the domain (`last_check`). */
export interface StoredCheck {
  records: Pick<DnsRecord, 'type' | 'host' | 'value' | 'status' | 'found'>[];
  caa: { allowed: boolean; records: string[] };
}

function parseStoredCheck(json: string | null): StoredCheck | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as StoredCheck;
  } catch {
    return null;
  }
}

const recordKey = (r: Pick<DnsRecord, 'type' | 'host' | 'value'>) =>
  `${r.type} ${r.host} ${r.value}`;

/** Domain rows as the API shows them, with their addresses on this server. */
export function createDomainRecords(config: Pick<Config, 'appUrl'>, target: DnsTarget) {
  const app = new URL(config.appUrl);
  const port = app.port ? `:${app.port}` : '';

  const dnsOf = (row: DomainRow): DomainDns => ({
    domain: row.domain,
    zone: row.zone,
    token: row.token,
    wwwRedirect: row.www_redirect,
  });

  /** Where a domain's content is served. */
  function urlOf(row: DomainRow): string {
    const host = row.kind === 'parked' ? row.domain : canonicalHostOf(dnsOf(row));
    return `${app.protocol}//${host}${port}/`;
  }

  /** The records to create, with what the last check found for each. */
  function verificationOf(row: DomainRow): DomainVerification {
    const stored = parseStoredCheck(row.last_check);
    const found = new Map(stored?.records.map((r) => [recordKey(r), r]) ?? []);
    const records = expectedRecords(dnsOf(row), target).map((record) => {
      const seen = found.get(recordKey(record));
      return seen ? { ...record, status: seen.status, found: seen.found } : record;
    });
    return {
      status: row.status,
      problem: row.problem as DomainVerification['problem'],
      reason: row.reason,
      records,
      isApex: isApexOf(dnsOf(row)),
      caa: stored?.caa ?? { allowed: true, records: [] },
      checkedAt: row.checked_at,
      verifiedAt: row.verified_at,
      nextCheckAt: row.next_check_at,
    };
  }

  function toCustomDomain(row: DomainRow): CustomDomain {
    return {
      ...verificationOf(row),
      id: row.id,
      kind: 'custom',
      domain: row.domain,
      siteId: row.site_id ?? '',
      url: urlOf(row),
      wwwRedirect: row.www_redirect,
      sslEnabled: true,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  return { dnsOf, urlOf, verificationOf, toCustomDomain };
}

/** The combined list of GET /domains: custom and parked domains, newest first. */
export function domainListItems(
  custom: readonly CustomDomain[],
  parked: readonly ParkedDomain[],
): DomainListItem[] {
  return [...custom, ...parked]
    .map((d) => ({
      id: d.id,
      kind: d.kind,
      domain: d.domain,
      status: d.status,
      siteId: d.kind === 'custom' ? d.siteId : null,
      createdAt: d.createdAt,
    }))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
}
