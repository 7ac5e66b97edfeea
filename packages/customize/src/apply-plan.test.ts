import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyPlan } from './apply-plan.js';
import type { ApplyPlanResult, EditOp, SiteDocument } from './types.js';

const FIXTURES = new URL('../test/fixtures/site/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');

const INDEX = read('index.html');
const PRICING = read('pricing.html');
const ABOUT = read('about/index.html');
const CSS = read('css/site.css');

const SITE: SiteDocument[] = [
  { path: '/', contentType: 'text/html; charset=utf-8', text: INDEX },
  { path: '/pricing', contentType: 'text/html', text: PRICING },
  { path: '/about/', contentType: 'text/html', text: ABOUT },
  { path: '/css/site.css', contentType: 'text/css', text: CSS },
  { path: '/app.js', contentType: 'application/javascript', text: 'const Acme = "#ff0000";' },
];

function apply(...ops: EditOp[]): ApplyPlanResult {
  return applyPlan({ ops }, SITE);
}

function doc(result: ApplyPlanResult, path: string): string | undefined {
  return result.changed.find((d) => d.path === path)?.text;
}

/**
 * The original with exactly these replacements: each `from` occurs once. Comparing whole documents
 * against it proves that every byte outside the edited spans is identical.
 */
function edited(original: string, ...pairs: [string, string][]): string {
  let out = original;
  for (const [from, to] of pairs) {
    const at = out.indexOf(from);
    if (at < 0 || out.indexOf(from, at + 1) >= 0) throw new Error(`'${from}' must occur once`);
    out = out.slice(0, at) + to + out.slice(at + from.length);
  }
  return out;
}

/** Applies a plan again to its own output. */
function reapply(result: ApplyPlanResult, ops: EditOp[]): ApplyPlanResult {
  const next = SITE.map((d) => ({ ...d, text: doc(result, d.path) ?? d.text }));
  return applyPlan({ ops }, next);
}

