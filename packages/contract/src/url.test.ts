import { describe, expect, it } from 'vitest';
import { isValidDomainName, normalizeSourceUrl, withAutoPrefix } from './url.js';

describe('hero URL normalization', () => {
  it('prepends https:// only when there is a dot and no scheme', () => {
    expect(withAutoPrefix('  example.com ')).toBe('https://example.com');
    expect(withAutoPrefix('http://example.com')).toBe('http://example.com');
    expect(withAutoPrefix('example')).toBe('example');
  });

  it('trims, strips trailing slashes and rejects what does not parse', () => {
    expect(normalizeSourceUrl(' example.com/blog/ ')).toBe('https://example.com/blog');
    expect(normalizeSourceUrl('https://example.com//')).toBe('https://example.com');
    expect(normalizeSourceUrl('')).toBeNull();
    expect(normalizeSourceUrl('not a url')).toBeNull();
    expect(normalizeSourceUrl('ftp://example.com')).toBeNull();
  });
});

describe('domain names', () => {
  it('follows the park-domain rule', () => {
    expect(isValidDomainName('example.com')).toBe(true);
    expect(isValidDomainName('shop.my-site.co.uk')).toBe(true);
    expect(isValidDomainName('-bad.com')).toBe(false);
    expect(isValidDomainName('bad-.com')).toBe(false);
    expect(isValidDomainName('example.toolongtld')).toBe(false);
    expect(isValidDomainName(`${'a'.repeat(64)}.com`)).toBe(false);
    expect(isValidDomainName('localhost')).toBe(false);
  });
});
