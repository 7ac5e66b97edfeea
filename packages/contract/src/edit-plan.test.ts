import { describe, expect, it } from 'vitest';
import {
  EDIT_PLAN_LIMITS,
  EDIT_PLAN_MESSAGES,
  EditOp,
  EditPlan,
  isSafeHtmlSnippet,
} from './edit-plan.js';
import { isSafeUrl } from './url-safety.js';

const HASH = 'ab'.repeat(32);

/** One valid op of every kind. */
const EVERY_OP: unknown[] = [
  { op: 'replaceText', find: 'Acme', replace: 'Globex', caseSensitive: false, wholeWord: true },
  { op: 'setText', selector: 'h1', text: 'Welcome', pages: ['/'] },
  { op: 'setText', selector: '#hero > p:nth-of-type(2)', text: 'Ship today' },
  { op: 'rewriteCopy', selector: '#hero', texts: ['Build faster', 'Ship today'] },
  { op: 'setAttribute', selector: 'a', withText: 'Pricing', name: 'href', value: '/plans' },
  { op: 'changeColor', from: '#ff0000', to: '#0a7' },
  { op: 'changeColor', role: 'primary', to: 'rgb(0 170 119)' },
  { op: 'changeColor', variable: '--brand', to: 'teal' },
  {
    op: 'changeFont',
    family: 'Inter',
    role: 'headings',
    stylesheetUrl: 'https://fonts.example/x.css',
  },
  { op: 'hideElement', selector: 'footer' },
  { op: 'removeElement', selector: 'section.newsletter', pages: ['/blog/*'] },
  { op: 'insertHtml', selector: 'body', position: 'prepend', html: '<p class="x">Hi</p>' },
  { op: 'replaceImage', logo: true, src: 'https://cdn.example.com/logo.svg', alt: 'Globex' },
  {
    op: 'replaceImage',
    currentSrc: '/img/a.png',
    upload: { hash: HASH, contentType: 'image/png' },
  },
  { op: 'replaceImage', selector: '.hero img', src: '/img/b.png' },
  { op: 'setTitle', title: 'Globex' },
  { op: 'setDescription', description: 'Tools for builders' },
];

function messages(input: unknown): string[] {
  const result = EditPlan.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => i.message);
}