describe('replaceText', () => {
  const op: EditOp = { op: 'replaceText', find: 'Acme', replace: 'Globex' };

  it('replaces copy on every page and nothing else', () => {
    const result = apply(op);
    expect(doc(result, '/')).toBe(
      edited(
        INDEX,
        ['<title>Acme &amp;', '<title>Globex &amp;'],
        ['<h1>Welcome to Acme', '<h1>Welcome to Globex'],
        ['<p>Acme &amp; friends', '<p>Globex &amp; friends'],
        ['Why Acme?', 'Why Globex?'],
        ['<li>Acmeville', '<li>Globexville'],
        ['2024 Acme Inc.', '2024 Globex Inc.'],
      ),
    );
    expect(doc(result, '/pricing')).toBe(
      edited(
        PRICING,
        ['Pricing - Acme', 'Pricing - Globex'],
        ['<td>Acme Pro', '<td>Globex Pro'],
        ['Contact Acme', 'Contact Globex'],
      ),
    );
    expect(doc(result, '/about/')).toBe(
      ABOUT.replace('About Acme</TITLE>', 'About Globex</TITLE>')
        .replace('About Acme</H1>', 'About Globex</H1>')
        .replace('<P>Acme was', '<P>Globex was')
        .replace('by Acme\r\n', 'by Globex\r\n'),
    );
    expect(result.changed.map((d) => d.path)).toEqual(['/', '/pricing', '/about/']);
    expect(result.summary).toEqual(["Replaced 'Acme' with 'Globex' (13 places on 3 pages)"]);
    expect(result.report[0]).toMatchObject({ matches: 13, documents: 3, changedDocuments: 3 });
    expect(result.unmatched).toEqual([]);
  });

  it('is idempotent when the replacement does not contain the text', () => {
    const again = reapply(apply(op), [op]);
    expect(again.changed).toEqual([]);
    expect(again.unmatched).toEqual([0]);
    expect(again.summary).toEqual(["Nothing matched: replace 'Acme' with 'Globex'"]);
  });

  it('ignores case and matches whole words when asked', () => {
    const result = apply({ ...op, caseSensitive: false, wholeWord: true, pages: ['/'] });
    const page = doc(result, '/') ?? '';
    expect(page).toContain('<li>Acmeville approved');
    expect(page).toContain('Globex is not Globex.');
    expect(page).toContain('window.brand = "Acme"');
    expect(result.changed.map((d) => d.path)).toEqual(['/']);
  });

  it('edits readable attributes only when asked', () => {
    const result = apply({ ...op, includeAttributes: true, pages: ['/'] });
    expect(doc(result, '/')).toBe(
      edited(
        INDEX,
        ['<title>Acme &amp;', '<title>Globex &amp;'],
        ['content="Acme makes', 'content="Globex makes'],
        ['content="Acme &amp; Co."', 'content="Globex &amp; Co."'],
        ['alt="Acme logo"', 'alt="Globex logo"'],
        ['title="About Acme"', 'title="About Globex"'],
        ['<h1>Welcome to Acme', '<h1>Welcome to Globex'],
        ['<p>Acme &amp; friends', '<p>Globex &amp; friends'],
        ['alt="Acme team', 'alt="Globex team'],
        ['Why Acme?', 'Why Globex?'],
        ['<li>Acmeville', '<li>Globexville'],
        ['placeholder="Your Acme email"', 'placeholder="Your Globex email"'],
        ['<img src="/img/logo.png" alt="Acme">', '<img src="/img/logo.png" alt="Globex">'],
        ['2024 Acme Inc.', '2024 Globex Inc.'],
      ),
    );
  });

  it('matches decoded text and splices the source around character references', () => {
    const result = apply(
      { op: 'replaceText', find: 'Acme & friends', replace: 'Globex <and> friends' },
      { op: 'replaceText', find: 'since\u00a01999', replace: 'for years' },
      { op: 'replaceText', find: 'founded\nin 1999', replace: 'started in 2000' },
      { op: 'replaceText', find: '© 2024', replace: '(c) 2025' },
    );
    expect(doc(result, '/')).toBe(
      edited(
        INDEX,
        ['Acme &amp; friends', 'Globex &lt;and&gt; friends'],
        ['since&nbsp;1999', 'for years'],
        ['&copy; 2024', '(c) 2025'],
      ),
    );
    expect(doc(result, '/about/')).toBe(edited(ABOUT, ['founded\r\nin 1999', 'started in 2000']));
  });

  it('never touches scripts, styles or tags', () => {
    const result = apply(
      { op: 'replaceText', find: 'brand', replace: 'x' },
      { op: 'replaceText', find: 'hero', replace: 'x' },
      { op: 'replaceText', find: 'color', replace: 'x' },
    );
    expect(result.changed).toEqual([]);
    expect(result.unmatched).toEqual([0, 1, 2]);
  });

  it('limits itself to the pages in scope', () => {
    const result = apply({ ...op, pages: ['/about/index.html'] });
    expect(result.changed.map((d) => d.path)).toEqual(['/about/']);
    const glob = apply({ ...op, pages: ['/pri*'] });
    expect(glob.changed.map((d) => d.path)).toEqual(['/pricing']);
  });

  it('takes "the home page" to be the home page, not the other pages of a listing', () => {
    // A blog's second page is its own copy, `/?page=2`, with the same heading.
    const blog = [...SITE, { path: '/?page=2', contentType: 'text/html', text: INDEX }];
    const result = applyPlan(
      { ops: [{ op: 'setText', selector: 'h1', text: 'Fresh bread', pages: ['/'] }] },
      blog,
    );
    expect(result.changed.map((d) => d.path)).toEqual(['/']);
    expect(result.summary[0]).toMatch(/\(1 element on 1 page\)$/);
  });
});

