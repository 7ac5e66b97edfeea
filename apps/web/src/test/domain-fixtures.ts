import type {
  CustomDomain,
  DnsRecord,
  DomainCheckResponse,
  DomainVerification,
  DomainsOverview,
  ParkedDomain,
  ParkedMessage,
} from '@mirror/contract';

/** Test data of the domain answers (contract shapes), for the domain, site and dashboard tests. */

export function makeRecord(overrides: Partial<DnsRecord> = {}): DnsRecord {
  return {
    type: 'CNAME',
    name: 'shop',
    host: 'shop.example.com',
    value: 'sites.mirror.test',
    purpose: 'routing',
    required: true,
    status: 'missing',
    found: [],
    ...overrides,
  };
}

export function txtRecord(domain: string, overrides: Partial<DnsRecord> = {}): DnsRecord {
  return makeRecord({
    type: 'TXT',
    name: `_mirror-challenge${domain.split('.').length > 2 ? `.${domain.split('.')[0]}` : ''}`,
    host: `_mirror-challenge.${domain}`,
    value: 'mirror-verification=token-123',
    purpose: 'ownership',
    ...overrides,
  });
}

const verification = (): Omit<DomainVerification, 'records'> => ({
  status: 'pending',
  problem: 'records_missing',
  reason: 'No CNAME record for shop.example.com yet.',
  isApex: false,
  caa: { allowed: true, records: [] },
  checkedAt: null,
  verifiedAt: null,
  nextCheckAt: '2025-01-10T10:05:00.000Z',
});

export function makeParked(overrides: Partial<ParkedDomain> = {}): ParkedDomain {
  const domain = overrides.domain ?? 'parked-example.com';
  return {
    ...verification(),
    id: 'p1',
    kind: 'parked',
    domain,
    projectId: 'project-1',
    template: 'default',
    content: null,
    monetization: 'none',
    language: null,
    message: null,
    forSale: false,
    askingPrice: null,
    url: `https://${domain}/`,
    messageCount: 0,
    visits: { visitors: 0, pageViews: 0 },
    isApex: true,
    reason: `No A record for ${domain} yet.`,
    records: [
      makeRecord({ type: 'A', name: '@', host: domain, value: '203.0.113.7' }),
      makeRecord({ type: 'AAAA', name: '@', host: domain, value: '2001:db8::7' }),
      txtRecord(domain),
    ],
    createdAt: '2025-01-10T10:00:00.000Z',
    updatedAt: '2025-01-10T10:00:00.000Z',
    ...overrides,
  };
}

export function makeCustom(overrides: Partial<CustomDomain> = {}): CustomDomain {
  const domain = overrides.domain ?? 'shop.example.com';
  return {
    ...verification(),
    id: 'c1',
    kind: 'custom',
    domain,
    siteId: 's1',
    url: `https://${domain}/`,
    wwwRedirect: 'www-to-apex',
    sslEnabled: true,
    records: [makeRecord({ host: domain }), txtRecord(domain)],
    createdAt: '2025-01-10T10:00:00.000Z',
    updatedAt: '2025-01-10T10:00:00.000Z',
    ...overrides,
  };
}

/** The check answer of a domain once every record is in place. */
export function activeAnswer(record: ParkedDomain | CustomDomain): DomainCheckResponse {
  return {
    id: record.id,
    kind: record.kind,
    domain: record.domain,
    status: 'active',
    problem: null,
    reason: null,
    records: record.records.map((r) => ({ ...r, status: 'ok', found: [r.value] })),
    isApex: record.isApex,
    caa: { allowed: true, records: [] },
    checkedAt: '2025-01-10T10:06:00.000Z',
    verifiedAt: '2025-01-10T10:06:00.000Z',
    nextCheckAt: null,
  };
}

export function overviewOf(
  domains: { custom?: CustomDomain[]; parked?: ParkedDomain[] } = {},
): DomainsOverview {
  const custom = domains.custom ?? [];
  const parked = domains.parked ?? [];
  return {
    sites: [],
    domains: [...custom, ...parked].map((d) => ({
      id: d.id,
      kind: d.kind,
      domain: d.domain,
      status: d.status,
      siteId: d.kind === 'custom' ? d.siteId : null,
      createdAt: d.createdAt,
    })),
    customDomains: custom,
    parkedDomains: parked,
  };
}

export function makeMessage(overrides: Partial<ParkedMessage> = {}): ParkedMessage {
  return {
    id: 'm1',
    kind: 'contact',
    name: 'Grace Hopper',
    email: 'grace@example.org',
    message: 'Is this domain still available?',
    amount: null,
    createdAt: '2025-01-11T09:00:00.000Z',
    ...overrides,
  };
}
