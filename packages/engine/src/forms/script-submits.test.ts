import { describe, expect, it } from 'vitest';
import type { RenderedForm } from '../render/form-handlers.js';
import type { Manifest, ManifestEntry, PageForm } from '../types.js';
import { findForms } from './forms.js';
import { markScriptSubmits } from './script-submits.js';
import { siteFormsOf } from './site-forms.js';

const PAGE = 'https://shop.example/order';

function rendered(
  index: number,
  id: string,
  fields: string[],
  scriptSubmits: boolean,
  action = PAGE,
): RenderedForm {
  return { index, id, action, fields, scriptSubmits };
}

const flags = (forms: PageForm[]) => forms.map((f) => [f.id, f.scriptSubmits ?? false]);

describe('markScriptSubmits: the recorded forms a script of the render handles', () => {
  const html = `<form id="quote"><input name="product"><input name="quantity"></form>
    <form><input name="day"><input name="hour"></form>
    <form action="/products"><select name="color"></select></form>`;

  it('matches the forms of the rendered DOM by their place, id and field names', () => {
    const forms = findForms(html, PAGE);
    markScriptSubmits(
      forms,
      [
        rendered(0, 'quote', ['product', 'quantity'], true),
        rendered(1, '', ['hour', 'day'], true, 'https://shop.example/order/#moved'),
        rendered(2, '', ['color'], false, 'https://shop.example/products'),
      ],
      true,
    );
    expect(flags(forms)).toEqual([
      ['quote', true],
      ['form-2', true],
      ['form-3', false],
    ]);
  });

  it("matches a replayed page's forms by id, else by action and fields, when sure", () => {
    const forms = findForms(html, PAGE);
    // The page's script put a form of its own first: places differ, ids and fields still tell.
    markScriptSubmits(
      forms,
      [
        rendered(0, 'chat', ['text'], true),
        rendered(1, 'quote', ['product', 'quantity', 'token'], true),
        rendered(2, '', ['day', 'hour'], true),
        rendered(3, '', ['color'], false, 'https://shop.example/products'),
      ],
      false,
    );
    expect(flags(forms)).toEqual([
      ['quote', true],
      ['form-2', true],
      ['form-3', false],
    ]);
  });

  it('flags nothing it is not sure of', () => {
    const twice = findForms(
      `<form><input name="email"></form><form><input name="email"></form>
       <form id="a"><input name="x"></form><form id="a"><input name="y"></form>`,
      PAGE,
    );
    markScriptSubmits(
      twice,
      [
        rendered(0, '', ['email'], true),
        rendered(1, '', ['email'], false),
        // Two forms of one id, and of one address and fields: which one is which?
        rendered(2, 'a', ['x'], true),
        rendered(3, 'a', ['x'], true),
      ],
      false,
    );
    expect(flags(twice).every(([, flag]) => flag === false)).toBe(true);
    const none = findForms(html, PAGE);
    markScriptSubmits(none, undefined, true);
    markScriptSubmits(none, [rendered(0, 'quote', ['product', 'quantity'], false)], true);
    expect(none.some((f) => 'scriptSubmits' in f)).toBe(false);
  });
});

describe('siteFormsOf: a form its page script sends', () => {
  const html = `<form id="quote" action="/order"><input name="product"><input name="quantity"><button>Ask</button></form>
    <form role="search" action="/search"><input type="search" name="q"></form>
    <form id="login" action="/order"><input name="user"><input type="password" name="pw"></form>
    <form id="booking" method="post" action="/book.php"><input name="day"></form>`;

  function site(pages: { path: string; scripted: boolean }[]): Manifest {
    const entries: ManifestEntry[] = pages.map(({ path, scripted }) => {
      const forms = findForms(html, `https://shop.example${path}`);
      if (scripted) for (const f of forms) f.scriptSubmits = true;
      return {
        path,
        url: `https://shop.example${path}`,
        kind: 'page',
        status: 200,
        contentType: 'text/html',
        hash: 'h',
        size: 1,
        headers: {},
        forms,
      };
    });
    return { startUrl: 'https://shop.example/', entries } as unknown as Manifest;
  }

  it('takes a form without method of any kind but search, login and payment', () => {
    const plain = siteFormsOf(site([{ path: '/', scripted: false }]));
    expect(plain.map((f) => [f.id, f.captured])).toEqual([
      ['quote', false],
      ['form-2', false],
      ['login', false],
      ['booking', true],
    ]);
    // Only the second page was rendered: its script's word is enough.
    const scripted = siteFormsOf(
      site([
        { path: '/a', scripted: false },
        { path: '/b', scripted: true },
      ]),
    );
    expect(scripted.map((f) => [f.id, f.captured, f.scriptSubmits ?? false])).toEqual([
      ['quote', true, true],
      ['form-2', false, true],
      ['login', false, true],
      ['booking', true, true],
    ]);
  });
});