describe('setText and rewriteCopy', () => {
  it('replaces the text of elements, escaping it', () => {
    const result = apply(
      { op: 'setText', selector: 'h1', text: 'Hello & <welcome>', pages: ['/'] },
      { op: 'setText', selector: '#hero > p', text: 'Plain copy' },
      { op: 'setText', selector: 'a', withText: 'pricing', text: 'Plans' },
    );
    expect(doc(result, '/')).toBe(
      edited(
        INDEX,
        ['<h1>Welcome to Acme</h1>', '<h1>Hello &amp; &lt;welcome&gt;</h1>'],
        [
          '<p>Acme &amp; friends build <strong>great</strong> things since&nbsp;1999. ACME is not acme.</p>',
          '<p>Plain copy</p>',
        ],
        ['>Pricing</a>', '>Plans</a>'],
      ),
    );
    expect(result.summary).toEqual([
      "Changed the text of h1 to 'Hello & <welcome>' (1 element on 1 page)",
      "Changed the text of #hero > p to 'Plain copy' (1 element on 1 page)",
      "Changed the text of a 'pricing' to 'Plans' (1 element on 1 page)",
    ]);
  });

  it('keeps the structure of an element with blocks inside and the whitespace around', () => {
    const result = apply({ op: 'setText', selector: '.features', text: 'Our strengths' });
    expect(doc(result, '/')).toBe(edited(INDEX, ['Why Acme?', 'Our strengths']));
    const about = apply({ op: 'setText', selector: 'p', text: 'Short.', pages: ['/about/'] });
    expect(doc(about, '/about/')).toBe(
      edited(
        ABOUT,
        ['<P>Acme was founded\r\nin 1999 by Acme\r\nfans.</P>', '<P>Short.</P>'],
        ['Meet the team.', 'Short.'],
      ),
    );
  });

  it('is idempotent', () => {
    const ops: EditOp[] = [{ op: 'setText', selector: 'h1', text: 'Hello' }];
    const again = reapply(apply(...ops), ops);
    expect(again.changed).toEqual([]);
    expect(again.report[0]).toMatchObject({ matches: 3, changedDocuments: 0 });
  });

  it('rewrites the texts of a section in order', () => {
    const result = apply({
      op: 'rewriteCopy',
      selector: '.features',
      texts: ['Why us?', 'Quick', 'Solid'],
    });
    expect(doc(result, '/')).toBe(
      edited(INDEX, ['Why Acme?', 'Why us?'], ['<li>Fast<li>Reliable', '<li>Quick<li>Solid']),
    );
    expect(result.summary).toEqual(['Rewrote the copy of .features (3 texts on 1 page)']);
    const long = apply({ op: 'rewriteCopy', selector: '#team', texts: ['A', 'B'] });
    expect(doc(long, '/about/')).toBe(edited(ABOUT, ['Meet the team.', 'A']));
    expect(long.report[0]?.notes).toEqual(['1 text(s) had no place in the section.']);
  });
});

describe('setAttribute', () => {
  it('rewrites values in place and adds missing attributes', () => {
    const result = apply(
      { op: 'setAttribute', selector: 'a', withText: 'Pricing', name: 'href', value: '/plans' },
      { op: 'setAttribute', selector: 'img.plan-pic', name: 'alt', value: 'Our "Pro" plan' },
      { op: 'setAttribute', selector: 'header a', name: 'href', value: '/home' },
      { op: 'setAttribute', selector: 'circle', name: 'stroke', value: 'red' },
      { op: 'setAttribute', selector: 'svg', name: 'viewBox', value: '0 0 20 20' },
    );
    expect(doc(result, '/')).toBe(
      edited(
        INDEX,
        ['<a href="/" class="brand">', '<a href="/home" class="brand">'],
        ['<a href="/">Home', '<a href="/home">Home'],
        ['<a href="/pricing">', '<a href="/home">'],
        ['<a href="/about/"', '<a href="/home"'],
        ['fill="#FF0000"/>', 'fill="#FF0000" stroke="red"/>'],
        ['<svg width="10" height="10">', '<svg width="10" height="10" viewBox="0 0 20 20">'],
      ),
    );
    expect(doc(result, '/pricing')).toBe(
      edited(
        PRICING,
        ['<a href=/>', '<a href="/home">'],
        [
          'srcset="/img/plan-2x.png 2x">',
          'srcset="/img/plan-2x.png 2x" alt="Our &quot;Pro&quot; plan">',
        ],
      ),
    );
  });

  it('keeps the case of SVG attribute names', () => {
    const svg = '<svg viewBox="0 0 1 1"><path d="M0"/></svg>';
    const result = applyPlan(
      { ops: [{ op: 'setAttribute', selector: 'svg', name: 'viewBox', value: '0 0 2 2' }] },
      [{ path: '/', contentType: 'text/html', text: svg }],
    );
    expect(result.changed[0]?.text).toBe('<svg viewBox="0 0 2 2"><path d="M0"/></svg>');
  });

  it('refuses event handlers and script addresses', () => {
    const result = apply(
      { op: 'setAttribute', selector: 'a', name: 'onclick', value: 'x()' },
      { op: 'setAttribute', selector: 'a', name: 'href', value: 'javascript:alert(1)' },
    );
    expect(result.changed).toEqual([]);
    expect(result.report.map((r) => r.error)).toEqual([
      "The attribute 'onclick' cannot be set.",
      "'javascript:alert(1)' is not an address a page may link to.",
    ]);
    expect(result.unmatched).toEqual([0, 1]);
  });
});

