import {
  CUSTOMIZE_MESSAGES,
  DOMAIN_MESSAGES,
  IDEA_MESSAGES,
  SCREENSHOT_MESSAGES,
  SITE_MESSAGES,
  TEST_CARDS,
  TOO_MANY_REQUESTS_MESSAGE,
} from '@mirror/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../test/dns-server.js';
import { startFixtureSite, type FixtureSite } from '../test/fixture-site.js';
import { expectErrorLog } from '../test/logs.js';
import { startOpenAiServer } from '../test/openai-server.js';
import { pollToEnd, SERVICE_ENV } from '../test/api-helpers.js';
import { createTestApp, waitFor, type TestApp } from '../test/test-app.js';

/**
 * Every endpoint that costs us something (a mirror run, Chromium, the AI, the payment provider, a
 * DNS query, a mail, a password hash, a zip of a whole site) has a limit: hammering it ends in a
 * 429 with a message a person can act on and a Retry-After. RATE_LIMIT_FACTOR 0.1 makes each
 * limit a tenth of production's (at least 1), so a few calls reach it.
 */

const EDGE = 'edge.mirror.test';
const IPV4 = '203.0.113.40';
const NEXT_YEAR = new Date().getUTCFullYear() + 1;
const TOO_MANY_ATTEMPTS = /^Too many attempts\. Please try again in \d+ (seconds|minutes?)\.$/;

let dns: TestDnsServer;
let fixture: FixtureSite;
let t: TestApp;
let ai: Awaited<ReturnType<typeof startOpenAiServer>>;

beforeAll(async () => {
  dns = await startDnsServer();
  fixture = await startFixtureSite();
  ai = await startOpenAiServer([
    { content: JSON.stringify({ ops: [{ op: 'setTitle', title: 'Bakery' }], unparsed: [] }) },
  ]);
  t = await createTestApp({
    ...SERVICE_ENV,
    RATE_LIMIT_FACTOR: '0.1',
    // A model is connected (a local stand-in), so rewrites are for sale and run.
    AI_BASE_URL: ai.baseURL,
    AI_MODEL: 'test-model',
    DNS_SERVERS: dns.address,
    DNS_TIMEOUT_MS: '1000',
    SITES_DOMAIN: 'sites.mirror.test',
    SITES_CNAME_TARGET: EDGE,
    SITES_IPV4: IPV4,
    // Screenshots fail at once without Chromium: each attempt still counts against the limit.
    CHROMIUM_PATH: '/nonexistent/chromium',
  });
});

afterAll(async () => {
  await t?.close();
  await ai?.close();
  await fixture?.close();
  await dns?.close();
});

