import { readFileSync } from 'node:fs';
import { EDIT_PLAN_LIMITS, EditPlan as EditPlanSchema } from '@mirror/contract';
import type { EditPlan as ContractEditPlan } from '@mirror/contract';
import { describe, expect, it } from 'vitest';
import { applyPlan } from './apply-plan.js';
import { NEWSLETTER_FORM } from './instruction-rules-elements.js';
import { INSTRUCTION_LIMITS, parseInstructions, splitInstructions } from './instructions.js';
import { outlinePage } from './outline.js';
import type { EditOp, EditPlan } from './types.js';

const FIXTURES = new URL('../test/fixtures/site/', import.meta.url);
const INDEX = readFileSync(new URL('index.html', FIXTURES), 'utf8');
const CSS = readFileSync(new URL('css/site.css', FIXTURES), 'utf8');
const OUTLINE = outlinePage(INDEX, { path: '/', stylesheets: [CSS] });

const INTER = 'https://fonts.googleapis.com/css2?family=Inter&display=swap';
const BANNER_STYLE =
  'padding:10px 16px;text-align:center;background:#111;color:#fff;font:14px/1.4 system-ui,sans-serif';
const fuzzy = (slug: string) => `[id*="${slug}" i], [class*="${slug}" i]`;

/** Instruction → the plan it must give (no outline). */
const GRAMMAR: [string, EditOp[]][] = [
  ["replace 'Acme' with 'Globex'", [{ op: 'replaceText', find: 'Acme', replace: 'Globex' }]],
  ['replace “Acme” with “Globex”', [{ op: 'replaceText', find: 'Acme', replace: 'Globex' }]],
  [
    'Replace "Acme Inc." with "Globex Corp"',
    [{ op: 'replaceText', find: 'Acme Inc.', replace: 'Globex Corp' }],
  ],
  ['replace Acme with Globex', [{ op: 'replaceText', find: 'Acme', replace: 'Globex' }]],
  [
    "change 'Acme' to 'Globex' everywhere",
    [{ op: 'replaceText', find: 'Acme', replace: 'Globex' }],
  ],
  [
    "replace 'Joe's Diner' with 'Globex'",
    [{ op: 'replaceText', find: "Joe's Diner", replace: 'Globex' }],
  ],
  [
    "replace 'acme' with 'Globex' (ignoring case)",
    [{ op: 'replaceText', find: 'acme', replace: 'Globex', caseSensitive: false }],
  ],
  [
    "replace the word 'cheap' with 'affordable' as whole words",
    [{ op: 'replaceText', find: 'cheap', replace: 'affordable', wholeWord: true }],
  ],
  [
    "replace 'Acme' with 'Globex' on the pricing page",
    [{ op: 'replaceText', find: 'Acme', replace: 'Globex', pages: ['/pricing*'] }],
  ],
  [
    "replace 'Acme' with 'Globex' on /about",
    [{ op: 'replaceText', find: 'Acme', replace: 'Globex', pages: ['/about'] }],
  ],
  [
    "replace 'Acme' with 'Globex' including alt text",
    [{ op: 'replaceText', find: 'Acme', replace: 'Globex', includeAttributes: true }],
  ],
  ["remove the text 'Limited offer'", [{ op: 'replaceText', find: 'Limited offer', replace: '' }]],
  ['change the primary color to #0a7', [{ op: 'changeColor', role: 'primary', to: '#0a7' }]],
  [
    'set the brand colour to rgb(0, 170, 119)',
    [{ op: 'changeColor', role: 'primary', to: 'rgb(0, 170, 119)' }],
  ],
  ['make the accent color orange', [{ op: 'changeColor', role: 'accent', to: 'orange' }]],
  ['change the background color to #111', [{ op: 'changeColor', role: 'background', to: '#111' }]],
  ['change the background to white', [{ op: 'changeColor', role: 'background', to: 'white' }]],
  ['set the text colour to #222', [{ op: 'changeColor', role: 'text', to: '#222' }]],
  ['use #0a7 as the primary colour', [{ op: 'changeColor', role: 'primary', to: '#0a7' }]],
  ['change #ff0000 to blue', [{ op: 'changeColor', from: '#ff0000', to: 'blue' }]],
  ['replace red with dark blue', [{ op: 'changeColor', from: 'red', to: 'darkblue' }]],
  ['change the color #FFF to #000', [{ op: 'changeColor', from: '#FFF', to: '#000' }]],
  ['set --brand-color to #f80', [{ op: 'changeColor', variable: '--brand-color', to: '#f80' }]],
  ["set the title to 'Globex — Tools'", [{ op: 'setTitle', title: 'Globex — Tools' }]],
  ['change the page title to Globex Tools', [{ op: 'setTitle', title: 'Globex Tools' }]],
  ['title: Globex', [{ op: 'setTitle', title: 'Globex' }]],
  [
    'set the description to "Tools for builders"',
    [{ op: 'setDescription', description: 'Tools for builders' }],
  ],
  [
    'set the meta description to Tools for builders',
    [{ op: 'setDescription', description: 'Tools for builders' }],
  ],
  ['use the font Inter', [{ op: 'changeFont', family: 'Inter', stylesheetUrl: INTER }]],
  ['use Inter font', [{ op: 'changeFont', family: 'Inter', stylesheetUrl: INTER }]],
  ['change the font to Georgia', [{ op: 'changeFont', family: 'Georgia' }]],
  [
    'set the heading font to "Playfair Display"',
    [
      {
        op: 'changeFont',
        family: 'Playfair Display',
        role: 'headings',
        stylesheetUrl: 'https://fonts.googleapis.com/css2?family=Playfair+Display&display=swap',
      },
    ],
  ],
  [
    'use the font Lato for body text',
    [
      {
        op: 'changeFont',
        family: 'Lato',
        role: 'body',
        stylesheetUrl: 'https://fonts.googleapis.com/css2?family=Lato&display=swap',
      },
    ],
  ],
  [
    'change the font of the headings to Merriweather',
    [
      {
        op: 'changeFont',
        family: 'Merriweather',
        role: 'headings',
        stylesheetUrl: 'https://fonts.googleapis.com/css2?family=Merriweather&display=swap',
      },
    ],
  ],
  ['hide the footer', [{ op: 'hideElement', selector: 'footer' }]],
  ['please hide the footer on all pages', [{ op: 'hideElement', selector: 'footer' }]],
  ['remove the navigation bar', [{ op: 'removeElement', selector: 'nav' }]],
  ['remove the newsletter section', [{ op: 'removeElement', selector: fuzzy('newsletter') }]],
  ['delete the cookie banner', [{ op: 'removeElement', selector: fuzzy('cookie-banner') }]],
  [
    "remove the button 'Sign up'",
    [{ op: 'removeElement', selector: 'a, button', withText: 'Sign up' }],
  ],
  ['hide the footer on the home page', [{ op: 'hideElement', selector: 'footer', pages: ['/'] }]],
  [
    'change the heading to “Build faster”',
    [{ op: 'setText', selector: 'h1', text: 'Build faster', pages: ['/'] }],
  ],
  [
    "change the tagline to 'Ship today'",
    [{ op: 'setText', selector: 'h1 + p', text: 'Ship today', pages: ['/'] }],
  ],
  [
    "change the link 'Pricing' to /plans",
    [{ op: 'setAttribute', selector: 'a', withText: 'Pricing', name: 'href', value: '/plans' }],
  ],
  [
    'point the link /pricing to /plans',
    [{ op: 'setAttribute', selector: 'a[href="/pricing"]', name: 'href', value: '/plans' }],
  ],
  [
    "make the 'Contact' button go to mailto:hi@globex.com",
    [
      {
        op: 'setAttribute',
        selector: 'a, button',
        withText: 'Contact',
        name: 'href',
        value: 'mailto:hi@globex.com',
      },
    ],
  ],
  [
    "rename the button 'Sign up' to 'Join now'",
    [{ op: 'setText', selector: 'a, button', withText: 'Sign up', text: 'Join now' }],
  ],
  [
    "change the button 'Sign up' to 'Join now'",
    [{ op: 'setText', selector: 'a, button', withText: 'Sign up', text: 'Join now' }],
  ],
  [
    'change the link "Blog" to blog.globex.com',
    [
      {
        op: 'setAttribute',
        selector: 'a',
        withText: 'Blog',
        name: 'href',
        value: 'https://blog.globex.com',
      },
    ],
  ],
  [
    'replace the logo with https://cdn.example.com/logo.svg',
    [{ op: 'replaceImage', logo: true, src: 'https://cdn.example.com/logo.svg' }],
  ],
  [
    'use https://cdn.example.com/logo.svg as the logo',
    [{ op: 'replaceImage', logo: true, src: 'https://cdn.example.com/logo.svg' }],
  ],
  [
    'replace the image /img/hero.jpg with https://cdn.example.com/hero.jpg',
    [{ op: 'replaceImage', currentSrc: '/img/hero.jpg', src: 'https://cdn.example.com/hero.jpg' }],
  ],
  [
    "set the alt text of image /img/hero.jpg to 'Our team'",
    [{ op: 'setAttribute', selector: 'img[src="/img/hero.jpg"]', name: 'alt', value: 'Our team' }],
  ],
  [
    "add 'Free shipping on all orders' at the top of the page",
    [
      {
        op: 'insertHtml',
        selector: 'body',
        position: 'prepend',
        html: '<p>Free shipping on all orders</p>',
      },
    ],
  ],
  [
    "add a banner saying 'Summer sale & more'",
    [
      {
        op: 'insertHtml',
        selector: 'body',
        position: 'prepend',
        html: `<div class="mirror-banner" style="${BANNER_STYLE}">Summer sale &amp; more</div>`,
      },
    ],
  ],
  [
    `insert '<p class="note">Hi</p>' after the hero`,
    [
      {
        op: 'insertHtml',
        selector: fuzzy('hero'),
        position: 'after',
        html: '<p class="note">Hi</p>',
      },
    ],
  ],
  [
    'Could you change the primary colour to teal, please?',
    [{ op: 'changeColor', role: 'primary', to: 'teal' }],
  ],
];