describe('changeColor', () => {
  it('changes every spelling of a colour in stylesheets, style blocks and attributes', () => {
    const result = apply({ op: 'changeColor', from: '#ff0000', to: '#0a7' });
    expect(doc(result, '/')).toBe(
      edited(
        INDEX,
        ['.promo{border-color:#FF0000}', '.promo{border-color:#0a7}'],
        ['style="background:#ff0000;color:#fff"', 'style="background:#0a7;color:#fff"'],
        ['fill="#FF0000"', 'fill="#0a7"'],
      ),
    );
    expect(doc(result, '/css/site.css')).toBe(
      edited(
        CSS,
        ['.red { color: red; }', '.red { color: #0a7; }'],
        ['solid #f00;', 'solid #0a7;'],
      ),
    );
    expect(result.summary).toEqual(['Changed #ff0000 to #0a7 (5 places in 2 files)']);
    expect(reapply(result, [{ op: 'changeColor', from: '#ff0000', to: '#0a7' }]).changed).toEqual(
      [],
    );
  });

  it('resolves the primary colour and keeps the alpha of translucent uses', () => {
    const result = apply({ op: 'changeColor', role: 'primary', to: '#0a7' });
    expect(result.summary).toEqual([
      'Changed the primary colour (#0066ff) to #0a7 (9 places in 2 files)',
    ]);
    expect(doc(result, '/')).toBe(
      edited(
        INDEX,
        ['content="#0066ff"', 'content="#0a7"'],
        [
          'linear-gradient(#0066ff, rgb(0 102 255 / 0.5))',
          'linear-gradient(#0a7, rgba(0, 170, 119, 0.5))',
        ],
      ),
    );
    expect(doc(result, '/css/site.css')).toBe(
      edited(
        CSS,
        ['--primary: #0066ff;', '--primary: #0a7;'],
        [
          'a { color: #0066ff; text-decoration-color: #0066FF80; }',
          'a { color: #0a7; text-decoration-color: rgba(0, 170, 119, 0.502); }',
        ],
        ['.btn { background-color: #0066FF;', '.btn { background-color: #0a7;'],
        ['rgba(0, 102, 255, .5)', 'rgba(0, 170, 119, 0.5)'],
        ['{ .btn { background-color: #0066ff; } }', '{ .btn { background-color: #0a7; } }'],
      ),
    );
  });

  it('changes the background only where it is the background', () => {
    const result = apply({ op: 'changeColor', role: 'background', to: '#111' });
    expect(result.changed.map((d) => d.path)).toEqual(['/css/site.css']);
    expect(doc(result, '/css/site.css')).toBe(
      edited(
        CSS,
        ['--bg: #ffffff;', '--bg: #111;'],
        ['body { background: #fff;', 'body { background: #111;'],
      ),
    );
  });

  it('adds a rule when the site sets no such colour', () => {
    const bare: SiteDocument[] = [
      {
        path: '/',
        contentType: 'text/html',
        text: '<html><head><title>x</title></head><body>Hi</body></html>',
      },
    ];
    const result = applyPlan(
      { ops: [{ op: 'changeColor', role: 'background', to: '#111' }] },
      bare,
    );
    expect(result.changed[0]?.text).toBe(
      '<html><head><style data-mirror-edit="color-background">body{background-color:#111}</style><title>x</title></head><body>Hi</body></html>',
    );
    const primary = applyPlan({ ops: [{ op: 'changeColor', role: 'primary', to: '#111' }] }, bare);
    expect(primary.unmatched).toEqual([0]);
    expect(primary.report[0]?.notes).toEqual(["No primary colour was found in the site's styles."]);
  });

  it('sets CSS variables', () => {
    const result = apply({ op: 'changeColor', variable: '--primary', to: 'rebeccapurple' });
    expect(doc(result, '/css/site.css')).toBe(
      edited(CSS, ['--primary: #0066ff;', '--primary: rebeccapurple;']),
    );
    expect(result.summary).toEqual(['Set --primary to rebeccapurple (1 place in 1 file)']);
  });

  it('reports colours it cannot read', () => {
    const result = apply({ op: 'changeColor', from: '#ff0000', to: 'blurple' });
    expect(result.report[0]?.error).toBe("'blurple' is not a colour.");
    expect(result.changed).toEqual([]);
  });
});