/** Each account signs up from an address of its own (sign-ups are limited per address). */
let addresses = 0;
const nextAddress = () => `127.0.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

interface Account {
  email: string;
  password: string;
  ip: string;
  headers: Record<string, string>;
}

async function account(plan?: 'pro' | 'agency'): Promise<Account> {
  const ip = nextAddress();
  const email = `r${addresses}-${Date.now().toString(36)}@example.com`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    remoteAddress: ip,
    payload: { name: 'Limited', email, password: 'a long password' },
  });
  expect(res.statusCode).toBe(201);
  if (plan) {
    await t.app.database.db
      .updateTable('users')
      .set({ plan })
      .where('id', '=', res.json().user.id)
      .execute();
  }
  return {
    email,
    password: 'a long password',
    ip,
    headers: { authorization: `Bearer ${res.json().token as string}` },
  };
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function call(who: Account | null, method: Method, url: string, payload?: object, ip?: string) {
  return t.app.inject({
    method,
    url,
    headers: who?.headers ?? {},
    remoteAddress: ip ?? who?.ip ?? '127.0.0.1',
    ...(payload ? { payload } : {}),
  });
}

/**
 * Calls `send` until it answers 429 (at most `max` times, `between` after each other answer) and
 * checks the refusal: the limit's message and a Retry-After. The first answer is not a 429, so the
 * refusal comes from counting, not from a closed door.
 */
async function hammer(
  send: () => Promise<LightMyRequestResponse>,
  message: string | RegExp,
  {
    max = 10,
    between,
    served = (status) => status < 500,
  }: {
    max?: number;
    between?: () => Promise<void>;
    /** What an answer before the limit may be (default: anything but a server error). */
    served?: (status: number) => boolean;
  } = {},
): Promise<LightMyRequestResponse[]> {
  const answers: LightMyRequestResponse[] = [];
  for (let i = 0; i < max; i++) {
    const res = await send();
    answers.push(res);
    if (res.statusCode === 429) break;
    expect(served(res.statusCode), `${res.statusCode} ${res.body}`).toBe(true);
    await between?.();
  }
  const statuses = answers.map((a) => a.statusCode);
  expect(statuses[0], 'the first call is served').not.toBe(429);
  expect(statuses.at(-1), `statuses: ${statuses.join(', ')}`).toBe(429);
  const refusal = answers.at(-1)!;
  const text = String(refusal.headers['content-type']).includes('json')
    ? (refusal.json() as { message: string }).message
    : refusal.body;
  if (typeof message === 'string') expect(text).toContain(message);
  else expect(text).toMatch(message);
  expect(Number(refusal.headers['retry-after'])).toBeGreaterThan(0);
  return answers;
}

async function completedSite(owner: Account): Promise<string> {
  const res = await call(owner, 'POST', '/api/domains/clone', { sourceUrl: fixture.url });
  expect(res.statusCode).toBe(201);
  const id = res.json().id as string;
  expect((await pollToEnd(t, id, owner.headers)).at(-1)!.status).toBe('completed');
  return id;
}

/** Waits until no run of the site is under way. */
async function settled(owner: Account, siteId: string): Promise<void> {
  await waitFor(async () => {
    const res = await call(owner, 'GET', `/api/domains/clone/${siteId}/versions`);
    const versions = res.json() as { status: string }[];
    return versions.every((v) => v.status === 'completed' || v.status === 'failed')
      ? true
      : undefined;
  }, 30_000);
}

async function addCard(who: Account, number: string = TEST_CARDS.succeeds) {
  const res = await call(who, 'POST', '/api/payments/test/payment-methods', {
    number,
    expMonth: 12,
    expYear: NEXT_YEAR,
    cvc: '123',
  });
  expect(res.statusCode).toBe(200);
  return res.json().id as string;
}

describe('sign-in, sign-up and password reset', () => {
  it('POST /api/auth/login: per address', async () => {
    const user = await account();
    const ip = nextAddress();
    await hammer(
      () =>
        call(null, 'POST', '/api/auth/login', { email: user.email, password: user.password }, ip),
      TOO_MANY_ATTEMPTS,
    );
  });

  it('POST /api/auth/register: per address', async () => {
    const ip = nextAddress();
    let n = 0;
    await hammer(
      () =>
        call(
          null,
          'POST',
          '/api/auth/register',
          { name: 'Flood', email: `flood${++n}@example.com`, password: 'a long password' },
          ip,
        ),
      TOO_MANY_ATTEMPTS,
    );
  });

  it('POST /api/auth/login and /register: an IPv6 address counts by its /64', async () => {
    // Each call from a new address of one /64, as a client given the whole /64 can send them.
    const user = await account();
    let host = 0;
    const inLogin64 = () => `2001:db8:30:1::${(++host).toString(16)}`;
    await hammer(
      () =>
        call(
          null,
          'POST',
          '/api/auth/login',
          { email: user.email, password: user.password },
          inLogin64(),
        ),
      TOO_MANY_ATTEMPTS,
    );
    let n = 0;
    const register = (ip: string) =>
      call(
        null,
        'POST',
        '/api/auth/register',
        { name: 'Flood', email: `flood-v6-${++n}@example.com`, password: 'a long password' },
        ip,
      );
    await hammer(() => register(`2001:db8:30:2::${(++host).toString(16)}`), TOO_MANY_ATTEMPTS);
    // The next /64 is someone else.
    expect((await register('2001:db8:30:3::1')).statusCode).toBe(201);
    expect(
      (
        await call(
          null,
          'POST',
          '/api/auth/login',
          { email: user.email, password: user.password },
          '2001:db8:30:4::1',
        )
      ).statusCode,
    ).toBe(200);
  });

  it('POST /api/auth/reset-password: per address and per email', async () => {
    const ip = nextAddress();
    let n = 0;
    await hammer(
      () => call(null, 'POST', '/api/auth/reset-password', { email: `who${++n}@example.com` }, ip),
      TOO_MANY_ATTEMPTS,
    );
    const user = await account();
    await hammer(
      () => call(null, 'POST', '/api/auth/reset-password', { email: user.email }, nextAddress()),
      TOO_MANY_ATTEMPTS,
    );
  });

  it('POST /api/auth/reset-password/confirm: per address', async () => {
    const ip = nextAddress();
    const answers = await hammer(
      () =>
        call(
          null,
          'POST',
          '/api/auth/reset-password/confirm',
          { token: 'x'.repeat(43), password: 'guessing again' },
          ip,
        ),
      TOO_MANY_ATTEMPTS,
    );
    expect(answers[0]!.statusCode).toBe(400);
  });

  it('PUT /api/auth/me/password: per account', async () => {
    const user = await account();
    let password = user.password;
    await hammer(async () => {
      const res = await call(user, 'PUT', '/api/auth/me/password', {
        currentPassword: password,
        newPassword: `${password}!`,
      });
      if (res.statusCode === 200) password = `${password}!`;
      return res;
    }, TOO_MANY_ATTEMPTS);
  });

  it('DELETE /api/auth/me: password guesses per account', async () => {
    const user = await account();
    await hammer(
      () => call(user, 'DELETE', '/api/auth/me', { password: 'a guessed password' }),
      TOO_MANY_ATTEMPTS,
      { served: (status) => status === 400 },
    );
    expect((await call(user, 'GET', '/api/auth/me')).statusCode).toBe(200);
  });
});

// Each test runs whole mirrors in sandboxed children, slower when two files run at once.
describe('mirrors', { timeout: 60_000 }, () => {
  it("POST /api/domains/clone: a visitor's demos per address", async () => {
    const ip = nextAddress();
    await hammer(
      () => call(null, 'POST', '/api/domains/clone', { sourceUrl: fixture.url }, ip),
      SITE_MESSAGES.demoLimit,
    );
  });

  it("POST /api/domains/clone: a signed-in user's runs, whatever the plan allows", async () => {
    const agency = await account('agency');
    await hammer(
      () => call(agency, 'POST', '/api/domains/clone', { sourceUrl: fixture.url }),
      SITE_MESSAGES.runRateLimited,
    );
  });

  it('POST /api/domains/clone/:id/remirror: the same runs', async () => {
    const owner = await account('agency');
    const siteId = await completedSite(owner);
    await hammer(
      () => call(owner, 'POST', `/api/domains/clone/${siteId}/remirror`),
      SITE_MESSAGES.runRateLimited,
      { between: () => settled(owner, siteId) },
    );
  });

  it('GET /api/domains/clone/:id/export.zip: per account', async () => {
    const owner = await account('pro');
    const siteId = await completedSite(owner);
    const answers = await hammer(
      () => call(owner, 'GET', `/api/domains/clone/${siteId}/export.zip`),
      TOO_MANY_REQUESTS_MESSAGE,
    );
    expect(answers[0]!.headers['content-type']).toBe('application/zip');
  });
});

describe('AI, ideas and screenshots', () => {
  it('PUT /api/domains/clone/:id/customize and POST /api/domains/clone-with-ai: per account', async () => {
    const owner = await account('agency');
    const siteId = await completedSite(owner);
    await hammer(
      () =>
        call(owner, 'PUT', `/api/domains/clone/${siteId}/customize`, {
          customizations: { instructions: "Set the title to 'Again'." },
          regenerate: true,
        }),
      CUSTOMIZE_MESSAGES.rateLimited,
      { between: () => settled(owner, siteId) },
    );
    // Undoing an edit of a draft counts against the same allowance.
    const versions = (await call(owner, 'GET', `/api/domains/clone/${siteId}/versions`)).json() as {
      id: string;
      draft: boolean;
    }[];
    const draft = versions.find((v) => v.draft)!;
    const undone = await call(
      owner,
      'POST',
      `/api/domains/clone/${siteId}/versions/${draft.id}/undo`,
      { index: 0 },
    );
    expect(undone.statusCode).toBe(429);
    expect(undone.json().message).toBe(CUSTOMIZE_MESSAGES.rateLimited);
    await hammer(
      () =>
        call(owner, 'POST', '/api/domains/clone-with-ai', {
          sourceUrl: fixture.url,
          originalIdea: 'A bakery',
          rewriteWithAI: true,
          cloneId: siteId,
        }),
      CUSTOMIZE_MESSAGES.rateLimited,
      { between: () => settled(owner, siteId) },
    );
  });

  it('POST /api/domains/search-by-idea: per account', async () => {
    const user = await account();
    await hammer(
      () => call(user, 'POST', '/api/domains/search-by-idea', { idea: 'a bakery' }),
      IDEA_MESSAGES.searchLimit,
    );
  });

  it('POST /api/domains/screenshot: per account, counting every Chromium run', async () => {
    const user = await account();
    // Chromium is a path that does not exist here: each run the limit lets through fails to start.
    expectErrorLog(/chromium could not be started/);
    let n = 0;
    const answers = await hammer(
      () => call(user, 'POST', '/api/domains/screenshot', { url: `${fixture.url}/?n=${++n}` }),
      SCREENSHOT_MESSAGES.rateLimited,
      { served: (status) => status === 503 },
    );
    expect(answers[0]!.json().message).toBe(SCREENSHOT_MESSAGES.unavailable);
  });
});

describe('domains and parking', () => {
  async function parkedBy(owner: Account, domain: string, template = 'default') {
    dns.set(domain, { SOA: true });
    const res = await call(owner, 'POST', '/api/domains/park', { domain, template });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: string; records: { type: string; value: string }[] };
  }

  it('GET /api/domains/check/:domain: per account', async () => {
    const owner = await account('pro');
    await parkedBy(owner, 'checked-often.test');
    await hammer(
      () => call(owner, 'GET', '/api/domains/check/checked-often.test'),
      DOMAIN_MESSAGES.checkRateLimited,
    );
  });

  it("a parked page's contact form: per sender address", async () => {
    const owner = await account('pro');
    const domain = 'contact-flood.test';
    const parked = await parkedBy(owner, domain, 'contact-form');
    dns.set(domain, { A: [IPV4] });
    dns.set(`_mirror-challenge.${domain}`, {
      TXT: [parked.records.find((r) => r.type === 'TXT')!.value],
    });
    const check = await call(owner, 'GET', `/api/domains/check/${domain}`);
    expect(check.json().status).toBe('active');
    const ip = nextAddress();
    let n = 0;
    const answers = await hammer(
      () =>
        t.app.inject({
          method: 'POST',
          url: '/contact',
          remoteAddress: ip,
          headers: { host: domain, 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({
            name: 'Sender',
            email: `s${++n}@example.com`,
            message: 'Is it for sale?',
          }).toString(),
        }),
      'Too many messages from your network. Please try again later.',
    );
    expect(answers[0]!.statusCode).toBe(303);
  });
});

describe('payments (local test mode)', () => {
  it('card operations: add, set up, make default, remove, portal', async () => {
    const adder = await account();
    await hammer(
      () =>
        call(adder, 'POST', '/api/payments/test/payment-methods', {
          number: TEST_CARDS.succeeds,
          expMonth: 12,
          expYear: NEXT_YEAR,
          cvc: '123',
        }),
      TOO_MANY_REQUESTS_MESSAGE,
    );
    const setup = await account();
    await hammer(
      () => call(setup, 'POST', '/api/payments/setup-intent'),
      TOO_MANY_REQUESTS_MESSAGE,
    );
    const portal = await account();
    await hammer(
      () => call(portal, 'POST', '/api/payments/portal-session'),
      TOO_MANY_REQUESTS_MESSAGE,
    );
    const chooser = await account();
    const card = await addCard(chooser);
    await hammer(
      () => call(chooser, 'PUT', '/api/payments/default-payment-method', { paymentMethodId: card }),
      TOO_MANY_REQUESTS_MESSAGE,
    );
    const remover = await account();
    const first = await addCard(remover);
    await hammer(
      () => call(remover, 'DELETE', `/api/payments/payment-methods/${first}`),
      TOO_MANY_REQUESTS_MESSAGE,
    );
  });

  it('charges: subscribe, change plan, payments, AI rewrite payments', async () => {
    const payer = await account();
    await hammer(
      () =>
        call(payer, 'POST', '/api/payments/payment-intent', { amount: 500, description: 'Tip' }),
      TOO_MANY_REQUESTS_MESSAGE,
    );
    const declined = await account();
    const badCard = await addCard(declined, TEST_CARDS.declined);
    const tries = await hammer(
      () =>
        call(declined, 'POST', '/api/payments/subscribe', {
          planId: 'pro',
          paymentMethodId: badCard,
        }),
      TOO_MANY_REQUESTS_MESSAGE,
    );
    expect(tries[0]!.statusCode).toBe(402);
    const changer = await account();
    const subscribed = await call(changer, 'POST', '/api/payments/subscribe', {
      planId: 'pro',
      paymentMethodId: await addCard(changer),
    });
    expect(subscribed.statusCode).toBe(200);
    let plan = 'pro';
    await hammer(() => {
      plan = plan === 'pro' ? 'agency' : 'pro';
      return call(changer, 'PUT', '/api/payments/subscription', { planId: plan });
    }, TOO_MANY_REQUESTS_MESSAGE);
    const rewriter = await account();
    const siteId = await completedSite(rewriter);
    const rewriterCard = await addCard(rewriter, TEST_CARDS.declined);
    await hammer(
      () =>
        call(rewriter, 'POST', '/api/payments/ai-rewrite', {
          cloneId: siteId,
          paymentMethodId: rewriterCard,
        }),
      TOO_MANY_REQUESTS_MESSAGE,
    );
  });

  it('subscription changes: cancel and reactivate', async () => {
    const user = await account();
    const subscribed = await call(user, 'POST', '/api/payments/subscribe', {
      planId: 'pro',
      paymentMethodId: await addCard(user),
    });
    expect(subscribed.statusCode).toBe(200);
    let cancelling = false;
    await hammer(() => {
      cancelling = !cancelling;
      return cancelling
        ? call(user, 'POST', '/api/payments/cancel', { immediately: false })
        : call(user, 'POST', '/api/payments/reactivate');
    }, TOO_MANY_REQUESTS_MESSAGE);
  });
});
