import { applyPlan, type EditPlan } from '@mirror/customize';
import { describe, expect, it } from 'vitest';
import { hasSelectorSyntax, inAppEnglish, plainChanges } from './plain-changes.js';

const PAGE =
  '<!doctype html><html><head><title>Acme</title></head><body><ul><li class="active"><h1>Acme</h1></li></ul>' +
  '<nav><a href="/about">About</a></nav><img src="/hero.png" alt="hero"><div id="promo">Sale</div></body></html>';

describe('report lines in plain words', () => {
  it('tells selector syntax from colours, quoted words and addresses', () => {
    for (const text of [
      'Changed the text of li.active > h1',
      'Hid #promo',
      'Set alt of img[src="/a.png"]',
      'Removed p:nth-of-type(2)',
      'Hid .cookie-banner',
    ]) {
      expect(hasSelectorSyntax(text), text).toBe(true);
    }
    for (const text of [
      "Replaced 'a > b' with 'Globex' (2 places on 1 page)",
      'Changed #ff0000 to #00aa77 (3 places in 1 file)',
      'Replaced the image /img/logo.png with https://cdn.example/x.png',
      'Set the title to "Bakery" (3 pages)',
    ]) {
      expect(hasSelectorSyntax(text), text).toBe(false);
    }
  });

  it('says again from the plan every engine line that names a selector, keeping its counts', () => {
    const plan: EditPlan = {
      ops: [
        { op: 'setText', selector: 'li.active > h1', text: 'Fresh bread' },
        { op: 'hideElement', selector: '#promo' },
        { op: 'setAttribute', selector: 'img[src="/hero.png"]', name: 'alt', value: 'Our oven' },
        { op: 'removeElement', selector: '.nothing-here' },
        { op: 'replaceText', find: 'About', replace: 'Our story' },
      ],
    };
    const { summary } = applyPlan(plan, [{ path: '/', contentType: 'text/html', text: PAGE }]);
    expect(summary.slice(0, 4).every(hasSelectorSyntax)).toBe(true);
    const plain = plainChanges(summary, JSON.stringify(plan));
    expect(plain.filter(hasSelectorSyntax)).toEqual([]);
    expect(plain[0]).toMatch(/^Change .*"Fresh bread" \(1 element on 1 page\)$/);
    expect(plain[3]).toMatch(/^Nothing matched: remove /);
    expect(plain[4]).toBe(summary[4]);
  });
});

describe('lines in the app’s English (issue 31, item 5)', () => {
  it('spells colour as the app does, and writes CSS colour names in words', () => {
    expect(inAppEnglish('Set the main colour to darkgreen (#006400)', 'make it dark green')).toBe(
      'Set the main color to dark green (#006400)',
    );
    expect(inAppEnglish('Colours changed to lightgoldenrodyellow')).toBe(
      'Colors changed to light goldenrod yellow',
    );
  });

  it('keeps a colour name the owner typed, and quoted words as they are', () => {
    expect(inAppEnglish('Set the main colour to darkgreen (#006400)', 'use darkgreen')).toBe(
      'Set the main color to darkgreen (#006400)',
    );
    expect(inAppEnglish('Replace "Colour Lab darkgreen" with "Hue"')).toBe(
      'Replace "Colour Lab darkgreen" with "Hue"',
    );
    expect(inAppEnglish("Replaced 'colour' with 'hue' (2 places on 1 page)")).toBe(
      "Replaced 'colour' with 'hue' (2 places on 1 page)",
    );
  });
});
