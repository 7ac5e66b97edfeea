import { describe, expect, it } from 'vitest';
import { PART_PICKER_SCRIPT } from '@mirror/contract';
import {
  listedParts,
  looksGenerated,
  partSelector,
  partText,
  pickerDocument,
  pickOf,
} from './part-selector';

const page = (body: string) =>
  new DOMParser().parseFromString(
    `<!doctype html><html><head></head><body>${body}</body></html>`,
    'text/html',
  );

/** The picker script's own functions, run on a document as in the page's frame. */
function scriptOn(doc: Document) {
  const scope = {} as {
    parent?: unknown;
    mirrorPartSelector?: (el: Element) => string;
    mirrorPartText?: (el: Element) => string;
  };
  scope.parent = scope;
  // The hashed script text itself, as the frame runs it (its listeners wait for a parent).
  new Function('window', 'document', PART_PICKER_SCRIPT)(scope, doc);
  return { selector: scope.mirrorPartSelector!, text: scope.mirrorPartText! };
}

const only = (doc: Document, selector: string, el: Element) => {
  const found = doc.querySelectorAll(selector);
  return found.length === 1 && found[0] === el;
};

const SHOP = `
  <header id="top"><nav><a href="/">Home</a> <a href="/shop">Shop</a></nav></header>
  <main>
    <h1>Plans</h1>
    <section class="plans css-1x2y3z">
      <div class="plan" id="pro"><h2>Pro</h2><p class="price">Pro $9 a month</p></div>
      <div class="plan sc-abcdEF"><h2>Team</h2><p class="price">Team $29 a month</p></div>
      <div class="plan" id="r-a8f3k2x"><h2>Max</h2><p class="price Button_root__3xKfa">Max $99</p></div>
    </section>
    <ul class="features"><li>Fast</li><li class="item">Safe</li><li class="item">Cheap</li></ul>
    <table><tr><td>A</td><td>B</td></tr><tr><td>C</td><td>D</td></tr></table>
    <p id="dup">One</p><p id="dup">Two</p>
    <p>  Spaced
       out   <script>ignored()</script><style>.x{}</style><b>text</b> </p>
  </main>`;