/** Instructions resolved against the outline of the fixture's home page. */
const WITH_OUTLINE: [string, EditOp[]][] = [
  ['remove the newsletter section', [{ op: 'removeElement', selector: '#newsletter' }]],
  ['hide the features', [{ op: 'hideElement', selector: 'section.features' }]],
  ['hide the subscribe block', [{ op: 'hideElement', selector: '#newsletter' }]],
  ['hide the footer', [{ op: 'hideElement', selector: 'footer' }]],
  [
    'change the hero image to https://cdn.example.com/team.jpg',
    [{ op: 'replaceImage', selector: '#hero', src: 'https://cdn.example.com/team.jpg' }],
  ],
  [
    "change the text of the features to 'Why us'",
    [{ op: 'setText', selector: 'section.features', text: 'Why us' }],
  ],
];

/** Not understood: handed back verbatim. */
const UNPARSED = [
  'make the background dark',
  'frobnicate the widgets',
  'change the footer to dark',
  'make it pop',
  'translate the site to French',
  'replace the logo with a cat',
  'set the primary color to blurple',
  'add Free shipping after the header',
];

describe('the instruction grammar', () => {
  it.each(GRAMMAR)('%s', (instruction, ops) => {
    const parsed = parseInstructions(instruction);
    expect(parsed.unparsed).toEqual([]);
    expect(parsed.plan.ops).toEqual(ops);
    expect(EditPlanSchema.safeParse(parsed.plan).error?.issues ?? []).toEqual([]);
  });

  it.each(WITH_OUTLINE)('%s (with an outline)', (instruction, ops) => {
    const parsed = parseInstructions(instruction, OUTLINE);
    expect(parsed.unparsed).toEqual([]);
    expect(parsed.plan.ops).toEqual(ops);
  });

  it.each(UNPARSED)('does not understand: %s', (instruction) => {
    const parsed = parseInstructions(instruction);
    expect(parsed.plan.ops).toEqual([]);
    expect(parsed.unparsed).toEqual([instruction]);
  });

  it('says which section it could not find on the page', () => {
    const parsed = parseInstructions('remove the cookie banner; hide the footer', OUTLINE);
    expect(parsed.plan.ops).toEqual([{ op: 'hideElement', selector: 'footer' }]);
    expect(parsed.unparsed).toEqual(['remove the cookie banner']);
    expect(parsed.notes).toEqual(["No part of the page matches 'cookie banner'."]);
  });
});

