import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config/env.js';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server.js';
import {
  checkDomainDns,
  DnsUnreachableError,
  expectedRecords,
  findZone,
  guessZone,
  type DnsTarget,
} from './dns-check.js';
import { createDnsLookup } from './dns-lookup.js';

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(() => dns.close());

const lookup = () =>
  createDnsLookup({
    dnsServers: [dns.address],
    dnsTimeoutMs: 1000,
    cnameTarget: 'edge.mirror.test',
    ipv4: [],
    ipv6: [],
    caaIssuers: ['letsencrypt.org'],
  });

/** No fixed addresses: apex domains are told to use an ALIAS to the CNAME target. */
const aliasTarget: DnsTarget = {
  cnameTarget: 'edge.mirror.test',
  ipv4: [],
  ipv6: [],
  caaIssuers: ['letsencrypt.org'],
};

describe('DNS zones', () => {
  it('guesses the registrable domain, country second levels included', () => {
    expect(guessZone('example.com')).toBe('example.com');
    expect(guessZone('a.b.example.com')).toBe('example.com');
    expect(guessZone('example.co.uk')).toBe('example.co.uk');
    expect(guessZone('shop.example.co.uk')).toBe('example.co.uk');
    expect(guessZone('shop.example.io')).toBe('example.io');
  });

  it('finds delegated zones through SOA records, never above the registrable domain', async () => {
    dns.set('zone-one.test', { SOA: true });
    dns.set('dev.zone-one.test', { SOA: true });
    expect((await findZone(lookup(), 'api.dev.zone-one.test')).zone).toBe('dev.zone-one.test');
    expect((await findZone(lookup(), 'www.zone-one.test')).zone).toBe('zone-one.test');
    // `co.uk` is a zone, but an unregistered name under it is still its own registrable domain.
    dns.set('co.uk', { SOA: true });
    expect(await findZone(lookup(), 'unregistered-name.co.uk')).toEqual({
      zone: 'unregistered-name.co.uk',
      reachable: true,
    });
  });
});

describe('DNS check', () => {
  it('asks for an ALIAS at the apex without fixed addresses and accepts the flattened answer', async () => {
    dns.set('edge.mirror.test', { A: ['198.51.100.40'] });
    dns.set('alias-two.test', { SOA: true, A: ['198.51.100.40'] });
    dns.set('_mirror-challenge.alias-two.test', { TXT: ['mirror-verification=t0k3n'] });
    const domain = { domain: 'alias-two.test', zone: 'alias-two.test', token: 't0k3n' };
    const records = expectedRecords({ ...domain, wwwRedirect: 'www-to-apex' }, aliasTarget);
    expect(records.map((r) => [r.type, r.name, r.value, r.required])).toEqual([
      ['ALIAS', '@', 'edge.mirror.test', true],
      ['CNAME', 'www', 'edge.mirror.test', false],
      ['TXT', '_mirror-challenge', 'mirror-verification=t0k3n', true],
    ]);
    const result = await checkDomainDns(
      lookup(),
      { ...domain, wwwRedirect: 'www-to-apex' },
      aliasTarget,
      { verified: false },
    );
    expect(result).toMatchObject({ status: 'active', problem: null });
    expect(result.records[0]).toMatchObject({ status: 'ok', found: ['198.51.100.40'] });

    // Serving on www needs the www record too.
    const onWww = await checkDomainDns(
      lookup(),
      { ...domain, wwwRedirect: 'apex-to-www' },
      aliasTarget,
      { verified: false },
    );
    expect(onWww).toMatchObject({ status: 'pending', problem: 'records_missing' });
    expect(onWww.reason).toContain('www.alias-two.test');
  });

  it('no longer needs the TXT record once a domain was verified', async () => {
    dns.set('kept-three.test', { SOA: true, CNAME: 'edge.mirror.test' });
    const dnsInput = {
      domain: 'kept-three.test',
      zone: 'kept-three.test',
      token: 'gone',
      wwwRedirect: 'www-to-apex' as const,
    };
    expect(
      (await checkDomainDns(lookup(), dnsInput, aliasTarget, { verified: false })).problem,
    ).toBe('txt_missing');
    expect((await checkDomainDns(lookup(), dnsInput, aliasTarget, { verified: true })).status).toBe(
      'active',
    );
  });

  it('reports DNS it cannot reach instead of concluding anything', async () => {
    dns.silent = true;
    const unreachable = createDnsLookup({
      dnsServers: [dns.address],
      dnsTimeoutMs: 200,
      cnameTarget: 'edge.mirror.test',
      ipv4: ['203.0.113.1'],
      ipv6: [],
      caaIssuers: ['letsencrypt.org'],
    });
    await expect(
      checkDomainDns(
        unreachable,
        { domain: 'x.test', zone: 'x.test', token: 't', wwwRedirect: 'www-to-apex' },
        { ...aliasTarget, ipv4: ['203.0.113.1'] },
        { verified: false },
      ),
    ).rejects.toBeInstanceOf(DnsUnreachableError);
    // The zone falls back to the rule of thumb.
    expect(await findZone(unreachable, 'shop.x.test')).toEqual({
      zone: 'x.test',
      reachable: false,
    });
    dns.silent = false;
  });
});

describe('domain settings', () => {
  it('reads the DNS targets and servers, defaulting the CNAME target to SITES_DOMAIN', () => {
    const defaults = loadConfig({ SITES_DOMAIN: 'mirror.site' });
    expect(defaults.domains).toEqual({
      cnameTarget: 'mirror.site',
      ipv4: [],
      ipv6: [],
      dnsServers: [],
      dnsTimeoutMs: 1500,
      caaIssuers: ['letsencrypt.org'],
    });
    expect(defaults.appHosts).toEqual(['localhost', '127.0.0.1', '::1']);
    const set = loadConfig({
      APP_URL: 'https://app.example.com',
      APP_HOSTS: 'mirror-app, internal.lan',
      SITES_CNAME_TARGET: 'Edge.Mirror.Site',
      SITES_IPV4: '203.0.113.7, 203.0.113.8',
      SITES_IPV6: '2001:DB8::7',
      DNS_SERVERS: '127.0.0.1:5353,[::1]:53,1.1.1.1',
      CAA_ISSUERS: 'letsencrypt.org,zerossl.com',
    });
    expect(set.appHosts).toEqual([
      'app.example.com',
      'localhost',
      '127.0.0.1',
      '::1',
      'mirror-app',
      'internal.lan',
    ]);
    expect(set.domains).toMatchObject({
      cnameTarget: 'edge.mirror.site',
      ipv4: ['203.0.113.7', '203.0.113.8'],
      ipv6: ['2001:db8::7'],
      dnsServers: ['127.0.0.1:5353', '[::1]:53', '1.1.1.1'],
      caaIssuers: ['letsencrypt.org', 'zerossl.com'],
    });
  });

  it('lists every bad domain setting', () => {
    let error: unknown;
    try {
      loadConfig({ SITES_IPV4: '2001:db8::1', SITES_IPV6: '1.2.3.4', DNS_SERVERS: 'dns.google' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.map((p) => p.split(/[.:]/)[0])).toEqual(
      expect.arrayContaining(['SITES_IPV4', 'SITES_IPV6', 'DNS_SERVERS']),
    );
  });
});
