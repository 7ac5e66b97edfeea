import { describe, expect, it } from 'vitest';
import { sampleCandidate, selectSample } from './sample.js';

const layout = (bodyClass: string, main: string, links: string[]) =>
  `<!doctype html><html><head><title>t</title><script>var x = "<div class='fake'>";</script></head>
<body class="${bodyClass}"><header class="site"><nav>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</nav></header>
<main>${main}</main><footer class="site"><p>©</p></footer></body></html>`;

const article = (n: number, next: number) =>
  layout(
    `single post-${n}`,
    `<article class="post post-${n}"><h1>Post ${n}</h1><p>Text</p>${'<div class="comment"><p>Nice</p></div>'.repeat((n % 3) + 1)}</article>`,
    ['/', '/pricing', `/blog/${next}`, `/blog/${n}#comments`],
  );
const product = (n: number) =>
  layout(
    'shop',
    `<div class="product"><img src="/p${n}.png"><h1>Product ${n}</h1><ul class="specs"><li>a</li></ul></div>`,
    ['/', '/pricing', 'https://elsewhere.example/buy'],
  );

function site() {
  const pages = [
    {
      path: '/',
      html: layout('home', '<section class="hero"><h1>Hi</h1></section>', [
        '/about',
        '/pricing',
        '/blog/1',
        '/blog/2',
        '/blog/3',
        ...[1, 2, 3, 4, 5, 6].map((n) => `/shop/${n}`),
      ]),
    },
    ...Array.from({ length: 20 }, (_, i) => ({
      path: `/blog/${i + 1}`,
      html: article(i + 1, i + 2),
    })),
    ...Array.from({ length: 6 }, (_, i) => ({ path: `/shop/${i + 1}`, html: product(i + 1) })),
    {
      path: '/pricing',
      html: layout('page', '<table class="plans"><tr><td>Free</td></tr></table>', ['/']),
    },
    { path: '/about', html: layout('page', '<section class="team"><h2>Us</h2></section>', ['/']) },
  ];
  return pages.map((p) => sampleCandidate(p.path, p.html));
}

describe('sampleCandidate', () => {
  it('gives pages of one layout one template, whatever their ids, text and repeats', () => {
    const pages = site();
    const templateOf = (path: string) => pages.find((p) => p.path === path)!.template;
    // post-3 vs post-12, one comment or three: the same article layout.
    expect(templateOf('/blog/3')).toBe(templateOf('/blog/12'));
    expect(templateOf('/blog/1')).toBe(templateOf('/blog/3'));
    expect(templateOf('/shop/1')).toBe(templateOf('/shop/6'));
    expect(new Set(pages.map((p) => p.template)).size).toBe(5);
  });

  it('lists the links to pages of the copy, without fragments, itself or other sites', () => {
    const page = sampleCandidate('/blog/3', article(3, 4));
    expect(page.links.sort()).toEqual(['/', '/blog/4', '/pricing']);
    const based = sampleCandidate(
      '/docs/a',
      '<html><head><base href="/docs/v2/"></head><body><a href="b?x=1">b</a><a href="mailto:x@y.z">m</a></body></html>',
    );
    expect(based.links).toEqual(['/docs/v2/b?x=1']);
  });
});

describe('selectSample', () => {
  it('checks every page of a site no larger than the sample', () => {
    const pages = site().slice(0, 5);
    expect(
      selectSample(pages, { maxPages: 5, entryPath: '/' }).map((p) => [p.path, p.why]),
    ).toEqual(pages.map((p) => [p.path, 'all']));
  });

  it('picks the entry page, one page per template, then the most linked pages', () => {
    const sample = selectSample(site(), { maxPages: 7, entryPath: '/' });
    expect(sample.map((p) => [p.path, p.why, p.inboundLinks])).toEqual([
      ['/', 'entry', 28],
      // Largest template first: 20 articles, their most linked one (home and /blog/1 link to it).
      ['/blog/2', 'template', 2],
      ['/shop/1', 'template', 1],
      // One-page templates: the more linked first.
      ['/pricing', 'template', 27],
      ['/about', 'template', 1],
      // Then the most linked pages not yet in.
      ['/blog/3', 'most-linked', 2],
      ['/blog/1', 'most-linked', 1],
    ]);
  });

  it('stops at the sample size even when there are more templates', () => {
    const sample = selectSample(site(), { maxPages: 3, entryPath: '/' });
    expect(sample.map((p) => p.path)).toEqual(['/', '/blog/2', '/shop/1']);
  });
});