describe('changeFont', () => {
  it('puts the family first in font declarations, leaving icon and code fonts alone', () => {
    const result = apply({
      op: 'changeFont',
      family: 'Inter',
      stylesheetUrl: 'https://fonts.googleapis.com/css2?family=Inter&display=swap',
    });
    expect(doc(result, '/css/site.css')).toBe(
      edited(
        CSS,
        ['--font-heading: Georgia, serif;', '--font-heading: "Inter", serif;'],
        ['font-family: "Helvetica Neue", Arial', 'font-family: "Inter", Arial'],
        ['h1, h2 { font-family: Georgia, serif;', 'h1, h2 { font-family: "Inter", serif;'],
        ['600 14px/1.4 "Helvetica Neue"', '600 14px/1.4 "Inter"'],
        ['font-family: Red Hat Display,', 'font-family: "Inter",'],
      ),
    );
    const head =
      '<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter&amp;display=swap" data-mirror-edit="font-stylesheet"><style data-mirror-edit="font-all">body{font-family:"Inter", sans-serif}</style>';
    expect(doc(result, '/')).toBe(
      edited(INDEX, ['<meta charset="utf-8">', `<meta charset="utf-8">${head}`]),
    );
    expect(doc(result, '/pricing')).toBe(
      edited(
        PRICING,
        ['<head>', `<head>${head}`],
        [
          `style="font-family: 'Open Sans', sans-serif"`,
          `style="font-family: &apos;Inter&apos;, sans-serif"`,
        ],
      ),
    );
    expect(doc(result, '/about/')).toBe(edited(ABOUT, ['<TITLE>', `${head}<TITLE>`]));
  });

  it('changes only the headings when asked, and is idempotent', () => {
    const ops: EditOp[] = [{ op: 'changeFont', family: 'Playfair Display', role: 'headings' }];
    const result = apply(...ops);
    expect(doc(result, '/css/site.css')).toBe(
      edited(
        CSS,
        ['--font-heading: Georgia, serif;', '--font-heading: "Playfair Display", serif;'],
        [
          'h1, h2 { font-family: Georgia, serif;',
          'h1, h2 { font-family: "Playfair Display", serif;',
        ],
      ),
    );
    expect(doc(result, '/')).toContain(
      '<style data-mirror-edit="font-headings">h1,h2,h3,h4,h5,h6{font-family:"Playfair Display", serif}</style>',
    );
    expect(reapply(result, ops).changed).toEqual([]);
  });

  it('targets a selector with a rule of its own', () => {
    const result = apply({ op: 'changeFont', family: 'Inter', selector: '.hero', pages: ['/'] });
    expect(doc(result, '/')).toBe(
      edited(INDEX, [
        '<meta charset="utf-8">',
        '<meta charset="utf-8"><style data-mirror-edit="font .hero">.hero{font-family:"Inter", sans-serif !important}</style>',
      ]),
    );
  });
});