describe('a newsletter sign-up (issue 34, item 6)', () => {
  it('adds the form the sites host takes to the footer, or to the page without one', () => {
    for (const say of [
      'add a newsletter signup to the footer',
      'Add a newsletter sign-up form at the bottom of every page',
      'add an email subscription box',
    ]) {
      const parsed = parseInstructions(say, OUTLINE);
      expect(parsed.unparsed, say).toEqual([]);
      expect(parsed.plan.ops).toEqual([
        { op: 'insertHtml', selector: 'footer', position: 'append', html: NEWSLETTER_FORM },
      ]);
      expect(EditPlanSchema.safeParse(parsed.plan).error?.issues ?? []).toEqual([]);
    }
    expect(parseInstructions('add a newsletter signup').plan.ops[0]).toMatchObject({
      selector: 'body',
    });
    // Applied, the page has the form: it posts to the copy, one id on every page.
    const { changed } = applyPlan(
      parseInstructions('add a newsletter signup to the footer', OUTLINE).plan,
      [{ path: '/', text: INDEX, contentType: 'text/html' }],
    );
    expect(changed[0]!.text).toMatch(
      /<form id="mirror-newsletter"[^>]*action="\/newsletter" method="post"/,
    );
  });
});

describe('where a form is mailed (issue 34, item 6)', () => {
  it('reads "send the contact form to sales@…" and its variants, naming a form or not', () => {
    const cases: [string, EditOp][] = [
      [
        'send the contact form to sales@example.com',
        { op: 'setFormRecipient', email: 'sales@example.com' },
      ],
      [
        'Send the contact form to sales@example.com.',
        { op: 'setFormRecipient', email: 'sales@example.com' },
      ],
      [
        'forward contact form submissions to sales@example.com',
        { op: 'setFormRecipient', email: 'sales@example.com' },
      ],
      [
        'contact form emails should go to sales@example.com',
        { op: 'setFormRecipient', email: 'sales@example.com' },
      ],
      [
        'make the contact form go to mailto:sales@example.com',
        { op: 'setFormRecipient', email: 'sales@example.com' },
      ],
      [
        'set the contact form recipient to sales@example.com',
        { op: 'setFormRecipient', email: 'sales@example.com' },
      ],
      [
        "change the contact form's email to sales@example.com",
        { op: 'setFormRecipient', email: 'sales@example.com' },
      ],
      [
        'please route enquiry form messages to "help@acme.co"',
        { op: 'setFormRecipient', email: 'help@acme.co' },
      ],
      [
        'send form submissions to sales@example.com',
        { op: 'setFormRecipient', email: 'sales@example.com', form: 'all' },
      ],
      [
        'send all form submissions to ops@acme.co',
        { op: 'setFormRecipient', email: 'ops@acme.co', form: 'all' },
      ],
      [
        'newsletter sign-ups should be sent to news@acme.io',
        { op: 'setFormRecipient', email: 'news@acme.io', form: 'newsletter' },
      ],
      [
        'send the get a quote form to quotes@acme.io',
        { op: 'setFormRecipient', email: 'quotes@acme.io', form: 'get-quote' },
      ],
    ];
    for (const [say, op] of cases) {
      const parsed = parseInstructions(say, OUTLINE);
      expect(parsed.unparsed, say).toEqual([]);
      expect(parsed.plan.ops, say).toEqual([op]);
      expect(EditPlanSchema.safeParse(parsed.plan).error?.issues ?? []).toEqual([]);
    }
  });

  it('changes no page, and says so in plain words', () => {
    const plan = parseInstructions('send the contact form to sales@example.com').plan;
    const result = applyPlan(plan, [{ path: '/', text: INDEX, contentType: 'text/html' }]);
    expect(result.changed).toEqual([]);
    expect(result.unmatched).toEqual([]);
    expect(result.summary).toEqual([
      "Contact form submissions will be mailed to 'sales@example.com' once that address confirms",
    ]);
  });

  it('needs an address: a team or a page is no recipient, nor is a bad address', () => {
    for (const say of [
      'send the contact form to the sales team',
      'send the contact form to sales@example',
      'send the contact form to /contact',
    ]) {
      const parsed = parseInstructions(say, OUTLINE);
      expect(parsed.plan.ops, say).toEqual([]);
      expect(parsed.suggestions[0]?.suggestion, say).toBe(
        'Send the contact form to sales@example.com',
      );
    }
    // The page's own address stays a text edit.
    expect(
      parseInstructions('change the email to sales@example.com', OUTLINE).plan.ops[0]?.op,
    ).not.toBe('setFormRecipient');
    expect(
      EditPlanSchema.safeParse({ ops: [{ op: 'setFormRecipient', email: 'not an address' }] }).error
        ?.issues[0]?.message,
    ).toBe('Email must be a valid email.');
  });
});

