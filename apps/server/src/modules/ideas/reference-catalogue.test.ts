import { describe, expect, it } from 'vitest';
import { parseConcepts } from './idea-synonyms.js';
import { parseReferenceSites, REFERENCE_SITES } from './reference-catalogue.js';
import { CATEGORY_KEYWORDS, REFERENCE_CATEGORIES } from './reference-categories.js';

describe('reference catalogue', () => {
  it('holds at least 300 sites', () => {
    expect(REFERENCE_SITES.length).toBeGreaterThanOrEqual(300);
  });

  it('has every site once: unique URLs and unique hosts', () => {
    const urls = REFERENCE_SITES.map((s) => s.url);
    expect(new Set(urls).size).toBe(urls.length);
    const hosts = REFERENCE_SITES.map((s) => new URL(s.url).hostname.replace(/^www\./, ''));
    const repeated = hosts.filter((host, i) => hosts.indexOf(host) !== i);
    expect(repeated).toEqual([]);
  });

  it('uses valid https addresses of public hosts', () => {
    for (const site of REFERENCE_SITES) {
      const url = new URL(site.url);
      expect(url.protocol, site.url).toBe('https:');
      expect(url.hostname, site.url).toMatch(/^([a-z0-9-]+\.)+[a-z]{2,}$/);
      expect(url.username + url.password + url.search + url.hash, site.url).toBe('');
      expect(site.url, site.url).not.toMatch(/\s/);
    }
  });

  it('gives every site a title, tags and a one-line description', () => {
    for (const site of REFERENCE_SITES) {
      expect(site.title.trim(), site.url).not.toBe('');
      expect(site.tags.length, site.url).toBeGreaterThan(0);
      for (const tag of site.tags) expect(tag, site.url).toMatch(/^\S(.*\S)?$/);
      expect(site.description.length, site.url).toBeGreaterThan(5);
      expect(site.description, site.url).not.toMatch(/\n/);
    }
  });

  it('has several sites in every category, and keywords for each', () => {
    for (const category of REFERENCE_CATEGORIES) {
      const count = REFERENCE_SITES.filter((s) => s.category === category).length;
      expect(count, category).toBeGreaterThanOrEqual(5);
      expect(CATEGORY_KEYWORDS[category].length, category).toBeGreaterThan(0);
    }
    const known = new Set<string>(REFERENCE_CATEGORIES);
    expect(REFERENCE_SITES.filter((s) => !known.has(s.category))).toEqual([]);
  });
});

describe('bundled data files', () => {
  const site = {
    title: 'Stripe',
    url: 'https://stripe.com',
    category: 'saas',
    tags: ['payments'],
    description: 'Payments infrastructure.',
  };

  it('accepts good catalogue entries as they are', () => {
    expect(parseReferenceSites([site])).toEqual([site]);
  });

  it('refuses a bad catalogue entry, naming its file, position, title and field', () => {
    const bad = [site, { ...site, title: 'Plain', url: 'http://plain.example' }];
    expect(() => parseReferenceSites(bad)).toThrow(
      /^reference-catalogue\.json: entry 1 \("Plain"\) is invalid: url: /,
    );
    expect(() => parseReferenceSites([{ ...site, category: 'spaceships' }])).toThrow(
      /entry 0 \("Stripe"\) is invalid: category: /,
    );
    expect(() => parseReferenceSites([{ ...site, tags: [] }])).toThrow(/tags: /);
    expect(() => parseReferenceSites({ sites: [site] })).toThrow(/expected an array/);
  });

  it('refuses a bad synonym concept, naming its terms', () => {
    expect(parseConcepts([{ terms: 'pizza', words: ['pizzeria'] }])).toHaveLength(1);
    expect(() => parseConcepts([{ terms: 'pizza italian', words: 'pizzeria' }])).toThrow(
      /^idea-synonyms\.json: entry 0 \("pizza italian"\) is invalid: words: /,
    );
    expect(() => parseConcepts([{ terms: 'x', words: ['a'], extra: 1 }])).toThrow(/entry 0/);
  });
});
