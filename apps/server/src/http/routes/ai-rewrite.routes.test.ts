import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EditOp } from '@mirror/contract';
import { outlinePage, type PageOutline } from '@mirror/customize';
import { parse } from 'parse5';
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAiServer } from '../../test/openai-server.js';
import { fromSite, mirrorSite, pollToEnd, SERVICE_ENV, signUp } from '../../test/api-helpers.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * Issue 19, items 3 and 6: an AI rewrite with a connected model (the local OpenAI stand-in) covers
 * the whole site for the idea and the owner's instructions, under one brand, as a draft whose
 * markup still parses; and no report line, note or error the API returns names a CSS selector or
 * a setting.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const page = (title: string, description: string, h1: string, lead: string) =>
  '<!doctype html><html lang="en"><head>' +
  `<title>${title}</title><meta name="description" content="${description}">` +
  '</head><body><header><a class="logo" href="/"><img src="/logo.svg" alt="Acme logo"></a>' +
  '<nav><ul><li class="active"><a href="/">Home</a></li><li><a href="/about.html">About Acme</a></li></ul></nav>' +
  `</header><main><h1>${h1}</h1><p class="lead">${lead}</p>` +
  '<button class="cta" type="button">Buy a rocket</button>' +
  '<img src="/hero.svg" alt="A rocket on the pad"></main>' +
  '<footer><p>Made by Acme Inc.</p></footer></body></html>';

const PAGES: Record<string, string> = {
  '/': page(
    'Acme Rockets',
    'Acme builds rockets for everyone.',
    'Rockets for everyone',
    'Acme has built rockets since 1950.',
  ),
  '/about.html': page(
    'About Acme',
    'The story of Acme.',
    'Our story',
    'Acme started in a garage in 1950.',
  ),
};

/** A small two-page company site: title, meta description, nav, heading, copy, button, images. */
async function startCompanySite() {
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const html = PAGES[path];
    if (html) return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    if (path.endsWith('.svg'))
      return res
        .writeHead(200, { 'content-type': 'image/svg+xml' })
        .end('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const selectorOf = (outline: PageOutline, list: 'links' | 'texts' | 'images', text: string) =>
  (outline[list] as { selector: string; text?: string; alt?: string }[]).find(
    (item) => item.text === text || item.alt === text,
  )!.selector;

/**
 * What a model answers for "a neighbourhood bakery": new copy for every kind of text on both
 * pages, with the selectors of the outlines it was given, and the brand before and after.
 */
function rewritePlan() {
  const home = outlinePage(PAGES['/']!, { path: '/' });
  const about = outlinePage(PAGES['/about.html']!, { path: '/about.html' });
  const shared: EditOp[] = [
    { op: 'setText', selector: selectorOf(home, 'links', 'Home'), text: 'Our bakery' },
    {
      op: 'setText',
      selector: selectorOf(home, 'links', 'About Acme'),
      text: 'About Crumbly',
    },
    { op: 'setText', selector: selectorOf(home, 'texts', 'Buy a rocket'), text: 'Order bread' },
    {
      op: 'setAttribute',
      selector: selectorOf(home, 'images', 'A rocket on the pad'),
      name: 'alt',
      value: 'Loaves fresh from the oven',
    },
  ];
  const ops: EditOp[] = [
    { op: 'setTitle', title: 'Crumbly, your neighbourhood bakery', pages: ['/'] },
    {
      op: 'setDescription',
      description: 'Crumbly bakes warm bread every morning.',
      pages: ['/'],
    },
    { op: 'setText', selector: 'h1', text: 'Warm bread, baked at dawn', pages: ['/'] },
    {
      op: 'setText',
      selector: selectorOf(home, 'texts', 'Acme has built rockets since 1950.'),
      text: 'We have baked for our neighbours since 1950.',
      pages: ['/'],
    },
    { op: 'setTitle', title: 'About Crumbly', pages: ['/about.html'] },
    {
      op: 'setDescription',
      description: 'How Crumbly began.',
      pages: ['/about.html'],
    },
    { op: 'setText', selector: 'h1', text: 'Our bakery story', pages: ['/about.html'] },
    {
      op: 'setText',
      selector: selectorOf(about, 'texts', 'Acme started in a garage in 1950.'),
      text: 'Crumbly started in a small kitchen in 1950.',
      pages: ['/about.html'],
    },
    ...shared,
  ];
  return JSON.stringify({
    ops,
    summary: 'New copy for Crumbly',
    brand: { from: 'Acme', to: 'Crumbly' },
    unparsed: [],
  });
}

async function setup() {
  const sourceUrl = await startCompanySite();
  const ai = await startOpenAiServer([{ content: rewritePlan() }]);
  cleanups.push(() => ai.close());
  const t = await createTestApp({
    ...SERVICE_ENV,
    AI_BASE_URL: ai.baseURL,
    AI_MODEL: 'test-model',
    AI_API_KEY: 'sk-t',
  });
  cleanups.push(() => t.close());
  return { sourceUrl, ai, t };
}

interface Version {
  id: string;
  kind: string;
  draft: boolean;
  status: string;
  changes: string[];
  unparsed: string[];
  error: string | null;
  previewUrl: string | null;
}

async function versionsOf(t: TestApp, id: string, headers: Record<string, string>) {
  return (
    await t.app.inject({ url: `/api/domains/clone/${id}/versions`, headers })
  ).json() as Version[];
}

function rewrite(
  t: TestApp,
  headers: Record<string, string>,
  body: { sourceUrl: string; cloneId: string; aiInstructions?: string },
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/domains/clone-with-ai',
    headers,
    payload: { ...body, originalIdea: 'A neighbourhood bakery', rewriteWithAI: true },
  });
}

