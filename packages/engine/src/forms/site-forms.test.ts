import { describe, expect, it } from 'vitest';
import type { Manifest, ManifestEntry } from '../types.js';
import { findForms } from './forms.js';
import { createUrlMapper } from '../url-map.js';
import { markForms } from './mark-forms.js';
import { matchSiteForm, siteFormsOf, siteSearchesOf, thankYouPageOf } from './site-forms.js';

const ORIGIN = 'https://www.example.org';

function page(path: string, html: string): ManifestEntry {
  const forms = findForms(html, ORIGIN + path);
  return {
    path,
    url: ORIGIN + path,
    kind: 'page',
    status: 200,
    contentType: 'text/html; charset=utf-8',
    hash: 'h',
    size: html.length,
    headers: {},
    ...(forms.length > 0 ? { forms } : {}),
  };
}

function manifest(entries: ManifestEntry[]): Manifest {
  return {
    version: 1,
    startUrl: ORIGIN + '/',
    entryPath: '/',
    createdAt: '2026-11-30T00:00:00Z',
    entries,
    failures: [],
    notes: [],
  } as unknown as Manifest;
}

const FOOTER = `<footer><form id="newsletter" action="/subscribe.php" method="post">
  <input type="email" name="email" required><button>Subscribe</button></form></footer>`;
const CONTACT = `<form action="contact.php" method="post"><input name="name"><input type="email" name="email">
  <textarea name="message"></textarea><button>Send</button></form>`;

describe('siteFormsOf: the forms of a site, grouped', () => {
  const site = manifest([
    page('/', `<h1>Home</h1>${FOOTER}`),
    page('/about/', `<h1>About</h1>${FOOTER}`),
    page('/contact/', `${CONTACT}${FOOTER}`),
    page(
      '/login',
      `<form action="/login" method="post"><input name="user"><input type="password" name="pw"></form>`,
    ),
    page('/search', `<form action="https://www.example.org/search"><input name="q"></form>`),
    page(
      '/ext',
      `<form action="https://formspree.io/f/abc" method="post"><input name="email"></form>`,
    ),
    page('/contact/thank-you.html', '<p>Thanks!</p>'),
    page('/thanks', '<p>Thanks!</p>'),
  ]);
  const forms = siteFormsOf(site);

  it('makes one form of a footer form on every page, with its pages', () => {
    const newsletter = forms.filter((f) => f.id === 'newsletter');
    expect(newsletter).toHaveLength(1);
    expect(newsletter[0]).toMatchObject({
      actionPath: '/subscribe.php',
      kind: 'newsletter',
      captured: true,
      pageCount: 3,
      pages: ['/', '/about/', '/contact/'],
    });
  });

  it('captures POST forms to the site itself, never login forms, GET forms or other sites', () => {
    const byAction = Object.fromEntries(forms.map((f) => [f.action, f]));
    expect(byAction[`${ORIGIN}/contact/contact.php`]).toMatchObject({
      actionPath: '/contact/contact.php',
      kind: 'contact',
      captured: true,
    });
    expect(byAction[`${ORIGIN}/login`]).toMatchObject({ captured: false, refusal: 'password' });
    expect(byAction[`${ORIGIN}/search`]).toMatchObject({ kind: 'search', captured: false });
    expect(byAction['https://formspree.io/f/abc']).toMatchObject({
      actionPath: '',
      captured: false,
    });
  });

  it('gives a form the same key in every version', () => {
    expect(siteFormsOf(site).map((f) => f.key)).toEqual(forms.map((f) => f.key));
    expect(new Set(forms.map((f) => f.key)).size).toBe(forms.length);
  });

  it("finds the thank-you page of the form's folder or one above it", () => {
    const contact = forms.find((f) => f.kind === 'contact')!;
    expect(thankYouPageOf(site, contact)).toBe('/contact/thank-you.html');
    const newsletter = forms.find((f) => f.kind === 'newsletter')!;
    expect(thankYouPageOf(site, newsletter)).toBe('/thanks');
    const shop = manifest([page('/', CONTACT), page('/shop/thanks', '<p>Thanks</p>')]);
    expect(thankYouPageOf(shop, siteFormsOf(shop)[0]!)).toBeUndefined();
    const folder = manifest([page('/contact/', CONTACT), page('/thank-you/', '<p>Thanks</p>')]);
    expect(thankYouPageOf(folder, siteFormsOf(folder)[0]!)).toBe('/thank-you/');
  });
});

