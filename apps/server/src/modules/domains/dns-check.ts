import {
  challengeHostOf,
  DNS_CHALLENGE_PREFIX,
  DOMAIN_MESSAGES,
  type DnsRecord,
  type DomainProblem,
  type DomainStatus,
  type WwwRedirect,
} from '@mirror/contract';
import ipaddr from 'ipaddr.js';
import { getDomain } from 'tldts';
import { DnsUnreachableError, type CaaAnswer, type DnsLookup } from './dns-lookup.js';

/**
 * What a domain's DNS must say to reach Mirror, and whether it says so. Pure apart from the
 * lookups handed in: the records to create (for the deploy answer and the domain page) and the
 * check (per record and overall: pending, misconfigured with the reason, or active).
 */

export interface DnsTarget {
  /** Where CNAMEs point (SITES_CNAME_TARGET). */
  cnameTarget: string;
  /** Our addresses for apex domains; empty means "ALIAS/flattening to cnameTarget". */
  ipv4: string[];
  ipv6: string[];
  /** CAA `issue` values that allow our certificate authority. */
  caaIssuers: string[];
}

export interface DomainDns {
  domain: string;
  /** The DNS zone the domain is in (its registrable domain, or a delegated zone). */
  zone: string;
  token: string;
  wwwRedirect: WwwRedirect;
}

export interface CheckResult {
  status: DomainStatus;
  problem: DomainProblem | null;
  reason: string | null;
  records: DnsRecord[];
  caa: { allowed: boolean; records: string[] };
}

/**
 * The registrable domain: one label under the domain's public suffix, by the ICANN section of the
 * Public Suffix List (`example.co.uk`, `foo.example.com.au` → `example.com.au`, `bücher.de`, and
 * its punycode `xn--bcher-kva.de`). Private suffixes (`github.io`, `herokuapp.com`) do not count:
 * `me.github.io` is a name in GitHub's zone, not an apex its user can give A records, and the SOA
 * walk in `findZone` finds that zone. A name with no registrable part (`co.uk`, `localhost`) is its
 * own. Unknown top-level domains count as one label (`shop.x.test` → `x.test`).
 */
export function registrableDomainOf(domain: string): string {
  return getDomain(domain, { allowPrivateDomains: false }) ?? domain;
}

/**
 * The zone a domain lives in: the closest name at or above it with an SOA record, but never above
 * the registrable domain (an unregistered `example.co.uk` must not make `co.uk` its zone). When DNS
 * cannot be asked, the registrable domain, and `reachable` says so.
 */
export async function findZone(
  lookup: DnsLookup,
  domain: string,
): Promise<{ zone: string; reachable: boolean }> {
  const floor = registrableDomainOf(domain);
  let name = domain;
  for (;;) {
    const apex = await lookup.isZoneApex(name);
    if (apex === true) return { zone: name, reachable: true };
    if (apex === null) return { zone: floor, reachable: false };
    if (name === floor || !name.includes('.')) return { zone: floor, reachable: true };
    name = name.slice(name.indexOf('.') + 1);
  }
}

export function isApexOf(dns: Pick<DomainDns, 'domain' | 'zone'>): boolean {
  return dns.domain === dns.zone;
}

/** The host that serves the content (the other one of an apex and its www redirects to it). */
export function canonicalHostOf(dns: Pick<DomainDns, 'domain' | 'zone' | 'wwwRedirect'>): string {
  return isApexOf(dns) && dns.wwwRedirect === 'apex-to-www' ? `www.${dns.domain}` : dns.domain;
}

function relativeName(host: string, zone: string): string {
  if (host === zone) return '@';
  return host.endsWith(`.${zone}`) ? host.slice(0, -(zone.length + 1)) : host;
}

function expected(
  type: DnsRecord['type'],
  host: string,
  zone: string,
  value: string,
  purpose: DnsRecord['purpose'],
  required: boolean,
): DnsRecord {
  return {
    type,
    name: relativeName(host, zone),
    host,
    value,
    purpose,
    required,
    status: 'missing',
    found: [],
  };
}

