import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseHtml, textOf } from './html.js';
import type { Element } from './html.js';
import { outlinePage } from './outline.js';
import { selectAll } from './selector.js';

const FIXTURES = new URL('../test/fixtures/site/', import.meta.url);
const INDEX = readFileSync(new URL('index.html', FIXTURES), 'utf8');
const CSS = readFileSync(new URL('css/site.css', FIXTURES), 'utf8');

describe('outlinePage', () => {
  const outline = outlinePage(INDEX, { path: '/', stylesheets: [CSS] });

  it('describes the page: head, sections, headings, texts, links, images', () => {
    expect(outline).toMatchObject({
      path: '/',
      title: 'Acme & Co. — Tools for builders',
      description: 'Acme makes tools for builders.',
      lang: 'en',
    });
    expect(outline.sections).toContainEqual({
      selector: '#newsletter',
      tag: 'section',
      id: 'newsletter',
      classes: ['newsletter', 'promo'],
      heading: 'Subscribe to our newsletter',
    });
    expect(outline.sections.map((s) => s.selector)).toEqual([
      'header',
      '#main-nav',
      'main',
      '#hero',
      'section.features',
      '#newsletter',
      'form',
      'footer',
    ]);
    expect(outline.headings).toEqual([
      { level: 1, text: 'Welcome to Acme', selector: 'h1' },
      { level: 2, text: 'Why Acme?', selector: 'section.features > h2' },
      { level: 2, text: 'Subscribe to our newsletter', selector: '#newsletter > h2' },
    ]);
    expect(outline.texts).toContainEqual({
      selector: '#hero > p',
      text: 'Acme & friends build great things since 1999. ACME is not acme.',
    });
    expect(outline.texts).toContainEqual({ selector: 'ul > li:nth-of-type(2)', text: 'Reliable' });
    expect(outline.links).toContainEqual({
      selector: '#main-nav > a:nth-of-type(2)',
      text: 'Pricing',
      href: '/pricing',
    });
    expect(outline.links).toContainEqual({ selector: 'a.brand', text: 'Acme logo', href: '/' });
    expect(outline.images.filter((i) => i.logo).map((i) => i.selector)).toEqual([
      'a.brand > img',
      'footer > img',
    ]);
    expect(JSON.stringify(outline)).not.toContain('window.brand');
  });

  it('gives selectors that find exactly the element described', () => {
    const page = parseHtml(INDEX);
    for (const item of [...outline.texts, ...outline.headings]) {
      const found = selectAll(page, item.selector);
      expect(found, item.selector).toHaveLength(1);
      expect(textOf(found[0] as Element), item.selector).toBe(item.text);
    }
    for (const item of [...outline.links, ...outline.sections, ...outline.images]) {
      expect(selectAll(page, item.selector), item.selector).toHaveLength(1);
    }
  });

  it('guesses colour roles and lists fonts', () => {
    expect(outline.roles).toEqual({
      primary: '#0066ff',
      accent: '#ff0000',
      background: '#ffffff',
      text: '#222222',
    });
    expect(outline.palette[0]).toEqual({ color: '#0066ff', count: 8, roles: ['primary'] });
    expect(outline.fonts[0]).toEqual({ family: 'Helvetica Neue', count: 2 });
    expect(outline.fonts.map((f) => f.family)).not.toContain('Brand');
  });

  it('stays within its size bound on a big page', () => {
    const sections = Array.from(
      { length: 300 },
      (_, k) =>
        `<section class="s${k}"><h2>Section ${k}</h2>${'<p>Lorem ipsum dolor sit amet. '.repeat(12)}</p>` +
        `<a href="/p/${k}">Read more about topic ${k}</a><img src="/img/${k}.png" alt="Picture ${k}"></section>`,
    ).join('');
    const big = outlinePage(`<!doctype html><title>Big</title><body>${sections}</body>`);
    const size = JSON.stringify(big).length;
    expect(size).toBeLessThanOrEqual(8_000);
    expect(big.truncated).toBe(true);
    expect(big.texts.length).toBeGreaterThan(0);
    expect(big.texts.every((t) => t.text.length <= 100)).toBe(true);
    expect(JSON.stringify(outlinePage(INDEX)).length).toBeLessThan(4_000);
  });
});