describe('matchSiteForm: which form a POST to the copy submits', () => {
  const netlify = (id: string, fields: string) =>
    `<form name="${id}" method="POST" data-netlify="true">${fields}<button>Go</button></form>`;
  const site = manifest([
    page(
      '/',
      netlify(
        'quote',
        '<input name="name"><input name="email"><textarea name="details"></textarea>',
      ) + netlify('signup', '<input type="email" name="email">'),
    ),
    page('/contact/', CONTACT),
  ]);
  const forms = siteFormsOf(site);

  it('tells forms that post to one address apart by their fields', () => {
    expect(matchSiteForm(forms, { path: '/', fields: ['email'] })?.id).toBe('signup');
    expect(matchSiteForm(forms, { path: '/', fields: ['name', 'email', 'details'] })?.id).toBe(
      'quote',
    );
  });

  it('takes the key the copy put in the form first', () => {
    const quote = forms.find((f) => f.id === 'quote')!;
    expect(matchSiteForm(forms, { path: '/other', fields: ['email'], key: quote.key })?.id).toBe(
      'quote',
    );
  });

  it("finds a form a page's script posts elsewhere by its fields, and nothing for an API call", () => {
    const post = {
      path: '/api/contact',
      fields: ['name', 'email', 'message'],
      fromPage: '/contact/',
    };
    expect(matchSiteForm(forms, post)?.actionPath).toBe('/contact/contact.php');
    expect(matchSiteForm(forms, { ...post, fields: ['query', 'variables'] })).toBeUndefined();
    expect(matchSiteForm(forms, { ...post, fields: ['email'] })).toBeUndefined();
    expect(matchSiteForm(forms, { ...post, fromPage: undefined })).toBeUndefined();
  });
});

describe('markForms: the forms the copy takes, marked', () => {
  const mapper = createUrlMapper(ORIGIN + '/');
  const html = `<!doctype html><html><body>${FOOTER}
    <form action="/login" method="post"><input name="user"><input type="password" name="pw"></form>
    <template><form method="post"><input name="x"></form></template>
    <form action="/search"><input name="q"></form>
    ${CONTACT}</body></html>`;

  it('adds a honeypot and the key at the end of each form it takes, and the script once', () => {
    const marked = markForms(html, findForms(html, ORIGIN + '/contact/'), mapper);
    const keys = [...marked.matchAll(/<mirror-hp data-key="([\w-]{12})"/g)].map((m) => m[1]);
    const site = siteFormsOf(manifest([{ ...page('/contact/', html) }])).filter((f) => f.captured);
    expect(site.map((f) => f.id)).toEqual(['newsletter', 'form-4']);
    expect(keys).toEqual(site.map((f) => f.key));
    expect(marked.match(/<script>/g)).toHaveLength(1);
    expect(marked.match(/name="_mirror_hp"/g)).toHaveLength(2);
    // Each inside its form, at its end; nothing else of the page changed.
    expect(marked).toContain('<button>Subscribe</button><mirror-hp');
    expect(marked).toContain('<button>Send</button><mirror-hp');
    expect(marked.replace(/<mirror-hp[\s\S]*?<\/mirror-hp>/g, '')).toBe(html);
    // The fields the page's forms have are what they were: the honeypot is the copy's own.
    const again = findForms(marked, ORIGIN + '/contact/');
    expect(again.map((f) => f.fields.filter((x) => x.name !== '_mirror_hp').length)).toEqual(
      findForms(html, ORIGIN + '/contact/').map((f) => f.fields.length),
    );
  });

  it('leaves a page without forms it takes, and a form never closed, as they are', () => {
    const login = '<form action="/login" method="post"><input type="password" name="pw"></form>';
    expect(markForms(login, findForms(login, ORIGIN + '/'), mapper)).toBe(login);
    const unclosed = '<form method="post"><input name="email" type="email">';
    expect(markForms(unclosed, findForms(unclosed, ORIGIN + '/'), mapper)).toBe(unclosed);
  });
});

describe('siteSearchesOf: where the site searches', () => {
  it('names the path and the field of GET search forms to the site, not of other sites', () => {
    const site = manifest([
      page('/', '<form role="search" action="/"><input type="search" name="s"></form>'),
      page(
        '/docs/',
        '<form action="/docs/search.html"><input name="q" placeholder="Search docs"></form>',
      ),
      page('/ext', '<form action="https://duckduckgo.com/"><input type="search" name="q"></form>'),
    ]);
    expect([...siteSearchesOf(site)]).toEqual([
      ['/', 's'],
      ['/docs/search.html', 'q'],
    ]);
  });
});

describe('what the copy takes of forms without method', () => {
  it("takes a contact form a script sends, not a filter or an app's input box", () => {
    const site = manifest([
      page(
        '/',
        `<form id="quote"><input name="name"><input type="email" name="email"><textarea name="message"></textarea><button>Ask</button></form>
         <form id="filter"><select name="sort"><option>price</option></select><button>Sort</button></form>
         <form class="todo"><input class="new-todo" placeholder="What needs to be done?"></form>`,
      ),
    ]);
    expect(siteFormsOf(site).map((f) => [f.id, f.captured])).toEqual([
      ['quote', true],
      ['filter', false],
      ['form-3', false],
    ]);
  });
});