/**
 * The records to create. A subdomain gets a CNAME; an apex gets A/AAAA records (a CNAME at the
 * apex is not valid DNS), or an ALIAS when no fixed addresses are configured, plus a www CNAME.
 */
export function expectedRecords(dns: DomainDns, target: DnsTarget): DnsRecord[] {
  const { domain, zone } = dns;
  const records: DnsRecord[] = [];
  if (isApexOf(dns)) {
    if (target.ipv4.length > 0) {
      for (const ip of target.ipv4) records.push(expected('A', domain, zone, ip, 'routing', true));
      for (const ip of target.ipv6) {
        records.push(expected('AAAA', domain, zone, ip, 'routing', false));
      }
    } else {
      records.push(expected('ALIAS', domain, zone, target.cnameTarget, 'routing', true));
    }
    records.push(
      expected(
        'CNAME',
        `www.${domain}`,
        zone,
        target.cnameTarget,
        'www',
        dns.wwwRedirect === 'apex-to-www',
      ),
    );
  } else {
    records.push(expected('CNAME', domain, zone, target.cnameTarget, 'routing', true));
  }
  records.push(
    expected(
      'TXT',
      challengeHostOf(domain),
      zone,
      `${DNS_CHALLENGE_PREFIX}${dns.token}`,
      'ownership',
      true,
    ),
  );
  return records;
}

// ---- CDN detection -------------------------------------------------------------------------

const CDN_CNAME_SUFFIXES = [
  'cdn.cloudflare.net',
  'cloudfront.net',
  'fastly.net',
  'fastlylb.net',
  'akamaiedge.net',
  'akamai.net',
  'edgekey.net',
  'edgesuite.net',
  'azureedge.net',
  'azurefd.net',
  'b-cdn.net',
  'cdn77.org',
  'incapdns.net',
  'stackpathdns.com',
  'kxcdn.com',
];

/** Cloudflare's published proxy ranges: "proxied" records answer these instead of the origin. */
const CDN_RANGES = [
  '173.245.48.0/20',
  '103.21.244.0/22',
  '103.22.200.0/22',
  '103.31.4.0/22',
  '141.101.64.0/18',
  '108.162.192.0/18',
  '190.93.240.0/20',
  '188.114.96.0/20',
  '197.234.240.0/22',
  '198.41.128.0/17',
  '162.158.0.0/15',
  '104.16.0.0/13',
  '104.24.0.0/14',
  '172.64.0.0/13',
  '131.0.72.0/22',
  '2400:cb00::/32',
  '2606:4700::/32',
  '2803:f800::/32',
  '2405:b500::/32',
  '2405:8100::/32',
].map((cidr) => ipaddr.parseCIDR(cidr));

function isCdnName(name: string): boolean {
  return CDN_CNAME_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

/** An address in a CDN's proxy ranges; an IPv4-mapped IPv6 address (`::ffff:104.16.0.1`) too. */
export function isCdnAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  return CDN_RANGES.some((range) => range[0].kind() === ip.kind() && ip.match(range));
}

// ---- the check -----------------------------------------------------------------------------

type RoutingState = 'ok' | 'missing' | 'wrong' | 'cdn' | 'conflict';

interface Routing {
  host: string;
  state: RoutingState;
  cname: string[];
  a: string[];
  aaaa: string[];
  /** Addresses found that are not ours. */
  foreign: string[];
}

interface OurAddresses {
  v4: string[];
  v6: string[];
}