describe('edit plan schema', () => {
  it('accepts every kind of operation', () => {
    const parsed = EditPlan.parse({ ops: EVERY_OP, summary: 'All of it' });
    expect(parsed.ops.map((o) => o.op)).toEqual(EVERY_OP.map((o) => (o as { op: string }).op));
    expect(EditPlan.parse({ ops: [] }).ops).toEqual([]);
  });

  it('rejects unknown operations and missing fields', () => {
    expect(EditOp.safeParse({ op: 'deleteSite' }).success).toBe(false);
    expect(EditOp.safeParse({ op: 'setText', text: 'x' }).success).toBe(false);
    expect(EditOp.safeParse({ op: 'insertHtml', selector: 'p', html: '<b>x</b>' }).success).toBe(
      false,
    );
  });

  it('limits the number of ops and the length of texts with clear messages', () => {
    const many = Array.from({ length: EDIT_PLAN_LIMITS.maxOps + 1 }, () => ({
      op: 'setTitle',
      title: 'x',
    }));
    expect(messages({ ops: many })).toEqual([EDIT_PLAN_MESSAGES.tooManyOps]);
    const long = 'x'.repeat(EDIT_PLAN_LIMITS.maxTextLength + 1);
    expect(messages({ ops: [{ op: 'setTitle', title: long }] })).toEqual([
      EDIT_PLAN_MESSAGES.textTooLong,
    ]);
    expect(messages({ ops: [{ op: 'replaceText', find: '', replace: 'x' }] })).toEqual([
      EDIT_PLAN_MESSAGES.findEmpty,
    ]);
    const longFind = 'x'.repeat(EDIT_PLAN_LIMITS.maxFindLength + 1);
    expect(messages({ ops: [{ op: 'replaceText', find: longFind, replace: 'x' }] })).toEqual([
      EDIT_PLAN_MESSAGES.findTooLong,
    ]);
    const longHtml = `<p>${'x'.repeat(EDIT_PLAN_LIMITS.maxHtmlLength)}</p>`;
    expect(
      messages({ ops: [{ op: 'insertHtml', selector: 'p', position: 'after', html: longHtml }] }),
    ).toEqual([EDIT_PLAN_MESSAGES.htmlTooLong]);
    expect(messages({ ops: [{ op: 'setTitle', title: 'x' }], summary: long })).toEqual([
      EDIT_PLAN_MESSAGES.summaryTooLong,
    ]);
  });

  it('refuses scripts, event handlers and javascript: addresses', () => {
    for (const html of [
      '<script>alert(1)</script>',
      '<img src=x onerror="alert(1)">',
      '<a href="javascript:alert(1)">x</a>',
      '<iframe src="/x"></iframe>',
      '<iframe srcdoc="<b>x</b>">',
    ]) {
      expect(isSafeHtmlSnippet(html), html).toBe(false);
      expect(
        messages({ ops: [{ op: 'insertHtml', selector: 'p', position: 'after', html }] }),
      ).toEqual([EDIT_PLAN_MESSAGES.htmlUnsafe]);
    }
    expect(isSafeHtmlSnippet('<p class="online">Only the best</p>')).toBe(true);
    expect(isSafeHtmlSnippet('<p>Learn javascript: the basics, online=always</p>')).toBe(true);
    expect(isSafeUrl(' java\tscript:alert(1)')).toBe(false);
    expect(isSafeUrl('data:text/html,<b>x</b>')).toBe(false);
    expect(isSafeUrl('data:image/png;base64,AAAA')).toBe(true);
    expect(isSafeUrl('/plans')).toBe(true);
    expect(
      messages({
        ops: [{ op: 'setAttribute', selector: 'a', name: 'href', value: 'javascript:x()' }],
      }),
    ).toEqual([EDIT_PLAN_MESSAGES.urlInvalid]);
    expect(
      messages({ ops: [{ op: 'setAttribute', selector: 'a', name: 'onclick', value: 'x()' }] }),
    ).toEqual([EDIT_PLAN_MESSAGES.attributeInvalid]);
    expect(messages({ ops: [{ op: 'replaceImage', logo: true, src: 'javascript:x' }] })).toEqual([
      EDIT_PLAN_MESSAGES.urlInvalid,
    ]);
  });

  it('wants exactly one colour target and valid colours', () => {
    expect(messages({ ops: [{ op: 'changeColor', to: 'red' }] })).toEqual([
      EDIT_PLAN_MESSAGES.colorTarget,
    ]);
    expect(
      messages({ ops: [{ op: 'changeColor', from: 'red', role: 'primary', to: 'blue' }] }),
    ).toEqual([EDIT_PLAN_MESSAGES.colorTarget]);
    expect(messages({ ops: [{ op: 'changeColor', from: 'red', to: 'url(x)' }] })).toEqual([
      EDIT_PLAN_MESSAGES.colorInvalid,
    ]);
    expect(messages({ ops: [{ op: 'changeColor', from: '#12345', to: 'red' }] })).toEqual([
      EDIT_PLAN_MESSAGES.colorInvalid,
    ]);
    expect(messages({ ops: [{ op: 'changeColor', variable: 'brand', to: 'red' }] })).toEqual([
      EDIT_PLAN_MESSAGES.variableInvalid,
    ]);
    expect(
      messages({ ops: [{ op: 'changeColor', from: 'hsl(120deg 50% 50% / .5)', to: '#0a7c' }] }),
    ).toEqual([]);
  });

  it('wants exactly one image target and one source', () => {
    expect(messages({ ops: [{ op: 'replaceImage', src: '/a.png' }] })).toEqual([
      EDIT_PLAN_MESSAGES.imageTarget,
    ]);
    expect(messages({ ops: [{ op: 'replaceImage', logo: false, src: '/a.png' }] })).toEqual([
      EDIT_PLAN_MESSAGES.imageTarget,
    ]);
    expect(
      messages({ ops: [{ op: 'replaceImage', logo: true, selector: 'img', src: '/a.png' }] }),
    ).toEqual([EDIT_PLAN_MESSAGES.imageTarget]);
    expect(messages({ ops: [{ op: 'replaceImage', logo: true }] })).toEqual([
      EDIT_PLAN_MESSAGES.imageSource,
    ]);
    expect(
      messages({
        ops: [{ op: 'replaceImage', logo: true, upload: { hash: 'x', contentType: 'text/html' } }],
      }),
    ).toEqual([EDIT_PLAN_MESSAGES.uploadInvalid, EDIT_PLAN_MESSAGES.uploadInvalid]);
  });

  it('checks selectors, pages and font names', () => {
    expect(messages({ ops: [{ op: 'hideElement', selector: 'p{color:red}' }] })).toEqual([
      EDIT_PLAN_MESSAGES.selectorInvalid,
    ]);
    expect(messages({ ops: [{ op: 'hideElement', selector: '  ' }] })).toEqual([
      EDIT_PLAN_MESSAGES.selectorInvalid,
    ]);
    expect(messages({ ops: [{ op: 'setTitle', title: 'x', pages: ['about'] }] })).toEqual([
      EDIT_PLAN_MESSAGES.pagesInvalid,
    ]);
    expect(messages({ ops: [{ op: 'setTitle', title: 'x', pages: [] }] })).toEqual([
      EDIT_PLAN_MESSAGES.pagesInvalid,
    ]);
    expect(messages({ ops: [{ op: 'changeFont', family: 'Inter; color: red' }] })).toEqual([
      EDIT_PLAN_MESSAGES.fontInvalid,
    ]);
    expect(messages({ ops: [{ op: 'rewriteCopy', selector: 'p', texts: [] }] })).toEqual([
      EDIT_PLAN_MESSAGES.copyTextsInvalid,
    ]);
  });
});