describe('part selectors (issue 33, the part picker)', () => {
  it('names an element by a unique, stable id', () => {
    const doc = page(SHOP);
    expect(partSelector(doc.getElementById('pro')!)).toBe('#pro');
    expect(partSelector(doc.querySelector('#top a')!)).toBe('#top a:nth-of-type(1)');
    expect(partSelector(doc.body)).toBe('body');
  });

  it('chains from the nearest ancestor with a unique id, with nth-of-type where classes repeat', () => {
    const doc = page(SHOP);
    expect(partSelector(doc.querySelector('#pro .price')!)).toBe('#pro > p.price');
    const lis = doc.querySelectorAll('.features li');
    expect(partSelector(lis[0]!)).toBe('body li:nth-of-type(1)');
    expect(partSelector(lis[2]!)).toBe('body li.item:nth-of-type(3)');
    const cells = doc.querySelectorAll('td');
    expect(partSelector(cells[3]!)).toBe('body tr:nth-of-type(2) > td:nth-of-type(2)');
  });

  it('skips generated class names and ids, and ids that are not unique', () => {
    const doc = page(SHOP);
    const plans = doc.querySelectorAll('.plan');
    // `sc-abcdEF` is left out; the plain `plan` class repeats, so its place tells it apart.
    expect(partSelector(plans[1]!)).toBe('body div.plan:nth-of-type(2)');
    // A random-looking id is no anchor, nor is a generated class a step.
    const max = doc.querySelectorAll('.price')[2]!;
    expect(partSelector(max)).toBe('body div.plan:nth-of-type(3) > p.price');
    expect(partSelector(doc.querySelector('section')!)).toBe('body section.plans');
    const twos = doc.querySelectorAll('#dup');
    expect(partSelector(twos[1]!)).toBe('body p:nth-of-type(2)');
  });

  it('tells generated names from written ones', () => {
    for (const name of [
      'css-1x2y3z',
      'sc-abcdEF',
      'Button_root__3xKfa',
      'jsx-2342342',
      'a1b2c3d4e5',
    ])
      expect(looksGenerated(name), name).toBe(true);
    for (const name of ['price', 'plan-pro', 'col-md-12', 'h2', 'mt-4', 'pricing-table'])
      expect(looksGenerated(name), name).toBe(false);
  });

  it("reads an element's text: whitespace collapsed, no scripts or styles, 80 characters", () => {
    const doc = page(SHOP);
    expect(partText(doc.querySelectorAll('main > p')[2]!)).toBe('Spaced out text');
    const long = page(`<p>${'word '.repeat(40)}</p>`);
    const text = partText(long.querySelector('p')!);
    expect(text).toHaveLength(80);
    expect(text.startsWith('word word')).toBe(true);
  });

  it('names exactly the element for every element of a page, as the frame script does', () => {
    const doc = page(SHOP);
    const script = scriptOn(doc);
    for (const el of Array.from(doc.body.querySelectorAll('*'))) {
      const selector = partSelector(el);
      expect(only(doc, selector, el), selector).toBe(true);
      expect(script.selector(el), selector).toBe(selector);
      expect(script.text(el)).toBe(partText(el));
      // Only what the server's selector language reads.
      expect(selector).not.toMatch(/::|:hover|\|/);
    }
  });

  it("lists the page's headings, paragraphs, items, cells and prices for people who cannot point", () => {
    const doc = page(SHOP);
    const parts = listedParts(doc);
    expect(parts.slice(0, 3)).toEqual([
      { selector: 'body h1', text: 'Plans' },
      { selector: '#pro > h2', text: 'Pro' },
      { selector: '#pro > p.price', text: 'Pro $9 a month' },
    ]);
    expect(parts.map((p) => p.text)).toContain('Cheap');
    expect(parts.map((p) => p.text)).toContain('D');
    const many = page('<p>x</p>'.repeat(80));
    expect(listedParts(many)).toHaveLength(50);
  });

  it('takes only well-formed picks within the limits', () => {
    expect(pickOf({ type: 'mirror-pick', selector: ' #pro ', text: 'Pro' })).toEqual({
      selector: '#pro',
      text: 'Pro',
    });
    expect(pickOf({ type: 'other', selector: '#pro', text: '' })).toBeNull();
    expect(pickOf({ type: 'mirror-pick', selector: 1, text: '' })).toBeNull();
    expect(pickOf({ type: 'mirror-pick', selector: '', text: '' })).toBeNull();
    expect(pickOf({ type: 'mirror-pick', selector: 'p'.repeat(501), text: '' })).toBeNull();
    expect(pickOf({ type: 'mirror-pick', selector: 'p', text: 'x'.repeat(201) })).toBeNull();
    expect(pickOf('mirror-pick')).toBeNull();
    expect(pickOf(null)).toBeNull();
  });

  it("shows the page without its scripts and handlers, on the sites host, with the picker's script", () => {
    const html = `<!doctype html><html><head><base href="/old/"><script src="/app.js"></script>
      <link rel="stylesheet" href="/site.css"><meta http-equiv="refresh" content="0;url=/x">
      <style>body { background: url("/bg.png") }</style></head>
      <body onload="steal()"><a href="javascript:alert(1)" onclick="x()">Go</a>
      <img src="logo.png" srcset="/a.png 1x, /b.png 2x"><div style="background: url(/c.png)">Hi</div>
      <script>alert(1)</script><iframe src="/frame"></iframe></body></html>`;
    const { srcdoc, parts } = pickerDocument(html, 'http://v-abc.sites.test:8080/pricing/');
    const doc = new DOMParser().parseFromString(srcdoc, 'text/html');
    const scripts = doc.querySelectorAll('script');
    expect(scripts).toHaveLength(1);
    // Byte for byte the text the app's CSP allows by its hash.
    expect(scripts[0]!.textContent).toBe(PART_PICKER_SCRIPT);
    // No <base>: the app's CSP (base-uri 'self') would refuse it; references are absolute instead.
    expect(doc.querySelectorAll('base')).toHaveLength(0);
    expect(doc.querySelector('meta[http-equiv]')).toBeNull();
    expect(doc.querySelector('iframe')).toBeNull();
    expect(doc.body.hasAttribute('onload')).toBe(false);
    const link = doc.querySelector('a')!;
    expect(link.hasAttribute('onclick')).toBe(false);
    expect(link.hasAttribute('href')).toBe(false);
    expect(doc.querySelector('link')!.getAttribute('href')).toBe(
      'http://v-abc.sites.test:8080/site.css',
    );
    const img = doc.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('http://v-abc.sites.test:8080/pricing/logo.png');
    expect(img.getAttribute('srcset')).toBe(
      'http://v-abc.sites.test:8080/a.png 1x, http://v-abc.sites.test:8080/b.png 2x',
    );
    expect(doc.querySelector('div')!.getAttribute('style')).toContain(
      'url(http://v-abc.sites.test:8080/c.png)',
    );
    expect(doc.querySelector('style')!.textContent).toContain(
      'url("http://v-abc.sites.test:8080/bg.png")',
    );
    expect(parts).toEqual([]);
  });
});