async function routingOf(
  lookup: DnsLookup,
  host: string,
  target: DnsTarget,
  ours: OurAddresses,
): Promise<Routing> {
  const [cname, a, aaaa] = await Promise.all([
    lookup.cname(host),
    lookup.a(host),
    lookup.aaaa(host),
  ]);
  const foreign4 = a.filter((ip) => !ours.v4.includes(ip));
  const foreign6 = aaaa.filter((ip) => !ours.v6.includes(ip));
  const base = { host, cname, a, aaaa, foreign: [...foreign4, ...foreign6] };
  const reachesUs = a.length + aaaa.length > 0 && foreign4.length === 0 && foreign6.length === 0;
  if (cname.length > 0) {
    // A CNAME to us, or a chain that ends at our addresses.
    if (cname[0] === target.cnameTarget || reachesUs) return { ...base, state: 'ok' };
    return { ...base, state: isCdnName(cname[0]!) ? 'cdn' : 'wrong' };
  }
  if (a.length + aaaa.length === 0) return { ...base, state: 'missing' };
  // A and AAAA records: ours (directly, or an ALIAS/flattened CNAME answering our addresses).
  if (reachesUs) return { ...base, state: 'ok' };
  const someOurs = a.length > foreign4.length || aaaa.length > foreign6.length;
  if (someOurs) return { ...base, state: 'conflict' };
  if ([...foreign4, ...foreign6].every(isCdnAddress)) return { ...base, state: 'cdn' };
  return { ...base, state: 'wrong' };
}

function valueState(found: string[], value: string): DnsRecord['status'] {
  if (found.includes(value)) return 'ok';
  return found.length === 0 ? 'missing' : 'wrong';
}

function formatCaa(answer: CaaAnswer): string {
  // The one property besides `critical` (and `type`, which Node 24's resolver adds) is the tag.
  const [tag, value] = Object.entries(answer).find(
    ([key]) => key !== 'critical' && key !== 'type',
  ) ?? ['', ''];
  return `${answer.critical} ${tag} "${String(value)}"`;
}

/**
 * RFC 8659: the CAA set that applies is the one of the closest name at or above the host that has
 * any; without `issue` properties it restricts nothing for a single-host certificate.
 */
async function caaOf(
  lookup: DnsLookup,
  host: string,
  issuers: string[],
): Promise<{ allowed: boolean; records: string[] }> {
  let name = host;
  for (;;) {
    const answers = await lookup.caa(name);
    if (answers.length > 0) {
      const issue = answers.filter((answer) => answer.issue !== undefined);
      const allowed =
        issue.length === 0 ||
        issue.some((answer) => issuers.includes(answer.issue!.split(';')[0]!.trim().toLowerCase()));
      return { allowed, records: answers.map(formatCaa) };
    }
    if (!name.includes('.')) return { allowed: true, records: [] };
    name = name.slice(name.indexOf('.') + 1);
  }
}

const list = (values: string[]) => values.join(', ');

function routingReason(routing: Routing, record: DnsRecord, target: DnsTarget): string {
  const found = routing.cname.length > 0 ? routing.cname : [...routing.a, ...routing.aaaa];
  const wants =
    record.type === 'A'
      ? `A records to ${list(target.ipv4)}`
      : record.type === 'ALIAS'
        ? `an ALIAS (or flattened CNAME) record to ${target.cnameTarget}`
        : `a CNAME record to ${target.cnameTarget}`;
  switch (routing.state) {
    case 'missing':
      return `No records found for ${routing.host} yet. Create ${wants} named "${record.name}". ${DOMAIN_MESSAGES.propagationNote}`;
    case 'cdn':
      return `${routing.host} is proxied through a CDN (${list(found)}), which hides Mirror's server. Turn the proxy off ("DNS only") and point it at Mirror with ${wants}.`;
    case 'conflict':
      return `${routing.host} has records pointing at Mirror and others pointing elsewhere (${list(
        routing.foreign,
      )}). Remove the A/AAAA records that do not point at Mirror.`;
    default:
      return `${routing.host} points to ${list(found)}, not to Mirror. Change it to ${wants}.`;
  }
}

/**
 * Checks a domain's DNS against the records it needs. `verified` domains (active once) no longer
 * need their TXT record. Throws DnsUnreachableError when DNS could not be asked.
 */
