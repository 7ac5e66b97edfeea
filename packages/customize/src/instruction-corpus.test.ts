import { readFileSync } from 'node:fs';
import { EditPlan as EditPlanSchema } from '@mirror/contract';
import { describe, expect, it } from 'vitest';
import { applyPlan } from './apply-plan.js';
import { describePlan } from './describe.js';
import { BLOG_CSS, BLOG_HTML, CORPUS } from './instruction-corpus.fixture.js';
import type { CorpusCase } from './instruction-corpus.fixture.js';
import { parseInstructions } from './instructions.js';
import { outlinePage } from './outline.js';
import type { PageOutline } from './outline.js';
import type { EditOp } from './types.js';

const FIXTURES = new URL('../test/fixtures/site/', import.meta.url);
const ACME = readFileSync(new URL('index.html', FIXTURES), 'utf8');
const ACME_CSS = readFileSync(new URL('css/site.css', FIXTURES), 'utf8');

const OUTLINES: Record<NonNullable<CorpusCase['page']>, PageOutline | undefined> = {
  blog: outlinePage(BLOG_HTML, { path: '/', stylesheets: [BLOG_CSS] }),
  acme: outlinePage(ACME, { path: '/', stylesheets: [ACME_CSS] }),
  none: undefined,
};

function run(c: CorpusCase) {
  const outline = OUTLINES[c.page ?? 'blog'];
  return { outline, parsed: parseInstructions(c.say, outline) };
}

function check(c: CorpusCase): void {
  const { outline, parsed } = run(c);
  expect(parsed.plan.ops).toEqual(c.ops ?? []);
  expect(parsed.suggestions.map((s) => [s.part, s.suggestion])).toEqual(c.rejected ?? []);
  if (c.alternatives) expect(parsed.suggestions[0]?.alternatives).toEqual(c.alternatives);
  expect(parsed.unparsed).toEqual((c.rejected ?? []).map(([part]) => part));
  expect(EditPlanSchema.safeParse(parsed.plan).error?.issues ?? []).toEqual([]);
  if (c.says) expect(describePlan(parsed.plan, outline)).toEqual(c.says);
}

const title = (c: CorpusCase) =>
  `${c.page && c.page !== 'blog' ? `[${c.page}] ` : ''}${c.say.replace(/\n/g, ' ⏎ ')}`;

describe('the instruction corpus', () => {
  it('holds at least 120 instructions, the two reported ones among them', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(120);
    const says = CORPUS.map((c) => c.say);
    expect(says).toContain(
      "Change 'Clean Blog' to 'Dana Journal' and make the main colour crimson",
    );
    expect(says).toContain(
      "Change the title 'Clean Blog' to 'Dana's Journal' and make the main colour crimson (#dc143c).",
    );
  });

  for (const c of CORPUS) {
    if (c.fails !== undefined) it.fails(`${title(c)} (known gap: ${c.fails})`, () => check(c));
    else it(title(c), () => check(c));
  }
});

