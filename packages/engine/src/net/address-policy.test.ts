import { describe, expect, it } from 'vitest';
import { classifyAddress, isPublicAddress, parseHostAsIp } from './address-policy.js';

describe('parseHostAsIp', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['127.0.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['0X7F000001', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f.0.0.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['127.0.0.1.', '127.0.0.1'],
    ['0', '0.0.0.0'],
    ['0x', '0.0.0.0'],
    ['3232235777', '192.168.1.1'],
    ['169.254.43518', '169.254.169.254'],
    ['[::1]', '::1'],
    ['::1', '::1'],
    ['[0:0:0:0:0:0:0:1]', '::1'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['[::FFFF:7F00:1]', '::ffff:7f00:1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['[fe80::1%25eth0]', 'fe80::1'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
  ])('%s → %s', (host, expected) => {
    expect(parseHostAsIp(host)).toBe(expected);
  });

  it.each([
    'example.com',
    'localhost',
    'a.b.c.d',
    '1.2.3.4.5',
    '256.0.0.1',
    '1.2.3.256',
    '4294967296',
    '08.0.0.1',
    '0xg.0.0.1',
    '1..2',
    '',
    '[example.com]',
    '[::1',
    '1::2::3',
    '127.0.0.1x',
  ])('%s is not an IP literal', (host) => {
    expect(parseHostAsIp(host)).toBeNull();
  });
});

describe('classifyAddress', () => {
  it.each([
    ['0.0.0.0', 'this-network'],
    ['0.1.2.3', 'this-network'],
    ['10.0.0.1', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.254', 'shared'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'ietf-protocol'],
    ['192.0.2.1', 'documentation'],
    ['192.88.99.1', '6to4-relay'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['2130706433', 'loopback'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::1', 'unique-local'],
    ['fd00:ec2::254', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'ietf-protocol'],
    ['3fff::1', 'documentation'],
    ['100::1', 'discard'],
    ['64:ff9b:1::a00:1', 'nat64-local'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::127.0.0.1', 'loopback'],
    ['::10.0.0.1', 'private'],
    ['::0.0.0.2', 'this-network'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::169.254.169.254', 'link-local'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:a9fe:a9fe::1', 'link-local'],
    ['2002:c0a8:101::', 'private'],
    ['4000::1', 'reserved'],
    ['::ffff:0:7f00:1', 'reserved'],
    ['not an ip', 'invalid'],
    ['', 'invalid'],
  ])('%s is %s', (ip, expected) => {
    expect(classifyAddress(ip)).toBe(expected);
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '93.184.215.14',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '169.253.255.255',
    '192.0.1.1',
    '198.17.255.255',
    '223.255.255.255',
    '2606:4700::1111',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (ip) => {
    expect(classifyAddress(ip)).toBe('public');
    expect(isPublicAddress(ip)).toBe(true);
  });
});