export async function checkDomainDns(
  lookup: DnsLookup,
  dns: DomainDns,
  target: DnsTarget,
  options: { verified: boolean },
): Promise<CheckResult> {
  const records = expectedRecords(dns, target);
  const ours: OurAddresses =
    target.ipv4.length > 0
      ? { v4: target.ipv4, v6: target.ipv6 }
      : {
          // ALIAS mode: the addresses our CNAME target has right now are ours.
          v4: await lookup.a(target.cnameTarget),
          v6: await lookup.aaaa(target.cnameTarget),
        };
  const apex = isApexOf(dns);
  const www = `www.${dns.domain}`;
  const [main, wwwRouting, txt] = await Promise.all([
    routingOf(lookup, dns.domain, target, ours),
    apex ? routingOf(lookup, www, target, ours) : Promise.resolve(null),
    lookup.txt(challengeHostOf(dns.domain)),
  ]);
  const certificateHosts = [dns.domain, ...(wwwRouting?.state === 'ok' ? [www] : [])];
  const caas = await Promise.all(
    certificateHosts.map((host) => caaOf(lookup, host, target.caaIssuers)),
  );
  const caa = {
    allowed: caas.every((c) => c.allowed),
    records: [...new Set(caas.flatMap((c) => c.records))],
  };

  for (const record of records) {
    if (record.purpose === 'ownership') {
      record.found = txt;
      record.status = txt.includes(record.value) ? 'ok' : txt.length === 0 ? 'missing' : 'wrong';
      continue;
    }
    const routing = record.purpose === 'www' ? wwwRouting! : main;
    if (record.type === 'A') record.found = routing.a;
    else if (record.type === 'AAAA') record.found = routing.aaaa;
    else if (record.type === 'ALIAS') record.found = [...routing.a, ...routing.aaaa];
    else record.found = routing.cname.length > 0 ? routing.cname : [...routing.a, ...routing.aaaa];
    // An address record is right when it is there; a name record when the host reaches us.
    record.status =
      record.type === 'A' || record.type === 'AAAA'
        ? valueState(record.found, record.value)
        : routing.state === 'ok'
          ? 'ok'
          : routing.state === 'missing'
            ? 'missing'
            : 'wrong';
  }

  // Which routings decide: the domain's, and the www companion's when the site is served there.
  const deciding = [main, ...(wwwRouting && dns.wwwRedirect === 'apex-to-www' ? [wwwRouting] : [])];
  const firstRecordOf = (routing: Routing) =>
    records.find((r) => r.required && r.host === routing.host && r.purpose !== 'ownership')!;
  for (const state of ['conflict', 'cdn', 'wrong'] as const) {
    const bad = deciding.find((routing) => routing.state === state);
    if (bad) {
      return {
        status: 'misconfigured',
        problem:
          state === 'conflict'
            ? 'conflicting_records'
            : state === 'cdn'
              ? 'cdn_proxy'
              : 'wrong_target',
        reason: routingReason(bad, firstRecordOf(bad), target),
        records,
        caa,
      };
    }
  }
  if (!caa.allowed) {
    return {
      status: 'misconfigured',
      problem: 'caa_forbidden',
      reason: `The CAA records of ${dns.domain} (${list(caa.records)}) do not allow our certificate authority to issue a certificate. Add a CAA record: 0 issue "${target.caaIssuers[0]}".`,
      records,
      caa,
    };
  }
  const missing = deciding.find((routing) => routing.state === 'missing');
  if (missing) {
    return {
      status: 'pending',
      problem: 'records_missing',
      reason: routingReason(missing, firstRecordOf(missing), target),
      records,
      caa,
    };
  }
  const ownership = records.find((r) => r.purpose === 'ownership')!;
  if (!options.verified && ownership.status !== 'ok') {
    return {
      status: 'pending',
      problem: 'txt_missing',
      reason:
        ownership.status === 'missing'
          ? `The TXT record ${ownership.host} with the value ${ownership.value} was not found yet. ${DOMAIN_MESSAGES.propagationNote}`
          : `The TXT record ${ownership.host} has ${list(txt.map((v) => `"${v}"`))}, not ${ownership.value}. Set it to ${ownership.value}.`,
      records,
      caa,
    };
  }
  return { status: 'active', problem: null, reason: null, records, caa };
}

export { DnsUnreachableError };
