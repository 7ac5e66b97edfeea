import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config/env.js';
import { startDnsServer, type TestDnsServer } from '../../test/dns-server.js';
import {
  checkDomainDns,
  DnsUnreachableError,
  expectedRecords,
  findZone,
  isCdnAddress,
  registrableDomainOf,
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
  it.each([
    ['example.com', 'example.com'],
    ['a.b.example.com', 'example.com'],
    ['example.co.uk', 'example.co.uk'],
    ['shop.example.co.uk', 'example.co.uk'],
    ['foo.example.com.au', 'example.com.au'],
    ['shop.example.io', 'example.io'],
    ['www.bücher.de', 'bücher.de'],
    ['www.xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ['shop.example.xn--p1ai', 'example.xn--p1ai'],
    ['shop.x.test', 'x.test'],
    // Private suffixes do not count: the user of me.github.io does not own an apex there.
    ['me.github.io', 'github.io'],
    ['blog.me.github.io', 'github.io'],
    ['co.uk', 'co.uk'],
    ['localhost', 'localhost'],
  ])('takes %s to be under the registrable domain %s', (domain, registrable) => {
    expect(registrableDomainOf(domain)).toBe(registrable);
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
    dns.set('com.au', { SOA: true });
    expect((await findZone(lookup(), 'shop.unregistered.com.au')).zone).toBe('unregistered.com.au');
    // A user's page on a private suffix lives in the provider's zone: not an apex.
    dns.set('github.io', { SOA: true });
    expect(await findZone(lookup(), 'me.github.io')).toEqual({
      zone: 'github.io',
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

  it.each([
    ['104.16.0.1', true],
    ['104.15.255.255', false],
    ['198.41.255.254', true],
    ['2606:4700:10::6816:1', true],
    ['2400:CB00::1', true],
    ['2606:4701::1', false],
    ['::ffff:104.16.0.1', true],
    ['::ffff:6810:1', true],
    ['::ffff:198.51.100.40', false],
    ['not-an-address', false],
  ])('tells whether %s is a CDN proxy address (%s)', (address, cdn) => {
    expect(isCdnAddress(address)).toBe(cdn);
  });

  it('reports a host proxied through a CDN, found by its IPv6 or IPv4-mapped addresses', async () => {
    dns.set('edge.mirror.test', { A: ['198.51.100.40'] });
    for (const [name, address] of [
      ['proxied-six.test', '2606:4700::6810:1'],
      ['proxied-mapped.test', '::ffff:6810:1'],
    ] as const) {
      dns.set(name, { SOA: true, AAAA: [address] });
      const result = await checkDomainDns(
        lookup(),
        { domain: name, zone: name, token: 't', wwwRedirect: 'www-to-apex' },
        aliasTarget,
        { verified: true },
      );
      expect(result).toMatchObject({ status: 'misconfigured', problem: 'cdn_proxy' });
    }
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
    // The zone falls back to the registrable domain.
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