describe('hide, remove and insert', () => {
  it('hides elements with an inline style and is idempotent', () => {
    const ops: EditOp[] = [
      { op: 'hideElement', selector: '#newsletter' },
      { op: 'hideElement', selector: 'a.btn' },
    ];
    const result = apply(...ops);
    expect(doc(result, '/')).toBe(
      edited(
        INDEX,
        ['class="newsletter promo">', 'class="newsletter promo" style="display:none!important">'],
        [
          'style="background:#ff0000;color:#fff"',
          'style="background:#ff0000;color:#fff;display:none!important"',
        ],
      ),
    );
    expect(result.summary).toEqual([
      'Hid #newsletter (1 element on 1 page)',
      'Hid a.btn (1 element on 1 page)',
    ]);
    expect(reapply(result, ops).changed).toEqual([]);
  });

  it('removes exactly the element, also with implied end tags', () => {
    const result = apply(
      { op: 'removeElement', selector: '#newsletter' },
      { op: 'removeElement', selector: 'li:nth-of-type(2)' },
      { op: 'removeElement', selector: 'tr:first-child td:last-child' },
    );
    const start = INDEX.indexOf('<section id="newsletter"');
    const end = INDEX.indexOf('</section>', start) + '</section>'.length;
    expect(doc(result, '/')).toBe(
      edited(INDEX, [INDEX.slice(start, end), ''], ['<li>Reliable', '']),
    );
    expect(doc(result, '/pricing')).toBe(edited(PRICING, ['<td>$7', '']));
    expect(apply({ op: 'removeElement', selector: 'body' }).report[0]?.notes).toEqual([
      '3 matched element(s) cannot be removed (html, head, body or implied).',
    ]);
  });

  it('inserts sanitized HTML at each position, once', () => {
    const ops: EditOp[] = [
      {
        op: 'insertHtml',
        selector: '#hero',
        position: 'after',
        html: '<p onclick="x()">Hi<script>bad()</script><a href="javascript:alert(1)" class="k">x</a></p>',
      },
      { op: 'insertHtml', selector: 'ul', position: 'append', html: '<li>Fourth</li>' },
      { op: 'insertHtml', selector: 'h1', position: 'before', html: '<small>New</small>' },
      {
        op: 'insertHtml',
        selector: 'body',
        position: 'prepend',
        html: '<div>Top</div>',
        pages: ['/about/'],
      },
    ];
    const result = apply(...ops);
    expect(doc(result, '/')).toBe(
      edited(
        INDEX,
        ['<h1>Welcome', '<small>New</small><h1>Welcome'],
        ['approved\n      </ul>', 'approved\n      <li>Fourth</li></ul>'],
        [
          '</section>\n    <section class="features">',
          '</section><p>Hi<a class="k">x</a></p>\n    <section class="features">',
        ],
      ),
    );
    expect(doc(result, '/about/')).toBe(
      edited(
        ABOUT,
        ['<H1 CLASS="title">', '<small>New</small><H1 CLASS="title">'],
        ['<BODY>', '<BODY><div>Top</div>'],
      ),
    );
    expect(reapply(result, ops).changed).toEqual([]);
  });

  it('refuses snippets that are only unsafe and void targets', () => {
    const result = apply(
      { op: 'insertHtml', selector: 'h1', position: 'after', html: '<script>x()</script>' },
      { op: 'insertHtml', selector: 'img', position: 'append', html: '<b>x</b>' },
    );
    expect(result.report[0]?.error).toBe('Nothing is left of the HTML once it is made safe.');
    expect(result.report[1]?.matches).toBe(0);
    expect(result.changed).toEqual([]);
  });
});

describe('replaceImage', () => {
  it('replaces the logo on every page, dropping alternatives', () => {
    const result = apply({
      op: 'replaceImage',
      logo: true,
      src: 'https://cdn.example.com/l.svg',
      alt: 'Globex',
    });
    expect(doc(result, '/')).toBe(
      edited(
        INDEX,
        [
          '<img src="/img/logo.png" srcset="/img/logo@2x.png 2x" alt="Acme logo"',
          '<img src="https://cdn.example.com/l.svg" alt="Globex"',
        ],
        [
          '<img src="/img/logo.png" alt="Acme">',
          '<img src="https://cdn.example.com/l.svg" alt="Globex">',
        ],
      ),
    );
    expect(doc(result, '/pricing')).toBe(
      edited(PRICING, [
        '<img src=img/logo.png alt=Acme>',
        '<img src="https://cdn.example.com/l.svg" alt="Globex">',
      ]),
    );
    expect(result.summary).toEqual([
      'Replaced the logo with https://cdn.example.com/l.svg (3 images on 2 pages)',
    ]);
  });

  it('finds an image by its current address and uses an uploaded file', () => {
    const hash = 'c'.repeat(64);
    const result = apply(
      {
        op: 'replaceImage',
        currentSrc: '/img/chart.png',
        upload: { hash, contentType: 'image/webp' },
      },
      { op: 'replaceImage', selector: '.plan-pic', src: '/img/new.png' },
    );
    expect(doc(result, '/pricing')).toBe(
      edited(
        PRICING,
        [
          '<img src=/img/plan.png class=plan-pic srcset="/img/plan-2x.png 2x">',
          '<img src="/img/new.png" class=plan-pic>',
        ],
        [
          '<picture><source srcset="/img/chart.webp" type="image/webp"><img src="/img/chart.png"',
          `<picture><img src="/_mirror/uploads/${hash}.webp"`,
        ],
      ),
    );
    expect(result.assets).toEqual([
      { path: `/_mirror/uploads/${hash}.webp`, hash, contentType: 'image/webp' },
    ]);
    expect(result.summary[0]).toBe(
      'Replaced the image /img/chart.png with an uploaded image (1 image on 1 page)',
    );
  });

  it('matches a relative address from another page', () => {
    const result = apply({
      op: 'replaceImage',
      currentSrc: '/img/logo.png',
      src: '/img/x.png',
      pages: ['/pricing'],
    });
    expect(doc(result, '/pricing')).toBe(edited(PRICING, ['src=img/logo.png', 'src="/img/x.png"']));
  });
});