function parseErrors(html: string): string[] {
  const errors: string[] = [];
  parse(html, { onParseError: (error) => errors.push(error.code) });
  return errors;
}

/** The texts of the elements and attributes a rewrite must reach, read from a served page. */
function textsOf(html: string) {
  const pick = (re: RegExp) => [...html.matchAll(re)].map((m) => m[1]);
  return {
    title: pick(/<title>([^<]*)<\/title>/g),
    description: pick(/<meta name="description" content="([^"]*)"/g),
    h1: pick(/<h1>([^<]*)<\/h1>/g),
    nav: pick(/<li[^>]*><a [^>]*>([^<]*)<\/a><\/li>/g),
    button: pick(/<button[^>]*>([^<]*)<\/button>/g),
    alt: pick(/alt="([^"]*)"/g),
  };
}

/** Selector syntax or a setting name in a text meant for customers (quoted words and paths aside). */
function technical(text: string): boolean {
  const bare = text.replace(/'[^']*'|"[^"]*"/g, ' ').replace(/(?:^|\s)\/\S*/g, ' ');
  return (
    /AI_|[A-Z]{2,}_[A-Z]{2,}/.test(text) ||
    /[>[]|:nth-|(?:^|[\s(])[a-z]*\.[a-z][\w-]*|#(?![0-9a-f]{3,8}\b)[a-z][\w-]*/i.test(bare)
  );
}

describe('AI rewrite with a model (issue 19, item 3)', () => {
  it('rewrites the whole site for the idea and the instructions, one brand, markup intact', async () => {
    const { sourceUrl, ai, t } = await setup();
    const pro = await signUp(t, 'pro');
    const { id, previewUrl } = await mirrorSite(t, sourceUrl, pro.headers);
    const res = await rewrite(t, pro.headers, {
      sourceUrl,
      cloneId: id,
      aiInstructions: 'Use a warm, friendly tone and mention that we bake every morning',
    });
    expect(res.statusCode).toBe(202);
    expect((await pollToEnd(t, id, pro.headers)).at(-1)).toMatchObject({ status: 'completed' });

    // The model saw the idea, the owner's instructions and outlines of both pages, no raw HTML.
    const prompt = ai.requests[0]!.body.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('A neighbourhood bakery');
    expect(prompt).toContain('Use a warm, friendly tone and mention that we bake every morning');
    expect(prompt).toContain('"path":"/about.html"');
    expect(prompt).not.toContain('<html');

    const [draft] = await versionsOf(t, id, pro.headers);
    expect(draft).toMatchObject({ kind: 'rewrite', draft: true, status: 'completed' });
    // The live site is untouched until the draft is published.
    expect((await fromSite(t, previewUrl)).body).toBe(PAGES['/']);

    const home = (await fromSite(t, draft!.previewUrl!)).body;
    const about = (await fromSite(t, draft!.previewUrl!, '/about.html')).body;
    expect(textsOf(home)).toEqual({
      title: ['Crumbly, your neighbourhood bakery'],
      description: ['Crumbly bakes warm bread every morning.'],
      h1: ['Warm bread, baked at dawn'],
      nav: ['Our bakery', 'About Crumbly'],
      button: ['Order bread'],
      alt: ['Crumbly logo', 'Loaves fresh from the oven'],
    });
    expect(home).toContain('We have baked for our neighbours since 1950.');
    expect(textsOf(about)).toEqual({
      title: ['About Crumbly'],
      description: ['How Crumbly began.'],
      h1: ['Our bakery story'],
      nav: ['Our bakery', 'About Crumbly'],
      button: ['Order bread'],
      alt: ['Crumbly logo', 'Loaves fresh from the oven'],
    });
    // One brand everywhere: the old name is gone from both pages, the footer included.
    for (const html of [home, about]) {
      expect(html).not.toContain('Acme');
      expect(html).toContain('Made by Crumbly Inc.');
      // No broken markup: the draft parses as cleanly as the original, with the same tags.
      expect(parseErrors(html)).toEqual(parseErrors(PAGES['/']!));
      const tags = (h: string) => (h.match(/<\/?[a-z][a-z0-9]*/g) ?? []).sort();
      expect(tags(html)).toEqual(tags(PAGES['/']!));
    }
  });

  it('sends the instructions to the model for every plan, and one payment buys one rewrite', async () => {
    const { sourceUrl, ai, t } = await setup();
    for (const plan of [undefined, 'pro', 'agency'] as const) {
      const user = await signUp(t, plan);
      const { id } = await mirrorSite(t, sourceUrl, user.headers);
      if (!plan) {
        // Reflection pays the one-off rewrite of this site (test mode card).
        const card = await t.app.inject({
          method: 'POST',
          url: '/api/payments/test/payment-methods',
          headers: user.headers,
          payload: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' },
        });
        const paid = await t.app.inject({
          method: 'POST',
          url: '/api/payments/ai-rewrite',
          headers: user.headers,
          payload: { cloneId: id, paymentMethodId: card.json().id },
        });
        expect(paid.json()).toMatchObject({ status: 'succeeded' });
      }
      const instructions = `Speak to ${plan ?? 'free'} customers warmly`;
      const asked = ai.requests.length;
      expect(
        (await rewrite(t, user.headers, { sourceUrl, cloneId: id, aiInstructions: instructions }))
          .statusCode,
      ).toBe(202);
      expect((await pollToEnd(t, id, user.headers)).at(-1)).toMatchObject({
        status: 'completed',
      });
      // The rewrite went to the model (never the built-in engine), instructions and all.
      expect(ai.requests).toHaveLength(asked + 1);
      const prompt = ai.requests[asked]!.body.messages.map((m) => m.content).join('\n');
      expect(prompt).toContain(instructions);
      expect(prompt).toContain('A neighbourhood bakery');
      const [draft] = await versionsOf(t, id, user.headers);
      expect(draft!.unparsed).toEqual([]);
      expect(textsOf((await fromSite(t, draft!.previewUrl!)).body).h1).toEqual([
        'Warm bread, baked at dawn',
      ]);
      if (!plan) {
        const again = await rewrite(t, user.headers, { sourceUrl, cloneId: id });
        expect(again.statusCode).toBe(402);
      }
    }
  });
});

describe('what customers read of customizations and rewrites (issue 19, item 6)', () => {
  it('names no selector, setting or library error in changes, unparsed or errors', async () => {
    const { sourceUrl, t } = await setup();
    const pro = await signUp(t, 'pro');
    const free = await signUp(t);
    const rewritten = await mirrorSite(t, sourceUrl, pro.headers);
    await rewrite(t, pro.headers, { sourceUrl, cloneId: rewritten.id, aiInstructions: 'Be warm' });
    await pollToEnd(t, rewritten.id, pro.headers);

    // The built-in engine, with instructions naming parts of the page (a part it cannot read is
    // refused before anything runs: customize.routes.test.ts).
    const customized = await mirrorSite(t, sourceUrl, free.headers);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/domains/clone/${customized.id}/customize`,
      headers: free.headers,
      payload: {
        customizations: {
          instructions: "Rename the button 'Buy a rocket' to 'Order now'. Hide the footer.",
          ops: [
            { op: 'setText', selector: 'li.active > a', text: 'Start' },
            { op: 'hideElement', selector: '#promo' },
            { op: 'setAttribute', selector: 'main > img', name: 'alt', value: 'Bread' },
          ],
        },
        regenerate: true,
      },
    });
    expect(res.statusCode).toBe(202);
    await pollToEnd(t, customized.id, free.headers);

    const versions = [
      ...(await versionsOf(t, rewritten.id, pro.headers)),
      ...(await versionsOf(t, customized.id, free.headers)),
    ];
    const kinds = versions.map((v) => v.kind);
    expect(kinds).toContain('rewrite');
    expect(kinds).toContain('customize');
    const texts = versions.flatMap((v) => [...v.changes, ...v.unparsed, v.error ?? '']);
    expect(texts.filter((text) => text.length > 0).length).toBeGreaterThan(15);
    expect(texts.filter(technical)).toEqual([]);
    const lines = versions.flatMap((v) => v.changes).join('\n');
    expect(lines).toMatch(/Order now/);
    expect(lines).toMatch(/Nothing matched/);
  });
});
