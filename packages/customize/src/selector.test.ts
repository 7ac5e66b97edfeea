import { describe, expect, it } from 'vitest';
import { getAttr, isText, parseHtml } from './html.js';
import type { Element } from './html.js';
import { checkSelector, selectAll, SelectorError, selectorHints } from './selector.js';

const page = parseHtml(`<!doctype html><html><body>
<header id="top" class="site-header dark"><nav><a href="/" class="brand">Home</a><a href="/pricing" data-x="a b">Pricing</a></nav></header>
<main>
  <section class="hero" id="hero"><h1>Hi</h1><p class="lead">One</p><p>Two</p><img src="/a.png" alt="Team photo"></section>
  <section class="features"><h2>Why</h2><ul><li>A<li>B<li>C</ul></section>
  <div class="cookie-banner" lang="en-GB"></div>
</main>
<svg viewBox="0 0 1 1"><linearGradient id="g"></linearGradient></svg>
</body></html>`);

/** The id of an element, else `tag.class:own text`. */
function label(el: Element): string {
  const id = getAttr(el, 'id');
  if (id) return id;
  const cls = getAttr(el, 'class');
  const own = el.childNodes.filter(isText).map((t) => t.value);
  return `${el.tagName}${cls ? `.${cls}` : ''}:${own.join('')}`;
}

const ids = (selector: string) => selectAll(page, selector).map(label);

describe('selector subset', () => {
  it('matches type, id, class and attribute selectors', () => {
    expect(ids('#hero')).toEqual(['hero']);
    expect(ids('section.hero')).toEqual(['hero']);
    expect(ids('.site-header.dark')).toEqual(['top']);
    expect(ids('a[href="/pricing"]')).toEqual(['a:Pricing']);
    expect(ids('a[href]')).toHaveLength(2);
    expect(ids('[data-x~=b]')).toEqual(['a:Pricing']);
    expect(ids('[lang|=en]')).toEqual(['div.cookie-banner:']);
    expect(ids('[class^="cookie"]')).toEqual(['div.cookie-banner:']);
    expect(ids('[class$=banner]')).toEqual(['div.cookie-banner:']);
    expect(ids('[class*="HEAD" i]')).toEqual(['top']);
    expect(ids('[class*="HEAD"]')).toEqual([]);
    expect(ids('IMG[ALT="team photo" i]')).toHaveLength(1);
    expect(ids('lineargradient')).toEqual(['g']);
  });

  it('follows combinators', () => {
    expect(ids('main h1')).toEqual(['h1:Hi']);
    expect(ids('section > p')).toEqual(['p.lead:One', 'p:Two']);
    expect(ids('h1 + p')).toEqual(['p.lead:One']);
    expect(ids('h1 ~ p')).toEqual(['p.lead:One', 'p:Two']);
    expect(ids('header a.brand')).toEqual(['a.brand:Home']);
    expect(ids('body > h1')).toEqual([]);
  });

  it('supports structural pseudo-classes, :not and lists', () => {
    expect(ids('li:first-child')).toEqual(['li:A']);
    expect(ids('li:last-of-type')).toEqual(['li:C']);
    expect(ids('li:nth-of-type(2)')).toEqual(['li:B']);
    expect(ids('li:nth-child(odd)')).toEqual(['li:A', 'li:C']);
    expect(ids('li:nth-child(2n)')).toEqual(['li:B']);
    expect(ids('li:nth-last-child(1)')).toEqual(['li:C']);
    expect(ids('section:not(.hero)')).toEqual(['section.features:']);
    expect(ids('h1, h2')).toEqual(['h1:Hi', 'h2:Why']);
    expect(ids(':is(h1, h2):only-of-type')).toEqual(['h1:Hi', 'h2:Why']);
    expect(ids('div:empty')).toEqual(['div.cookie-banner:']);
    expect(ids(':root')).toEqual(['html:']);
  });

  it('matches the selectors real instructions use', () => {
    expect(ids('section:not(#hero) li:not(:first-child)')).toEqual(['li:B', 'li:C']);
    expect(ids('li:nth-child(2n+1)')).toEqual(['li:A', 'li:C']);
    expect(ids('section > :nth-child(-n+2)')).toEqual(['h1:Hi', 'p.lead:One', 'h2:Why', 'ul:']);
    expect(ids('a[href^="/p"]')).toEqual(['a:Pricing']);
    expect(ids('img[src$=".png"]')).toEqual(['img:']);
    expect(ids('[class*=ook]')).toEqual(['div.cookie-banner:']);
    expect(ids('section:has(> h1)')).toEqual(['hero']);
    expect(ids('section:has(li):not(:has(img))')).toEqual(['section.features:']);
    expect(ids(':where(header, footer) a:last-child')).toEqual(['a:Pricing']);
  });

  it('reads escapes and rejects what it does not support', () => {
    expect(() => checkSelector('#a\\:b')).not.toThrow();
    for (const bad of ['a:hover', 'p::before', 'a[href', 'div >', '', 'a,,b', ':nth-child(x)']) {
      expect(() => checkSelector(bad), bad).toThrow(SelectorError);
    }
  });

  it('names the words a page must contain to match', () => {
    expect(selectorHints('#Hero, main .card[data-kind="Promo" i]')).toEqual([
      ['hero'],
      ['card', 'data-kind', 'promo'],
    ]);
    expect(selectorHints('li:nth-of-type(2)')).toEqual([[]]);
  });
});