describe('a message with several instructions', () => {
  it('splits on lines, semicolons, sentences and "and then", not inside quotes', () => {
    expect(
      splitInstructions(
        `replace 'A. B' with 'C; D'; hide the footer. Use the font Inter and then set the title to "X. Y"\nremove the newsletter section.`,
      ),
    ).toEqual([
      "replace 'A. B' with 'C; D'",
      'hide the footer.',
      'Use the font Inter',
      'set the title to "X. Y"',
      'remove the newsletter section.',
    ]);
    expect(splitInstructions("don't touch the header; hide the footer")).toEqual([
      "don't touch the header",
      'hide the footer',
    ]);
  });

  it('builds one plan and hands back the parts it did not understand, verbatim', () => {
    const parsed = parseInstructions(
      "Replace 'Acme' with 'Globex'. Make it pop! Change the primary color to #0a7; set the title to 'Globex'\n\nsprinkle some magic",
    );
    expect(parsed.plan).toEqual({
      ops: [
        { op: 'replaceText', find: 'Acme', replace: 'Globex' },
        { op: 'changeColor', role: 'primary', to: '#0a7' },
        { op: 'setTitle', title: 'Globex' },
      ],
      summary:
        "Replace 'Acme' with 'Globex'; Change the primary color to #0a7; set the title to 'Globex'",
    });
    expect(parsed.unparsed).toEqual(['Make it pop!', 'sprinkle some magic']);
  });

  it('keeps within the plan limits', () => {
    const long = parseInstructions(`set the title to '${'x'.repeat(5_001)}'`);
    expect(long.plan.ops).toEqual([]);
    expect(long.notes).toEqual(['Texts can be at most 5000 characters long.']);
    const many = parseInstructions(
      Array.from({ length: 101 }, (_, k) => `replace 'a${k}' with 'b'`).join('\n'),
    );
    expect(many.plan.ops).toHaveLength(100);
    expect(many.unparsed).toEqual(["replace 'a100' with 'b'"]);
    expect(INSTRUCTION_LIMITS).toEqual({
      maxOps: EDIT_PLAN_LIMITS.maxOps,
      maxTextLength: EDIT_PLAN_LIMITS.maxTextLength,
      maxFindLength: EDIT_PLAN_LIMITS.maxFindLength,
      maxUrlLength: EDIT_PLAN_LIMITS.maxUrlLength,
      maxSummaryLength: EDIT_PLAN_LIMITS.maxSummaryLength,
    });
  });

  it('gives plans the applier carries out', () => {
    const parsed = parseInstructions(
      "replace 'Acme' with 'Globex'\nremove the newsletter section\nchange the heading to 'Build faster'",
      OUTLINE,
    );
    const result = applyPlan(parsed.plan, [
      { path: '/', contentType: 'text/html', text: INDEX },
      { path: '/css/site.css', contentType: 'text/css', text: CSS },
    ]);
    expect(result.summary).toEqual([
      "Replaced 'Acme' with 'Globex' (6 places on 1 page)",
      'Removed #newsletter (1 element on 1 page)',
      "Changed the text of h1 to 'Build faster' (1 element on 1 page)",
    ]);
    const page = result.changed[0]?.text ?? '';
    expect(page).toContain('<h1>Build faster</h1>');
    expect(page).not.toContain('newsletter');
  });
});

// The engine reads plans the server validated with the contract's schema: the shapes must agree.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const planShapesAgree: Same<ContractEditPlan, EditPlan> = true;
void planShapesAgree;
