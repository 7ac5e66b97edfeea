import { describe, expect, it } from 'vitest';
import { SEARCH_TEMPLATE_LIMITS, searchTemplateOf, type SearchHit } from './search-template.js';

/**
 * The site's own results page as the template of a search the host answers (issue 34, item 5):
 * a WordPress theme's search page (Twenty Twenty-One's markup), a plain list, and pages that are
 * no template (no results found, a huge page, a page of menus only, hostile nesting).
 */

/** A search results page as WordPress with Twenty Twenty-One writes it (trimmed of its scripts). */
const WORDPRESS = `<!doctype html>
<html lang="en-US">
<head>
<meta charset="UTF-8">
<title>You searched for bread &#8211; Bakery Blog</title>
<link rel="stylesheet" id="twenty-twenty-one-style-css" href="/wp-content/themes/twentytwentyone/style.css?ver=2.1" media="all">
</head>
<body class="search search-results wp-embed-responsive is-light-theme">
<div id="page" class="site">
<header id="masthead" class="site-header has-title-and-tagline has-menu" role="banner">
<div class="site-branding"><p class="site-title"><a href="/" rel="home">Bakery Blog</a></p></div>
<nav id="site-navigation" class="primary-navigation" aria-label="Primary menu"><div class="primary-menu-container"><ul id="primary-menu-list" class="menu-wrapper"><li id="menu-item-5" class="menu-item menu-item-type-custom"><a href="/">Home</a></li><li id="menu-item-6" class="menu-item menu-item-type-post_type"><a href="/about/">About our bakery and team</a></li><li id="menu-item-7" class="menu-item menu-item-type-post_type"><a href="/contact/">Contact the bakery by mail</a></li></ul></div></nav>
</header>
<div id="content" class="site-content">
<div id="primary" class="content-area">
<main id="main" class="site-main">
<header class="page-header alignwide">
<h1 class="page-title">Results for &#8220;<span class="page-description search-term">bread</span>&#8221;</h1>
</header>
<div class="search-result-count default-max-width">We found 2 results for your search.</div>
<article id="post-12" class="post-12 post type-post status-publish format-standard hentry category-recipes entry">
<header class="entry-header alignwide"><h2 class="entry-title default-max-width"><a href="/2024/01/sourdough/">Sourdough basics</a></h2></header>
<div class="entry-content"><p>A loaf of bread with a crackling crust starts with a lively starter and a slow rise.</p></div>
<footer class="entry-footer default-max-width"><span class="posted-on">Published <time class="entry-date published" datetime="2024-01-05">January 5, 2024</time></span><span class="cat-links">Categorized as <a href="/category/recipes/" rel="category tag">Recipes</a></span></footer>
</article>
<article id="post-9" class="post-9 post type-post status-publish format-standard has-post-thumbnail hentry category-news entry">
<header class="entry-header alignwide"><h2 class="entry-title default-max-width"><a href="/2023/11/new-oven/">Our new oven</a></h2><figure class="post-thumbnail"><img src="/wp-content/uploads/oven.jpg" alt=""></figure></header>
<div class="entry-content"><p>The new oven bakes forty loaves of bread at once, every morning from five.</p></div>
<footer class="entry-footer default-max-width"><span class="posted-on">Published <time class="entry-date published" datetime="2023-11-02">November 2, 2023</time></span></footer>
</article>
<nav class="navigation pagination" aria-label="Posts"><div class="nav-links"><span aria-current="page" class="page-numbers current">1</span><a class="page-numbers" href="/page/2/?s=bread">2</a></div></nav>
</main>
</div>
</div>
<aside class="widget-area"><section id="search-2" class="widget widget_search"><form role="search" method="get" class="search-form" action="/"><label for="wp-block-search__input-1">Search…</label><input type="search" id="wp-block-search__input-1" class="search-field" value="bread" name="s"><input type="submit" class="search-submit" value="Search"></form></section><section id="recent-posts-2" class="widget widget_recent_entries"><h2 class="widget-title">Recent Posts</h2><ul><li><a href="/2024/01/sourdough/">Sourdough basics for the home baker</a></li><li><a href="/2023/11/new-oven/">Our new oven arrived this autumn</a></li><li><a href="/2023/10/rye/">Rye bread from the north, slowly</a></li></ul></section></aside>
<footer id="colophon" class="site-footer" role="contentinfo"><div class="site-info"><div class="powered-by">Proudly powered by <a href="https://wordpress.org/">WordPress</a>.</div></div></footer>
</div>
</body>
</html>`;

const HITS: SearchHit[] = [
  { href: '/2022/05/croissants/', title: 'Croissants', snippet: 'Layers of <mark>butter</mark>' },
  { href: '/about/', title: 'About <us> & "friends"', snippet: 'We bake with <mark>butter</mark>' },
  { href: '/contact/', title: 'Contact', snippet: 'Order <mark>butter</mark> cakes' },
];

const articles = (html: string) => html.match(/<article[\s>]/g)?.length ?? 0;

