import { describe, expect, it } from 'vitest';
import { hostnameOf, isTenantHostname, siteLabelOf } from './tenant-host.js';

describe('tenant host detection', () => {
  it('reads host names from Host headers', () => {
    expect(hostnameOf('Demo.Localhost:8080')).toBe('demo.localhost');
    expect(hostnameOf('[::1]:8080')).toBe('::1');
    expect(hostnameOf('example.com.')).toBe('example.com');
    expect(hostnameOf(undefined)).toBe('');
  });

  it('finds the site label only for direct subdomains of the sites domain', () => {
    expect(siteLabelOf('demo.localhost', 'localhost')).toBe('demo');
    expect(siteLabelOf('localhost', 'localhost')).toBeNull();
    expect(siteLabelOf('a.b.localhost', 'localhost')).toBeNull();
    expect(siteLabelOf('evil-localhost', 'localhost')).toBeNull();
    expect(siteLabelOf('shop.mirror.site', 'mirror.site')).toBe('shop');
  });

  it("sends every name but the app's own to the sites host, and never an IP address", () => {
    const app = ['app.example.com', 'localhost'];
    expect(isTenantHostname('shop.sites.example.com', app)).toBe(true);
    expect(isTenantHostname('customer.example.org', app)).toBe(true);
    expect(isTenantHostname('app.example.com', app)).toBe(false);
    expect(isTenantHostname('10.0.0.5', app)).toBe(false);
    expect(isTenantHostname('::1', app)).toBe(false);
    expect(isTenantHostname('', app)).toBe(false);
  });
});