describe('title and description', () => {
  it('sets the title and its og: copy, adding a title where there is none', () => {
    const result = apply({ op: 'setTitle', title: 'Globex <Tools>' });
    expect(doc(result, '/')).toBe(
      edited(
        INDEX,
        [
          '<title>Acme &amp; Co. — Tools for builders</title>',
          '<title>Globex &lt;Tools&gt;</title>',
        ],
        ['content="Acme &amp; Co."', 'content="Globex &lt;Tools&gt;"'],
      ),
    );
    expect(doc(result, '/about/')).toBe(
      edited(ABOUT, ['<TITLE>About Acme</TITLE>', '<TITLE>Globex &lt;Tools&gt;</TITLE>']),
    );
    expect(result.summary).toEqual(["Set the title to 'Globex <Tools>' (3 pages)"]);
    const bare = applyPlan({ ops: [{ op: 'setTitle', title: 'T' }] }, [
      {
        path: '/a',
        contentType: 'text/html',
        text: '<!doctype html><html lang=en><p>x</p></html>',
      },
      { path: '/b', contentType: 'text/html', text: '<!doctype html>\n<p>x</p>' },
    ]);
    expect(bare.changed.map((d) => d.text)).toEqual([
      '<!doctype html><html lang=en><title>T</title><p>x</p></html>',
      '<!doctype html><title>T</title>\n<p>x</p>',
    ]);
  });

  it('sets the meta description or adds one', () => {
    const result = apply({ op: 'setDescription', description: 'Tools & more' });
    expect(doc(result, '/')).toBe(
      edited(INDEX, ['content="Acme makes tools for builders."', 'content="Tools &amp; more"']),
    );
    expect(doc(result, '/pricing')).toBe(
      edited(PRICING, ['<head>', '<head><meta name="description" content="Tools &amp; more">']),
    );
    expect(
      reapply(result, [{ op: 'setDescription', description: 'Tools & more' }]).changed,
    ).toEqual([]);
  });
});

describe('a plan', () => {
  it('runs ops in order on the result of the previous ones', () => {
    const result = apply(
      { op: 'replaceText', find: 'Welcome', replace: 'Hello', pages: ['/'] },
      { op: 'setText', selector: 'h1', text: 'Hi there', pages: ['/'] },
      { op: 'hideElement', selector: 'h1', pages: ['/'] },
    );
    expect(doc(result, '/')).toBe(
      edited(INDEX, [
        '<h1>Welcome to Acme</h1>',
        '<h1 style="display:none!important">Hi there</h1>',
      ]),
    );
  });

  it('reports ops that matched nothing or could not run, and changes nothing for them', () => {
    const result = apply(
      { op: 'hideElement', selector: '#does-not-exist' },
      { op: 'removeElement', selector: 'p:hover' },
      { op: 'setTitle', title: 'Ok', pages: ['/pricing'] },
    );
    expect(result.unmatched).toEqual([0, 1]);
    expect(result.summary).toEqual([
      'Nothing matched: hide #does-not-exist',
      "Could not remove p:hover: Unsupported selector near 'hover' in 'p:hover'",
      "Set the title to 'Ok' (1 page)",
    ]);
    expect(result.changed.map((d) => d.path)).toEqual(['/pricing']);
  });

  it('leaves documents other than HTML and CSS alone', () => {
    const result = apply(
      { op: 'replaceText', find: 'Acme', replace: 'Globex' },
      { op: 'changeColor', from: '#ff0000', to: 'blue' },
    );
    expect(result.changed.map((d) => d.path)).not.toContain('/app.js');
  });
});