describe("the site's own results page as a template (issue 34, item 5)", () => {
  it("answers in a WordPress theme's search page: its layout kept, its results ours", () => {
    const template = searchTemplateOf(WORDPRESS, 's', 'bread')!;
    expect(template).toBeDefined();
    const html = template.render('butter', HITS, 'No page of this site has “butter”.');

    // Everything outside the results is the page's own, byte for byte, but the words searched.
    const head = WORDPRESS.slice(0, WORDPRESS.indexOf('<article'));
    const tail = WORDPRESS.slice(WORDPRESS.lastIndexOf('</article>') + '</article>'.length);
    expect(html.startsWith(head.replace('bread', 'butter').replace('>bread<', '>butter<'))).toBe(
      true,
    );
    expect(html.endsWith(tail.replace('value="bread"', 'value="butter"'))).toBe(true);
    expect(html).toContain('<title>You searched for butter &#8211; Bakery Blog</title>');
    expect(html).toContain('<span class="page-description search-term">butter</span>');
    expect(html).toContain('value="butter" name="s"');
    // The menu, the widgets and the footer are not results.
    expect(html).toContain('<li id="menu-item-6" class="menu-item menu-item-type-post_type">');
    expect(html).toContain('Rye bread from the north, slowly');

    // One article per hit, in the first result's markup: its title's link and its excerpt.
    expect(articles(html)).toBe(3);
    expect(html).toContain(
      '<article class="post-12 post type-post status-publish format-standard hentry category-recipes entry"><header class="entry-header alignwide"><h2 class="entry-title default-max-width"><a href="/2022/05/croissants/">Croissants</a></h2></header><div class="entry-content"><p>Layers of <mark>butter</mark></p></div></article>',
    );
    // The old results' dates, categories and ids are gone; titles are escaped.
    expect(html).not.toContain('Sourdough basics</a></h2>');
    expect(html).not.toContain('January 5, 2024');
    expect(html).not.toContain('id="post-');
    expect(html).toContain('<a href="/about/">About &lt;us&gt; &amp; &quot;friends&quot;</a>');
  });

  it('says when nothing was found, in the place of the results', () => {
    const html = searchTemplateOf(WORDPRESS, 's', 'bread')!.render('zzz', [], 'Nothing for “zzz”.');
    expect(articles(html)).toBe(0);
    expect(html).toContain(
      '<p class="mirror-search-none">Nothing for “zzz”.</p>\n<nav class="navigation pagination"',
    );
  });

  it('escapes the words searched wherever the page showed the old ones', () => {
    const html = searchTemplateOf(WORDPRESS, 's', 'bread')!.render(
      '"><script>alert(1)</script>',
      HITS,
      'none',
    );
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  it('takes a plain list of results, and keeps what is around it', () => {
    const page = `<!doctype html><html><head><title>Search</title><link rel="stylesheet" href="/s.css"></head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/blog/">Blog</a></li><li><a href="/shop/">Shop</a></li></ul></nav>
<div id="results" class="results"><p>Results for cake</p><ul class="search-hits">
<li class="hit"><a class="hit-title" href="/cake/">Cakes for every day</a><span class="hit-url">/cake/</span><div class="hit-text">Sponge, cream and cake of the week, baked each morning.</div></li>
<li class="hit"><a class="hit-title" href="/tarts/">Tarts</a><span class="hit-url">/tarts/</span><div class="hit-text">Fruit tarts and a lemon cake on Sundays and holidays.</div></li>
</ul></div><footer>© Bakery</footer></body></html>`;
    const html = searchTemplateOf(page, 'q', 'cake')!.render('pie', HITS.slice(0, 1), 'none');
    expect(html).toContain(
      '<ul class="search-hits">\n<li class="hit"><a class="hit-title" href="/2022/05/croissants/">Croissants</a><div class="hit-text">Layers of <mark>butter</mark></div></li>\n</ul>',
    );
    expect(html).toContain('<p>Results for pie</p>');
    expect(html).toContain('<footer>© Bakery</footer>');
    expect(html).toContain('<li><a href="/blog/">Blog</a></li>');
  });

  it("takes the results of an _s (Underscores) theme's search page, its entry summaries the snippets", () => {
    const article = (id: number, href: string, title: string, words: string) =>
      `<article id="post-${id}" class="post-${id} post type-post status-publish format-standard hentry category-uncategorized">
	<header class="entry-header">
		<h2 class="entry-title"><a href="${href}" rel="bookmark">${title}</a></h2>
		<div class="entry-meta">
			<span class="posted-on">Posted on <a href="${href}" rel="bookmark"><time class="entry-date published" datetime="2024-02-0${id}">February ${id}, 2024</time></a></span><span class="byline"> by <span class="author vcard"><a class="url fn n" href="/author/ana/">Ana</a></span></span>
		</div><!-- .entry-meta -->
	</header><!-- .entry-header -->
	<div class="entry-summary">
		<p>${words} [&hellip;]</p>
	</div><!-- .entry-summary -->
	<footer class="entry-footer">
		<span class="cat-links">Posted in <a href="/category/uncategorized/" rel="category tag">Uncategorized</a></span>
	</footer><!-- .entry-footer -->
</article><!-- #post-${id} -->`;
    const page = `<!doctype html><html lang="en-US"><head><title>Search Results for &#8220;rye&#8221; &#8211; Bakery</title></head>
<body class="search search-results hfeed"><div id="page" class="site"><a class="skip-link screen-reader-text" href="#primary">Skip to content</a>
<header id="masthead" class="site-header"><nav id="site-navigation" class="main-navigation"><ul id="primary-menu" class="menu"><li class="page_item page-item-2"><a href="/sample-page/">Sample Page about the bakery</a></li></ul></nav></header>
<main id="primary" class="site-main">
<header class="page-header"><h1 class="page-title">Search Results for: <span>rye</span></h1></header><!-- .page-header -->
${article(1, '/rye-bread/', 'Rye bread', 'Rye flour, caraway and a long cold proof make a dense loaf.')}
${article(2, '/rye-crackers/', 'Rye crackers', 'Thin crackers of rye and seeds, baked until they snap cleanly.')}
<nav class="navigation posts-navigation" aria-label="Posts"><h2 class="screen-reader-text">Posts navigation</h2></nav>
</main><!-- #main -->
<footer id="colophon" class="site-footer"><div class="site-info"><a href="https://wordpress.org/">Proudly powered by WordPress</a></div></footer></div></body></html>`;
    const html = searchTemplateOf(page, 's', 'rye')!.render('spelt', HITS.slice(0, 2), 'none');
    expect(html).toContain('<h1 class="page-title">Search Results for: <span>spelt</span></h1>');
    expect(html).toContain('<title>Search Results for &#8220;spelt&#8221; &#8211; Bakery</title>');
    expect(html).toContain(
      '<article class="post-1 post type-post status-publish format-standard hentry category-uncategorized"><header class="entry-header"><h2 class="entry-title"><a href="/2022/05/croissants/" rel="bookmark">Croissants</a></h2></header><div class="entry-summary"><p>Layers of <mark>butter</mark></p></div></article>',
    );
    expect(articles(html)).toBe(2);
    expect(html).not.toContain('Posted on');
    expect(html).toContain('<nav class="navigation posts-navigation" aria-label="Posts">');
  });

  it('is no template when its results are loose titles, excerpts and links, not items', () => {
    const loose = `<html><body><main id="main" class="site-main"><header class="page-header"><span class="search-page-title">Search Results for: <span>rye</span></span></header>
${['a', 'b', 'c']
  .map(
    (x) =>
      `<span class="search-post-title">Title ${x}</span><span class="search-post-excerpt">An excerpt of the post ${x} that says a few words.</span><span class="search-post-link"><a href="/${x}/">https://example.com/${x}/</a></span>`,
  )
  .join('\n')}</main></body></html>`;
    expect(searchTemplateOf(loose, 's', 'rye')).toBeUndefined();
  });

  it('is no template when the page shows no results, only menus, or is too large', () => {
    // The crawl captured a search that found nothing.
    expect(
      searchTemplateOf(
        '<html><body><nav><ul><li><a href="/">Home</a></li><li><a href="/a">About</a></li></ul></nav><main><h1>Nothing found for xyz</h1><p>Try other words.</p></main></body></html>',
        'q',
        'xyz',
      ),
    ).toBeUndefined();
    // A page of menus and widgets: their lists are no results.
    const menus = `<html><body><header><ul>${'<li><a href="/x">A long menu entry for a page of the site</a></li>'.repeat(20)}</ul></header><aside class="sidebar"><ul>${'<li><a href="/y">Another long widget entry for a page</a></li>'.repeat(20)}</ul></aside><p>Search</p></body></html>`;
    expect(searchTemplateOf(menus, 'q', 'x')).toBeUndefined();
    // Past the size bound, nothing is read.
    const huge = WORDPRESS.replace('</main>', `${'<p>x</p>'.repeat(150_000)}</main>`);
    expect(huge.length).toBeGreaterThan(SEARCH_TEMPLATE_LIMITS.bytes);
    expect(searchTemplateOf(huge, 's', 'bread')).toBeUndefined();
  });

  it('reads hostile pages within its bounds: deep nesting, thousands of look-alike items', () => {
    const deep = `<html><body>${'<div class="item">'.repeat(5_000)}<a href="/a">deep link to a page with words</a>${'</div>'.repeat(5_000)}</body></html>`;
    const started = Date.now();
    const template = searchTemplateOf(deep, 'q', 'a');
    if (template) expect(() => template.render('b', HITS, 'none')).not.toThrow();
    const many = `<html><body><main class="results">${'<div class="result"><h3><a href="/p">A page of the site</a></h3><p>Some words that say what the page holds.</p></div>'.repeat(12_000)}</main></body></html>`;
    expect(searchTemplateOf(many, 'q', 'a')).toBeUndefined();
    const fine = `<html><body><main class="results">${'<div class="result"><h3><a href="/p">A page of the site</a></h3><p>Some words that say what the page holds.</p></div>'.repeat(2_000)}</main></body></html>`;
    const rendered = searchTemplateOf(fine, 'q', 'a')!.render('b', HITS, 'none');
    expect(rendered.match(/class="result"/g)).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
