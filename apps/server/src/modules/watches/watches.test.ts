import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  PART_PICKER_SCRIPT,
  type PageSource,
  type Watch,
  type WatchInput,
  type WatchWebhookBody,
} from '@mirror/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  mirrorSite,
  pollToEnd,
  SERVICE_ENV,
  signUp,
  type SignedUp,
} from '../../test/api-helpers.js';
import { decodedMail, startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { createTestApp, waitFor, type TestApp } from '../../test/test-app.js';

/**
 * Issue 33, item 2: watches. An origin that changes between re-mirrors (a price inside a watched
 * part, a paragraph outside it, "Sold out" on a shop page), a real SMTP server and a real webhook
 * receiver that checks each delivery's signature and fails the first one.
 */

interface Origin {
  url: string;
  price: string;
  news: string;
  stock: string;
  close(): Promise<void>;
}

async function startOrigin(): Promise<Origin> {
  const origin = { url: '', price: 'Pro $9', news: 'Spring news', stock: 'In stock' } as Origin;
  const page = (title: string, body: string) =>
    `<!doctype html><html><head><title>${title}</title></head><body><nav><a href="/">Home</a> <a href="/shop">Shop</a></nav>${body}</body></html>`;
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (path === '/')
      return html(
        page(
          'Plans',
          `<h1>Plans</h1><section class="plans"><div class="plan" id="pro"><h2>Pro</h2><p class="price">${origin.price} a month</p></div></section><p class="news">${origin.news} from the team, as every season.</p>`,
        ),
      );
    if (path === '/shop')
      return html(page('Shop', `<h1>Shop</h1><p>The blue mug: ${origin.stock}.</p>`));
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  origin.close = () =>
    new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return origin;
}

interface Delivery {
  body: WatchWebhookBody;
  validSignature: boolean;
}

let t: TestApp;
let origin: Origin;
let smtp: TestSmtpServer;
let receiver: http.Server;
let receiverUrl: string;
/** The receiver's answers, in turn; 200 once they run out. */
const receiverAnswers: number[] = [];
const deliveries: Delivery[] = [];
/** The secrets the receiver checks signatures with. */
const secrets: string[] = [];

beforeAll(async () => {
  origin = await startOrigin();
  smtp = await startSmtpServer();
  receiver = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const [t_, v1] = (req.headers['mirror-signature'] as string).split(',');
      const timestamp = t_!.slice(2);
      const validSignature = secrets.some(
        (secret) =>
          createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex') === v1!.slice(3),
      );
      deliveries.push({ body: JSON.parse(raw) as WatchWebhookBody, validSignature });
      res.writeHead(receiverAnswers.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/mirror`;
  t = await createTestApp({
    ...SERVICE_ENV,
    SMTP_URL: smtp.url,
    WEBHOOK_RETRY_DELAYS_MS: '200,200',
  });
}, 60_000);

afterAll(async () => {
  await t.close();
  await smtp.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await origin.close();
});

const base: WatchInput = {
  name: 'Watch',
  scope: 'site',
  pages: [],
  selector: null,
  textFallback: null,
  keywords: [],
  minWords: 0,
  email: 'off',
  webhookUrl: null,
};

async function addWatch(owner: SignedUp, siteId: string, input: Partial<WatchInput>) {
  return t.app.inject({
    method: 'POST',
    url: `/api/domains/clone/${siteId}/watches`,
    headers: owner.headers,
    payload: { ...base, ...input },
  });
}

async function remirror(owner: SignedUp, siteId: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/domains/clone/${siteId}/remirror`,
    headers: owner.headers,
  });
  expect(res.statusCode, res.body).toBe(202);
  const readings = await pollToEnd(t, siteId, owner.headers);
  expect(readings.at(-1)!.status).toBe('completed');
}

const mailsTo = (email: string) => smtp.to(email);

describe('watches', () => {
  it('tells a change inside a watched part, not one outside it, by mail, signed webhook and feed', async () => {
    const owner = await signUp(t, 'pro');
    const email = (
      await t.app.database.db
        .selectFrom('users')
        .select('email')
        .where('id', '=', owner.userId)
        .executeTakeFirstOrThrow()
    ).email;
    const { id } = await mirrorSite(t, origin.url, owner.headers);

    const part = await addWatch(owner, id, {
      name: 'Pro price',
      scope: 'part',
      pages: ['/'],
      selector: '#pro .price',
      textFallback: 'Pro $9',
      email: 'each',
      webhookUrl: receiverUrl,
    });
    expect(part.statusCode, part.body).toBe(201);
    const partWatch = part.json<Watch>();
    expect(partWatch.webhookSecret).toMatch(/^whsec_/);
    secrets.push(partWatch.webhookSecret);
    const soldOut = await addWatch(owner, id, {
      name: 'Sold out',
      keywords: [{ text: 'sold out', when: 'appears' }],
      email: 'daily',
    });
    expect(soldOut.statusCode, soldOut.body).toBe(201);
    const shop = await addWatch(owner, id, { name: 'Shop page', scope: 'pages', pages: ['/shop'] });
    expect(shop.statusCode, shop.body).toBe(201);

    // A change outside the part, and nowhere near the shop: no watch is met.
    origin.news = 'Summer news';
    await remirror(owner, id);
    await t.app.watchesService.sendDigests();
    expect(mailsTo(email)).toEqual([]);
    expect(deliveries).toEqual([]);

    // The price inside the part, and the shop's mug sold out.
    origin.price = 'Pro $12';
    origin.stock = 'Sold out';
    receiverAnswers.push(500);
    await remirror(owner, id);

    // The part watch mails at once, with the part's text before and after, and the report link.
    const versions = (
      await t.app.inject({ url: `/api/domains/clone/${id}/versions`, headers: owner.headers })
    ).json<{ id: string; number: number }[]>();
    const newest = versions[0]!;
    const reportUrl = `${t.app.config.appUrl}/dashboard/site/${id}/changes/${newest.id}`;
    const each = await waitFor(() => (mailsTo(email).length > 0 ? mailsTo(email) : undefined));
    expect(each).toHaveLength(1);
    const text = decodedMail(each[0]!.data);
    expect(text).toMatch(/Subject: .*Pro price/);
    expect(text).toContain('Pro $9 a month');
    expect(text).toContain('Pro $12 a month');
    expect(text).toContain(reportUrl);

    // The webhook: refused once (500), delivered on the retry, signed with the watch's secret.
    await waitFor(() => (deliveries.length >= 2 ? true : undefined), 10_000);
    expect(deliveries.every((d) => d.validSignature)).toBe(true);
    const body = deliveries[1]!.body;
    expect(body).toMatchObject({
      type: 'site.changed',
      watch: { id: partWatch.id, name: 'Pro price' },
      version: { id: newest.id, number: newest.number },
      reportUrl,
    });
    expect(body.reasons).toEqual([
      {
        kind: 'part-changed',
        path: '/',
        words: 2,
        before: 'Pro $9 a month',
        after: 'Pro $12 a month',
      },
    ]);
    const listed = await waitFor(async () => {
      const res = await t.app.inject({
        url: `/api/domains/clone/${id}/webhook-deliveries`,
        headers: owner.headers,
      });
      const [delivery] = res.json<{ deliveries: { status: string }[] }>().deliveries;
      return delivery?.status === 'delivered' ? delivery : undefined;
    });
    expect(listed).toMatchObject({
      watchId: partWatch.id,
      versionId: newest.id,
      url: receiverUrl,
      attempts: 2,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
    });

    // The daily digest has the keyword; a second pass the same day sends nothing more.
    expect(await t.app.watchesService.sendDigests()).toBe(1);
    const digest = decodedMail(mailsTo(email).at(-1)!.data);
    expect(digest).toContain('“sold out” appeared on /shop');
    expect(digest).toContain(reportUrl);
    expect(await t.app.watchesService.sendDigests()).toBe(0);

    // The feed lists the three hits, newest first, each linking to the report.
    const list = (
      await t.app.inject({ url: `/api/domains/clone/${id}/watches`, headers: owner.headers })
    ).json<{ feedUrl: string; watches: Watch[]; used: number; limit: number }>();
    expect(list).toMatchObject({ used: 3, limit: 10 });
    expect(list.watches.every((w) => w.lastHitAt !== null)).toBe(true);
    const feedUrl = new URL(list.feedUrl);
    const feed = await t.app.inject({ url: `${feedUrl.pathname}${feedUrl.search}` });
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toMatch(/^application\/atom\+xml/);
    const entries = feed.body.split('<entry>').slice(1);
    expect(entries).toHaveLength(3);
    expect(feed.body).toContain('/shop changed');
    expect(feed.body).toContain(`href="${reportUrl}"`);
    const wrong = await t.app.inject({
      url: `/api/domains/clone/${id}/changes.atom?token=not-the-token`,
    });
    expect(wrong.statusCode).toBe(404);

    // Deleting the site deletes its watches, their hits and deliveries.
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/domains/clone/${id}`,
          headers: owner.headers,
        })
      ).statusCode,
    ).toBe(200);
    const db = t.app.database.db;
    for (const table of ['watches', 'watch_hits', 'webhook_deliveries', 'change_feeds'] as const) {
      const left = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('site_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(Number(left.n), table).toBe(0);
    }
  }, 120_000);

  it('answers a page of the live copy as hosted, for the part picker; owner only', async () => {
    const owner = await signUp(t);
    const { id } = await mirrorSite(t, origin.url, owner.headers);
    const source = (path: string, headers: Record<string, string> = owner.headers) =>
      t.app.inject({
        url: `/api/domains/clone/${id}/page-source?path=${encodeURIComponent(path)}`,
        headers,
      });
    const site = (
      await t.app.inject({ url: `/api/domains/clone/${id}`, headers: owner.headers })
    ).json<{ ownerPreviewUrl: string }>();

    const home = await source('/');
    expect(home.statusCode, home.body).toBe(200);
    expect(home.headers['cache-control']).toBe('no-store');
    const page = home.json<PageSource>();
    expect(page.path).toBe('/');
    expect(page.url).toBe(site.ownerPreviewUrl);
    // The HTML the preview host serves for that address, byte for byte.
    const hosted = await t.app.inject({ url: '/', headers: { host: new URL(page.url).host } });
    expect(hosted.statusCode).toBe(200);
    expect(page.html).toBe(hosted.body);
    expect(page.html).toContain(`<p class="price">${origin.price} a month</p>`);

    // The spellings the sites host accepts name the copy's own path, which a watch finds again.
    for (const spelling of ['/shop', '/shop/', '/shop.html', '/shop/?']) {
      const shop = await source(spelling);
      expect(shop.statusCode, spelling).toBe(200);
      expect(shop.json<PageSource>()).toMatchObject({
        path: '/shop',
        url: `${new URL(site.ownerPreviewUrl).origin}/shop`,
      });
      expect(shop.json<PageSource>().html).toContain('The blue mug');
    }

    const missing = await source('/nowhere');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'This page is not in the copy.' });
    expect((await source('pricing')).statusCode).toBe(400);
    expect((await source('/', {})).statusCode).toBe(401);
    const other = await signUp(t);
    expect((await source('/', other.headers)).statusCode).toBe(404);

    // The frame keeps the app's policy: our one script by its hash, the page's styles and fonts
    // from the sites host; no other inline script.
    const csp = (await t.app.inject({ url: '/api/health' })).headers[
      'content-security-policy'
    ] as string;
    const hash = createHash('sha256').update(PART_PICKER_SCRIPT, 'utf8').digest('base64');
    const directive = (name: string) => csp.split(/;\s*/).find((d) => d.startsWith(`${name} `))!;
    expect(directive('script-src')).toContain(`'sha256-${hash}'`);
    expect(directive('script-src')).not.toContain('unsafe-inline');
    expect(directive('style-src')).toContain(
      `.${new URL(page.url).hostname.split('.').slice(1).join('.')}`,
    );
  }, 60_000);

  it("refuses a watch beyond the plan's number, and bad input, with messages; changes nothing", async () => {
    const free = await signUp(t);
    const { id } = await mirrorSite(t, origin.url, free.headers);
    const missingPart = await addWatch(free, id, { scope: 'part', pages: ['/'] });
    expect(missingPart.statusCode).toBe(400);
    expect(missingPart.json().message).toBe('Pick the part of the page to watch.');
    const badSelector = await addWatch(free, id, {
      scope: 'part',
      pages: ['/'],
      selector: 'a:hover',
    });
    expect(badSelector.statusCode).toBe(400);
    expect(badSelector.json().message).toMatch(/Unsupported selector/);
    const noPages = await addWatch(free, id, { scope: 'pages' });
    expect(noPages.json().message).toBe('Choose the pages to watch.');
    expect((await addWatch(free, id, { name: 'First' })).statusCode).toBe(201);
    const second = await addWatch(free, id, { name: 'Second' });
    expect(second.statusCode).toBe(403);
    expect(second.json().message).toBe(
      'Your plan includes 1 watch: delete a watch or upgrade to add another.',
    );
    const list = (
      await t.app.inject({ url: `/api/domains/clone/${id}/watches`, headers: free.headers })
    ).json<{ watches: Watch[] }>();
    expect(list.watches.map((w) => w.name)).toEqual(['First']);
    // Editing and deleting work on one's own watch only.
    const [first] = list.watches;
    const other = await signUp(t, 'pro');
    const stranger = await t.app.inject({
      method: 'DELETE',
      url: `/api/domains/clone/${id}/watches/${first!.id}`,
      headers: other.headers,
    });
    expect(stranger.statusCode).toBe(404);
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/domains/clone/${id}/watches/${first!.id}`,
      headers: free.headers,
      payload: { ...base, name: 'Renamed', minWords: 5 },
    });
    expect(edited.json()).toMatchObject({ name: 'Renamed', minWords: 5 });
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/domains/clone/${id}/watches/${first!.id}`,
      headers: free.headers,
    });
    expect(removed.statusCode).toBe(204);
    expect((await addWatch(free, id, { name: 'Again' })).statusCode).toBe(201);
  }, 60_000);
});