/** What in a line would be CSS selector syntax (or an internal name) once the owner's own words are set aside. */
function selectorSyntax(line: string): string | undefined {
  const rest = line
    .replace(/"[^"]*"/g, '""')
    .replace(/\b(?:https?:\/\/|mailto:|tel:)\S+/g, '')
    .replace(/(?:^|\s)\/\S*/g, ' ')
    .replace(/#[0-9a-f]{3,8}\b/gi, '')
    .replace(/\S+@\S+/g, '');
  const forbidden = [
    />/,
    /\[/,
    /\]/,
    /#[\w-]/,
    /\w\.[a-z_-]/i,
    /(?:^|[\s(])\.[a-z_-]/i,
    /:(?:nth|not|first|last|hover|is|where)\b/,
    /\*/,
    /[{}~]/,
    /\ba, button\b/,
    /\b(?:div|span|h[1-6]|img)\b/,
    /\b(?:replaceText|setText|rewriteCopy|setAttribute|changeColor|changeFont|hideElement|removeElement|insertHtml|replaceImage|setTitle|setDescription|selector|withText|stylesheetUrl|caseSensitive|includeAttributes)\b/,
  ];
  return forbidden.find((re) => re.test(rest))?.source;
}

describe('what describePlan tells the owner', () => {
  it('never shows selectors or internal names, across the whole corpus', () => {
    const offending: string[] = [];
    let lines = 0;
    for (const c of CORPUS) {
      const { outline, parsed } = run(c);
      const described = describePlan(parsed.plan, outline);
      expect(described).toHaveLength(parsed.plan.ops.length);
      for (const line of described) {
        lines++;
        const found = selectorSyntax(line);
        if (found) offending.push(`${line}  ← ${found}`);
      }
    }
    expect(offending).toEqual([]);
    expect(lines).toBeGreaterThan(100);
  });

  it('names any selector in words, also those a model writes', () => {
    const ops: EditOp[] = [
      { op: 'hideElement', selector: 'li.active > h1' },
      { op: 'removeElement', selector: 'body > div:nth-of-type(2) > p' },
      { op: 'hideElement', selector: '#promo-strip' },
      { op: 'removeElement', selector: '[data-testid="cookie-consent"]' },
      { op: 'setText', selector: '.cta-button', text: 'Go' },
      { op: 'setText', selector: 'section.pricing h2:first-of-type', text: 'Plans' },
      { op: 'hideElement', selector: 'div.col-md-6.text-center > img' },
      { op: 'setAttribute', selector: 'a.btn[href^="/x"]', name: 'data-track', value: 'no' },
      { op: 'changeFont', family: 'Inter', selector: '.site-title' },
      { op: 'insertHtml', selector: '#main', position: 'before', html: '<aside>Hi</aside>' },
      { op: 'rewriteCopy', selector: 'main > section:nth-of-type(3)', texts: ['a'] },
      { op: 'replaceImage', selector: 'header img.logo', src: 'https://x.example/a.png' },
      { op: 'changeColor', variable: '--brand-color', to: '#f80' },
    ];
    const lines = describePlan({ ops }, OUTLINES.blog);
    expect(lines).toEqual([
      'Hide a heading on the page',
      'Remove a paragraph on the page',
      'Hide the promo strip',
      'Remove the cookie consent',
      'Change the cta button to say "Go"',
      'Change the text of a heading in the pricing section to "Plans"',
      'Hide an image on the page',
      'Change a hidden detail of the btn link to "no"',
      'Use the font Inter for the site title section',
      'Add new content reading "Hi" before the main section',
      'Rewrite the text of a section on the page',
      'Replace the picture in the logo image with https://x.example/a.png',
      'Set the site\'s "brand color" colour to #f80',
    ]);
    for (const line of lines) expect(selectorSyntax(line)).toBeUndefined();
  });

  it('names parts of the page from the outline', () => {
    const blog = OUTLINES.blog;
    const lines = describePlan(
      {
        ops: [
          { op: 'hideElement', selector: 'address' },
          { op: 'setText', selector: 'a.navbar-brand', text: 'Dana' },
          { op: 'removeElement', selector: '#newsletter > h2' },
          { op: 'hideElement', selector: 'a.btn-primary' },
          { op: 'setText', selector: 'p.contact-line', text: 'x' },
        ],
      },
      blog ? [blog] : [],
    );
    expect(lines).toEqual([
      'Hide the address',
      'Change the logo text to "Dana"',
      'Remove the heading "Join the newsletter"',
      'Hide the "Older Posts →" button',
      'Change the text "Call us: +44 20 7946 0958 · Email: hello@startbootstrap.com" to "x"',
    ]);
  });
});

describe('suggestions', () => {
  it('are phrasings the engine understands, on the same page', () => {
    const misunderstood: string[] = [];
    for (const c of CORPUS) {
      const { outline, parsed } = run(c);
      for (const suggestion of parsed.suggestions.flatMap((s) => [
        ...(s.suggestion === null ? [] : [s.suggestion]),
        ...s.alternatives,
      ])) {
        const again = parseInstructions(suggestion, outline);
        if (again.plan.ops.length === 0 && again.notes.length === 0) {
          misunderstood.push(suggestion);
        }
      }
    }
    expect(misunderstood).toEqual([]);
  });
});

describe('plans of the corpus on the blog page', () => {
  const ON_THE_PAGE = [
    "Change the title 'Clean Blog' to 'Dana's Journal' and make the main colour crimson (#dc143c).",
    'change the phone number to +1 555 0100',
    'change the email address to dana@danasjournal.com',
    'change the address to 221B Baker Street, London NW1 6XE',
    "change the logo text to Dana's Journal",
    "change the site name to Dana's Journal",
    'change the button text to Sign up',
    'make the Subscribe button say Join',
    'hide the cookie banner',
    'remove the newsletter popup',
    'remove the banner',
    'remove the menu',
    'change the tagline to Notes from the road',
    "change the main heading to Hello, I'm Dana",
    'dark mode',
    'make the headings bigger',
    'use Georgia',
    'CHANGE clean blog TO Dana Journal',
  ];

  it.each(ON_THE_PAGE)('%s: every change finds its place', (say) => {
    const parsed = parseInstructions(say, OUTLINES.blog);
    expect(parsed.unparsed).toEqual([]);
    const result = applyPlan(parsed.plan, [
      { path: '/', contentType: 'text/html', text: BLOG_HTML },
      { path: '/css/styles.css', contentType: 'text/css', text: BLOG_CSS },
    ]);
    expect(result.report.filter((r) => r.matches === 0 || r.error)).toEqual([]);
  });

  it('changes what the owner asked for, and nothing else', () => {
    const parsed = parseInstructions(
      "Change the title 'Clean Blog' to 'Dana's Journal' and make the main colour crimson (#dc143c).\nChange the phone number to +1 555 0100, and change the Subscribe button to Join",
      OUTLINES.blog,
    );
    const result = applyPlan(parsed.plan, [
      { path: '/', contentType: 'text/html', text: BLOG_HTML },
      { path: '/css/styles.css', contentType: 'text/css', text: BLOG_CSS },
    ]);
    const page = result.changed.find((d) => d.path === '/')?.text ?? '';
    const css = result.changed.find((d) => d.path === '/css/styles.css')?.text ?? '';
    expect(page).toContain('<h1>Dana&apos;s Journal</h1>');
    expect(page).toContain('<title>Dana&apos;s Journal - Start Bootstrap Theme</title>');
    expect(page).toContain('<a href="tel:+15550100">+1 555 0100</a>');
    expect(page).toContain('class="btn btn-dark">Join</button>');
    expect(css).toContain('--bs-primary: #dc143c');
    expect(css).not.toContain('#0085a1');
    expect(page.replace(/Dana&apos;s Journal|\+1 555 0100|tel:\+15550100|>Join</g, '')).toBe(
      BLOG_HTML.replace(/Clean Blog|\+44 20 7946 0958|tel:\+442079460958|>Subscribe</g, ''),
    );
  });
});
