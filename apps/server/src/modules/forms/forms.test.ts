import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import type { FormSubmissionList, FormWebhookBody, SiteFormList } from '@mirror/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirrorSite, SERVICE_ENV, signUp, type SignedUp } from '../../test/api-helpers.js';
import { decodedMail, startSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { createTestApp, waitFor, type TestApp } from '../../test/test-app.js';

/**
 * Issue 34: forms on copies, through the hosted copy of a small business site whose server is
 * stopped before anyone submits: a PHP contact form (with its own thank-you page), a footer
 * newsletter on every page, a job application with a file, a form its page's script sends with
 * fetch() as JSON, a login form and a search form. A real SMTP server takes the owner's mail.
 */

const page = (title: string, body: string, lang = 'en') =>
  `<!doctype html><html lang="${lang}"><head><title>${title}</title></head><body><nav><a href="/">Home</a> <a href="/contact/">Contact</a> <a href="/jobs/">Jobs</a> <a href="/quote">Quote</a> <a href="/account">Account</a></nav>${body}
<footer><form id="newsletter" action="/newsletter.php" method="post"><input type="email" name="email" placeholder="Your email" required><button>Subscribe</button></form></footer></body></html>`;

const PAGES: Record<string, string> = {
  '/': page(
    'Bakery',
    '<h1>Our bakery</h1><form action="/search"><input type="search" name="q"></form><p><a href="/contact/thank-you.html">Letters we answered</a> <a href="/search?q=loaves">Our loaves</a></p>',
  ),
  // The one results page of the site's search the crawl finds: the template of the others.
  '/search': page(
    'Search',
    `<main class="search-page"><h1 class="search-title">Results for <em>loaves</em></h1>
      <form action="/search"><input type="search" name="q" value="loaves"></form>
      <ol class="results">
      <li class="result" id="r1"><h3><a href="/contact/">Contact</a></h3><p class="date">May 2023</p><p class="excerpt">Write to us to order loaves for the weekend, by mail or by phone.</p></li>
      <li class="result" id="r2"><h3><a href="/jobs/">Jobs</a></h3><p class="date">June 2022</p><p class="excerpt">We look for bakers of loaves, full or part time, early mornings.</p></li>
      </ol></main>`,
  ),
  '/contact/': page(
    'Contact',
    `<h1>Write to us</h1><form action="send.php" method="post">
      <label>Name <input name="name" required></label>
      <label>Email <input type="email" name="email" required></label>
      <label>Topic <select name="topic"><option>Order</option><option>Other</option></select></label>
      <label>Message <textarea name="message" required></textarea></label>
      <input type="text" name="url_check" tabindex="-1" autocomplete="off" style="display:none">
      <button>Send</button></form>`,
  ),
  '/contact/thank-you.html': page('Thanks', '<h1>Thanks, we will write back soon.</h1>'),
  '/jobs/': page(
    'Jobs',
    `<h1>Apply</h1><form action="/jobs/apply.php" method="post" enctype="multipart/form-data">
      <input name="name"><input type="email" name="email"><input type="file" name="cv"><button>Apply</button></form>`,
  ),
  '/quote': page(
    'Quote',
    `<h1>Get a quote</h1><form id="quote-form"><input name="name"><input type="email" name="email"><textarea name="details"></textarea><button>Ask</button></form>
    <script>document.getElementById('quote-form').addEventListener('submit', function (e) {
      e.preventDefault();
      fetch('/api/quote', { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify(Object.fromEntries(new FormData(e.target))) });
    });</script>`,
  ),
  '/account': page(
    'Account',
    '<h1>Sign in</h1><form action="/account/login.php" method="post"><input name="user"><input type="password" name="password"><button>Sign in</button></form>',
  ),
};

let t: TestApp;
let smtp: TestSmtpServer;
let origin: http.Server;
let owner: SignedUp;
let ownerEmail: string;
let siteId: string;
let host: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  origin = http.createServer((req, res) => {
    const body = PAGES[new URL(req.url ?? '/', 'http://x').pathname];
    if (req.method === 'GET' && body) res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    else res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  const originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  t = await createTestApp({
    ...SERVICE_ENV,
    SMTP_URL: smtp.url,
    RATE_LIMIT_FACTOR: '1',
    WEBHOOK_RETRY_DELAYS_MS: '200,200',
  });
  owner = await signUp(t, 'pro');
  ownerEmail = (
    await t.app.database.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', owner.userId)
      .executeTakeFirstOrThrow()
  ).email;
  const site = await mirrorSite(t, originUrl + '/', owner.headers);
  expect(site.readings.at(-1)!.status).toBe('completed');
  siteId = site.id;
  host = new URL(site.previewUrl).host;
  // The original is gone: everything below is answered by the copy alone.
  await new Promise<void>(
    (resolve) => (origin.closeAllConnections(), origin.close(() => resolve())),
  );
}, 90_000);

afterAll(async () => {
  await t.close();
  await smtp.close();
});

let visitor = 0;
/** A POST to the hosted copy from a visitor of its own address, as a browser sends it. */
function submit(
  path: string,
  payload: string | Buffer,
  options: { type?: string; from?: string; fetch?: boolean; address?: string } = {},
) {
  visitor++;
  return t.app.inject({
    method: 'POST',
    url: path,
    payload,
    remoteAddress: options.address ?? `198.51.100.${visitor}`,
    headers: {
      host,
      'content-type': options.type ?? 'application/x-www-form-urlencoded',
      'sec-fetch-mode': options.fetch ? 'cors' : 'navigate',
      ...(options.from ? { referer: `http://${host}${options.from}` } : {}),
    },
  });
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function submissions(query = ''): Promise<FormSubmissionList> {
  const res = await t.app.inject({
    url: `/api/domains/clone/${siteId}/forms/submissions${query}`,
    headers: owner.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<FormSubmissionList>();
}

async function forms(): Promise<SiteFormList> {
  const res = await t.app.inject({
    url: `/api/domains/clone/${siteId}/forms`,
    headers: owner.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SiteFormList>();
}

describe('forms on a hosted copy, its original stopped', () => {
  it('lists the forms found, a footer form on every page as one', async () => {
    const list = await forms();
    const byId = Object.fromEntries(list.forms.map((f) => [f.id, f]));
    expect(byId.newsletter).toMatchObject({
      kind: 'newsletter',
      captured: true,
      action: '/newsletter.php',
    });
    expect(byId.newsletter!.pageCount).toBeGreaterThanOrEqual(6);
    const contact = list.forms.find((f) => f.action === '/contact/send.php')!;
    expect(contact).toMatchObject({
      kind: 'contact',
      captured: true,
      enabled: true,
      notify: 'each',
    });
    expect(contact.fields.map((f) => f.name)).toEqual([
      'name',
      'email',
      'topic',
      'message',
      'url_check',
    ]);
    expect(list.forms.find((f) => f.action === '/account/login.php')).toMatchObject({
      kind: 'login',
      captured: false,
      refusal: 'password',
    });
    expect(list.forms.find((f) => f.kind === 'search')).toMatchObject({ captured: false });
    expect(list.usage).toMatchObject({ used: 0, limit: 1000 });

    // The copy's page carries the honeypot and the key of each form it takes, none for the login.
    const hosted = await t.app.inject({ url: '/contact/', headers: { host } });
    const keys = [...hosted.body.matchAll(/<mirror-hp data-key="([\w-]{12})"/g)].map((m) => m[1]);
    expect(keys.sort()).toEqual([contact.key, byId.newsletter!.key].sort());
    const account = await t.app.inject({ url: '/account', headers: { host } });
    expect(account.body.match(/<mirror-hp/g)).toHaveLength(1);
  });

  it("keeps a contact submission, mails it with the visitor's Reply-To, and shows the site's thank-you page", async () => {
    const res = await submit(
      '/contact/send.php',
      form({
        name: 'Ana',
        email: 'ana@example.net',
        topic: 'Order',
        message: 'Two loaves, please.',
        url_check: '',
      }),
      { from: '/contact/' },
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/contact/thank-you.html');
    const thanks = await t.app.inject({ url: '/contact/thank-you.html', headers: { host } });
    expect(thanks.body).toContain('we will write back soon');

    const { submissions: list } = await submissions();
    expect(list[0]).toMatchObject({
      page: '/contact/',
      spam: false,
      fields: [
        { name: 'name', value: 'Ana' },
        { name: 'email', value: 'ana@example.net' },
        { name: 'topic', value: 'Order' },
        { name: 'message', value: 'Two loaves, please.' },
        { name: 'url_check', value: '' },
      ],
    });
    const mail = await waitFor(() => smtp.to(ownerEmail)[0], 10_000);
    const text = decodedMail(mail.data);
    expect(text).toMatch(/^Reply-To: ana@example\.net/m);
    expect(text).toContain('message: Two loaves, please.');
  });

  it('answers a form without a thank-you page with a clean one linking back', async () => {
    const res = await submit('/newsletter.php', form({ email: 'reader@example.net' }), {
      from: '/jobs/',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('Thank you!');
    expect(res.body).toContain('href="/jobs/"');
    const { submissions: list } = await submissions();
    expect(list[0]!.fields).toEqual([{ name: 'email', value: 'reader@example.net' }]);
  });

  it('stores a file sent with a multipart form and counts it in storage', async () => {
    const before = (await t.app.inject({ url: '/api/auth/me', headers: owner.headers })).json<{
      user: { storageUsedBytes?: number };
    }>();
    const boundary = '----mirror-test';
    const cv = Buffer.alloc(300_000, 7);
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nBo\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\nbo@example.net\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="cv"; filename="cv.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      cv,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await submit('/jobs/apply.php', body, {
      type: `multipart/form-data; boundary=${boundary}`,
      from: '/jobs/',
    });
    expect(res.statusCode).toBe(200);
    const saved = (await submissions()).submissions[0]!;
    expect(saved.fields).toEqual([
      { name: 'name', value: 'Bo' },
      { name: 'email', value: 'bo@example.net' },
    ]);
    expect(saved.files).toEqual([
      { field: 'cv', name: 'cv.pdf', contentType: 'application/pdf', size: 300_000 },
    ]);
    const file = await t.app.inject({
      url: `/api/domains/clone/${siteId}/forms/submissions/${saved.id}/files/0`,
      headers: owner.headers,
    });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(cv)).toBe(true);
    expect(file.headers['content-disposition']).toContain('cv.pdf');
    const usage = await t.app.storageService.usage(owner.userId, 'pro');
    expect(usage.usedBytes).toBeGreaterThanOrEqual(300_000);
    void before;

    // Over Pro's 10 MB a submission: refused, nothing kept.
    const huge = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nBig\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="cv"; filename="big.bin"\r\n\r\n`,
      ),
      Buffer.alloc(10 * 1024 * 1024 + 1, 1),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const refused = await submit('/jobs/apply.php', huge, {
      type: `multipart/form-data; boundary=${boundary}`,
      from: '/jobs/',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('This form is not available on this copy');
    expect((await submissions()).submissions[0]!.id).toBe(saved.id);
  });

  it('takes a form its page sends with fetch() as JSON, and answers JSON', async () => {
    const res = await submit(
      '/api/quote',
      JSON.stringify({ name: 'Cy', email: 'cy@example.net', details: 'A wedding cake' }),
      { type: 'application/json', from: '/quote', fetch: true },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const saved = (await submissions()).submissions[0]!;
    expect(saved.formLabel).toBe('quote-form');
    const found = await submissions('?q=WEDDING');
    expect(found.submissions.map((s) => s.id)).toEqual([saved.id]);
    expect((await submissions('?q=%25')).submissions).toEqual([]);
    expect(saved.fields.map((f) => f.value)).toEqual(['Cy', 'cy@example.net', 'A wedding cake']);
  });

  it('stores nothing from a login form, a card number or a POST that is no form', async () => {
    const count = (await submissions()).submissions.length;
    const login = await submit('/account/login.php', form({ user: 'ana', password: 'hunter2' }), {
      from: '/account',
    });
    expect(login.statusCode).toBe(403);
    expect(login.body).toContain('This form is not available on this copy');
    const card = await submit(
      '/contact/send.php',
      form({ name: 'Eve', email: 'eve@example.net', message: 'my card 4111 1111 1111 1111' }),
      { from: '/contact/' },
    );
    expect(card.statusCode).toBe(403);
    const api = await submit('/api/graphql', JSON.stringify({ query: '{ me }' }), {
      type: 'application/json',
      from: '/',
      fetch: true,
    });
    expect(api.statusCode).toBe(405);
    expect((await submissions()).submissions.length).toBe(count);
  });

  it("keeps bots' submissions apart as spam, never mailed, and stops a flood from one address", async () => {
    const trap = await submit(
      '/contact/send.php',
      form({
        name: 'Bot',
        email: 'trap-bot@example.net',
        message: 'hi',
        url_check: 'http://spam.example',
      }),
      { from: '/contact/' },
    );
    expect(trap.statusCode).toBe(303);
    const links = await submit(
      '/newsletter.php',
      form({
        email: 'link-bot@example.net',
        _mirror_hp: '',
        comment: 'http://a.example http://b.example http://c.example www.d.example.com',
      }),
    );
    expect(links.statusCode).toBe(200);
    const fast = await submit(
      '/newsletter.php',
      form({ email: 'fast-bot@example.net', _mirror_t: '300' }),
    );
    expect(fast.statusCode).toBe(200);
    const spam = (await submissions('?spam=true')).submissions;
    expect(spam.map((s) => s.spamReason)).toEqual(['too-fast', 'links', 'honeypot']);
    expect((await submissions()).submissions.every((s) => !s.spam)).toBe(true);

    const answers: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await submit('/newsletter.php', form({ email: `flood${i}@example.net` }), {
        address: '203.0.113.9',
      });
      answers.push(res.statusCode);
    }
    expect(answers.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.slice(5)).toEqual([429, 429]);
    // The five people's mails came, none of the spam.
    const texts = () => smtp.to(ownerEmail).map((m) => decodedMail(m.data));
    await waitFor(
      () => (texts().filter((m) => m.includes('flood')).length === 5 ? true : undefined),
      10_000,
    );
    for (const bot of ['trap-bot@', 'link-bot@', 'fast-bot@'])
      expect(texts().filter((m) => m.includes(bot))).toEqual([]);
  });

  it('exports every field to CSV, formulas defused', async () => {
    await submit(
      '/contact/send.php',
      form({ name: '=HYPERLINK("x")', email: 'f@example.net', message: 'a, "b"\nc' }),
      {
        from: '/contact/',
      },
    );
    const res = await t.app.inject({
      url: `/api/domains/clone/${siteId}/forms/submissions.csv`,
      headers: owner.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(
      'submitted_at,form,page,name,email,message,details,topic,url_check,files',
    );
    expect(res.body).toContain(`"'=HYPERLINK(""x"")",f@example.net,"a, ""b""\nc"`);
    expect(res.body).toContain('cv: cv.pdf (300000 B)');
    expect(res.body).toContain('A wedding cake');
  });

  it("obeys the owner's settings: a form turned off, another address after it", async () => {
    const { forms: list } = await forms();
    const newsletter = list.find((f) => f.id === 'newsletter')!;
    const set = (body: object) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/domains/clone/${siteId}/forms/${newsletter.key}`,
        headers: owner.headers,
        payload: body,
      });
    const bad = await set({ enabled: true, redirectUrl: 'javascript:alert(1)', notify: 'each' });
    expect(bad.statusCode).toBe(400);
    expect((await set({ enabled: true, redirectUrl: '/welcome', notify: 'off' })).statusCode).toBe(
      200,
    );
    const moved = await submit('/newsletter.php', form({ email: 'z@example.net' }));
    expect(moved.statusCode).toBe(303);
    expect(moved.headers.location).toBe('/welcome');
    expect((await set({ enabled: false, redirectUrl: null, notify: 'each' })).statusCode).toBe(200);
    const off = await submit('/newsletter.php', form({ email: 'off@example.net' }));
    expect(off.statusCode).toBe(403);
    expect(off.body).toContain('This form is not available on this copy');
  });

  it('sends each submission kept to a signed webhook, and tries again after a failure', async () => {
    const deliveries: { body: FormWebhookBody; raw: string; signature: string }[] = [];
    const answers = [500];
    const receiver = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        deliveries.push({
          body: JSON.parse(raw) as FormWebhookBody,
          raw,
          signature: String(req.headers['mirror-signature']),
        });
        res.writeHead(answers.shift() ?? 200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const contact = (await forms()).forms.find((f) => f.action === '/contact/send.php')!;
      const set = await t.app.inject({
        method: 'PUT',
        url: `/api/domains/clone/${siteId}/forms/${contact.key}`,
        headers: owner.headers,
        payload: {
          enabled: true,
          redirectUrl: null,
          notify: 'off',
          webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        },
      });
      expect(set.statusCode, set.body).toBe(200);
      const secret = set.json<{ webhookSecret: string }>().webhookSecret;
      expect(secret).toMatch(/^whsec_/);

      await submit(
        '/contact/send.php',
        form({ name: 'Hook', email: 'hook@example.net', message: 'Via the hook' }),
        {
          from: '/contact/',
        },
      );
      await submit(
        '/contact/send.php',
        form({ name: 'Bot', email: 'b@example.net', message: 'x', url_check: 'spam' }),
        {
          from: '/contact/',
        },
      );
      await waitFor(() => (deliveries.length === 1 ? true : undefined), 10_000);
      // The first try failed (500); the periodic task tries again once the delay is over.
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(await t.app.formsService.deliverWebhooks()).toBe(1);
      await waitFor(() => (deliveries.length === 2 ? true : undefined), 10_000);
      expect(await t.app.formsService.deliverWebhooks()).toBe(0);

      const last = deliveries[1]!;
      const [stamp, v1] = last.signature.split(',');
      const expected = createHmac('sha256', secret)
        .update(`${stamp!.slice(2)}.${last.raw}`)
        .digest('hex');
      expect(v1!.slice(3)).toBe(expected);
      expect(last.body).toMatchObject({
        type: 'form.submission',
        form: { key: contact.key, kind: 'contact' },
        submission: {
          page: '/contact/',
          fields: [
            { name: 'name', value: 'Hook' },
            { name: 'email', value: 'hook@example.net' },
            { name: 'message', value: 'Via the hook' },
          ],
        },
      });
      // The spam was never sent.
      expect(deliveries.every((d) => d.body.submission.fields[0]!.value === 'Hook')).toBe(true);
      const refused = await t.app.inject({
        method: 'PUT',
        url: `/api/domains/clone/${siteId}/forms/${contact.key}`,
        headers: owner.headers,
        payload: { enabled: true, redirectUrl: null, notify: 'each', webhookUrl: 'ftp://x' },
      });
      expect(refused.statusCode).toBe(400);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it("answers the site's own search from an index of the copy's pages, in its results template", async () => {
    // The results page the crawl captured is the copy's, as it was.
    const captured = await t.app.inject({ url: '/search?q=loaves', headers: { host } });
    expect(captured.body).toContain('Write to us to order loaves');

    const found = await t.app.inject({ url: '/search?q=APPL', headers: { host } });
    expect(found.statusCode).toBe(200);
    expect(found.headers['content-type']).toContain('text/html');
    // The site's own page: its menu, its heading and box with the words searched, its footer form.
    expect(found.body).toContain('<a href="/quote">Quote</a>');
    expect(found.body).toContain('<h1 class="search-title">Results for <em>APPL</em></h1>');
    expect(found.body).toContain('name="q" value="APPL"');
    expect(found.body).toMatch(/<form id="newsletter"[\s\S]*<mirror-hp data-key=/);
    // Its results are ours, in its first result's markup (not the captured page's results page).
    expect(found.body.match(/<li class="result">/g)).toHaveLength(1);
    expect(found.body).toMatch(
      /<li class="result"><h3><a href="\/jobs\/">Jobs<\/a><\/h3><p class="excerpt">[^<]*<mark>Apply<\/mark>/,
    );
    expect(found.body).not.toContain('June 2022');
    expect(found.body).not.toContain('id="r1"');
    // A hostile term comes back escaped, nothing found said where the results were.
    const none = await t.app.inject({
      url: `/search?q=${encodeURIComponent('<script>x</script>')}`,
      headers: { host },
    });
    expect(none.body).toContain('No page of this site has “&lt;script&gt;x&lt;/script&gt;”.');
    expect(none.body).toContain('Results for <em>&lt;script&gt;x&lt;/script&gt;</em>');
    expect(none.body).not.toContain('<script>x');
    // Other queries are the copy's as before.
    const plain = await t.app.inject({ url: '/?utm_source=x', headers: { host } });
    expect(plain.body).toContain('Our bakery');
  });

  it('takes the newsletter form an instruction adds to the footer, once its draft is published', async () => {
    const customized = await t.app.inject({
      method: 'PUT',
      url: `/api/domains/clone/${siteId}/customize`,
      headers: owner.headers,
      payload: { customizations: { instructions: 'add a newsletter signup to the footer' } },
    });
    expect(customized.statusCode, customized.body).toBeLessThan(300);
    const draft = await waitFor(async () => {
      const versions = (
        await t.app.inject({ url: `/api/domains/clone/${siteId}/versions`, headers: owner.headers })
      ).json<{ id: string; draft?: boolean; status: string }[]>();
      return versions.find((v) => v.draft && v.status === 'completed');
    }, 60_000);
    const published = await t.app.inject({
      method: 'POST',
      url: `/api/domains/clone/${siteId}/versions/${draft.id}/publish`,
      headers: owner.headers,
    });
    expect(published.statusCode, published.body).toBe(200);

    // On every page with a footer, marked like a captured form; one form for the owner.
    const about = await t.app.inject({ url: '/jobs/', headers: { host } });
    expect(about.body).toMatch(/<form id="mirror-newsletter"[\s\S]*<mirror-hp data-key=/);
    const added = (await forms()).forms.find((f) => f.id === 'mirror-newsletter')!;
    expect(added).toMatchObject({ kind: 'newsletter', captured: true, action: '/newsletter' });
    expect(added.pageCount).toBeGreaterThanOrEqual(5);
    expect(added.fields.map((f) => f.name)).toEqual(['email']);

    const res = await submit('/newsletter', form({ email: 'new.reader@example.net' }), {
      from: '/jobs/',
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Thank you!');
    const saved = (await submissions(`?form=${added.key}`)).submissions;
    expect(saved.map((x) => x.fields)).toEqual([
      [{ name: 'email', value: 'new.reader@example.net' }],
    ]);
  });

  it('mails the contact form to the address an instruction gives: once published, and once that address confirms', async () => {
    const sales = 'sales@example.com';
    const contactKey = () =>
      forms().then((list) => list.forms.find((f) => f.action === '/contact/send.php')!);
    const sendContact = (message: string) =>
      submit(
        '/contact/send.php',
        form({ name: 'Di', email: 'di@example.net', topic: 'Order', message, url_check: '' }),
        { from: '/contact/' },
      );
    const mailsWith = (to: string, text: string) =>
      smtp.to(to).filter((m) => decodedMail(m.data).includes(text));
    // Earlier tests turned the newsletter off and the contact form's mails off: both mail again.
    for (const f of (await forms()).forms.filter((x) => x.captured))
      await t.app.inject({
        method: 'PUT',
        url: `/api/domains/clone/${siteId}/forms/${f.key}`,
        headers: owner.headers,
        payload: { enabled: true, redirectUrl: null, notify: 'each', webhookUrl: null },
      });

    const customized = await t.app.inject({
      method: 'PUT',
      url: `/api/domains/clone/${siteId}/customize`,
      headers: owner.headers,
      payload: { customizations: { instructions: `Contact form emails should go to ${sales}.` } },
    });
    expect(customized.statusCode, customized.body).toBeLessThan(300);
    const draft = await waitFor(async () => {
      const versions = (
        await t.app.inject({ url: `/api/domains/clone/${siteId}/versions`, headers: owner.headers })
      ).json<{ id: string; draft?: boolean; status: string; edits?: string[] }[]>();
      return versions.find((v) => v.draft && v.status === 'completed');
    }, 60_000);
    expect(JSON.stringify(draft)).toContain(
      `go to \\"${sales}\\" instead of your account's address`,
    );

    // A draft changes nothing: the owner still gets the mails, the address is not asked.
    expect((await contactKey()).recipient).toBeNull();
    await sendContact('Before the draft is published');
    await waitFor(() => mailsWith(ownerEmail, 'Before the draft is published')[0], 10_000);
    expect(smtp.to(sales)).toEqual([]);

    const published = await t.app.inject({
      method: 'POST',
      url: `/api/domains/clone/${siteId}/versions/${draft.id}/publish`,
      headers: owner.headers,
    });
    expect(published.statusCode, published.body).toBe(200);
    const contact = await contactKey();
    expect(contact.recipient).toEqual({ email: sales, status: 'pending' });
    // The newsletter keeps mailing the owner: only the contact form was named.
    expect((await forms()).forms.find((f) => f.id === 'newsletter')!.recipient).toBeNull();

    // One mail asks the address; it holds the site's address and a link, and no page's text.
    const asked = await waitFor(() => smtp.to(sales)[0], 10_000);
    const askedText = decodedMail(asked.data);
    expect(askedText).toContain(`asked that its form submissions be mailed to this address`);
    expect(askedText).not.toContain('Write to us');
    const link = /http:\/\/[^\s"<>]+\/api\/forms\/recipients\/confirm\?token=([\w-]+)/.exec(
      askedText,
    )!;
    expect(link).not.toBeNull();
    const token = link[1]!;

    // Until it confirms, submissions are mailed to the owner, not to the address.
    await sendContact('While the address has not answered');
    await waitFor(() => mailsWith(ownerEmail, 'While the address has not answered')[0], 10_000);
    expect(mailsWith(sales, 'While the address has not answered')).toEqual([]);

    // Asking again so soon is refused: the address is not flooded.
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/domains/clone/${siteId}/forms/${contact.key}/recipient/confirmation`,
      headers: owner.headers,
    });
    expect(again.statusCode).toBe(429);
    expect(smtp.to(sales)).toHaveLength(1);

    // Opening the link answers nothing (mail scanners open links); its buttons do.
    const opened = await t.app.inject({ url: `/api/forms/recipients/confirm?token=${token}` });
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toContain('text/html');
    expect(opened.body).toContain('Yes, mail them here');
    expect((await contactKey()).recipient!.status).toBe('pending');
    const confirm = (answer: string, value = token) =>
      t.app.inject({
        method: 'POST',
        url: '/api/forms/recipients/confirm',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ token: value, answer }).toString(),
      });
    const confirmed = await confirm('confirm');
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain('Confirmed');
    expect((await contactKey()).recipient).toEqual({ email: sales, status: 'confirmed' });
    expect((await confirm('confirm', 'A'.repeat(43))).statusCode).toBe(404);

    // Now the contact form's mails go to the address, with the visitor's Reply-To and a way out.
    const owned = smtp.to(ownerEmail).length;
    await sendContact('After the address confirmed');
    const forwarded = await waitFor(
      () => mailsWith(sales, 'After the address confirmed')[0],
      10_000,
    );
    const forwardedText = decodedMail(forwarded.data);
    expect(forwardedText).toMatch(/^Reply-To: di@example\.net/m);
    expect(forwardedText).toContain(`To stop them: ${link[0]}`);
    await submit('/newsletter.php', form({ email: 'still.owner@example.net' }), { from: '/' });
    await waitFor(() => mailsWith(ownerEmail, 'still.owner@example.net')[0], 10_000);
    expect(mailsWith(ownerEmail, 'After the address confirmed')).toEqual([]);
    expect(smtp.to(ownerEmail).length).toBe(owned + 1);

    // A daily digest of the form's submissions goes to it too, with the way out.
    const setContact = (notify: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/domains/clone/${siteId}/forms/${contact.key}`,
        headers: owner.headers,
        payload: { enabled: true, redirectUrl: null, notify },
      });
    expect((await setContact('daily')).statusCode).toBe(200);
    await sendContact('For the digest of the address');
    await t.app.database.db
      .updateTable('form_submissions')
      .set({ created_at: new Date(Date.now() - 25 * 3_600_000).toISOString() })
      .where('mailed_at', 'is', null)
      .execute();
    expect(await t.app.formsService.sendDigests()).toBeGreaterThanOrEqual(1);
    const digest = await waitFor(
      () => mailsWith(sales, 'For the digest of the address')[0],
      10_000,
    );
    expect(decodedMail(digest.data)).toContain(`To stop them: ${link[0]}`);
    expect(mailsWith(ownerEmail, 'For the digest of the address')).toEqual([]);
    expect((await setContact('each')).statusCode).toBe(200);

    // The address may stop them at any time: they go to the owner again.
    expect((await confirm('decline')).body).toContain('Declined');
    expect((await contactKey()).recipient!.status).toBe('declined');
    await sendContact('After the address declined');
    await waitFor(() => mailsWith(ownerEmail, 'After the address declined')[0], 10_000);
    expect(mailsWith(sales, 'After the address declined')).toEqual([]);

    // The owner can take the recipient away; the other settings stay.
    const cleared = await t.app.inject({
      method: 'PUT',
      url: `/api/domains/clone/${siteId}/forms/${contact.key}`,
      headers: owner.headers,
      payload: { enabled: true, redirectUrl: null, notify: 'each', recipient: null },
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({ recipient: null, enabled: true });
  }, 90_000);

  it('lets only the owner read, mark and delete, and deletes submissions with the site', async () => {
    const stranger = await signUp(t, 'pro');
    const list = await t.app.inject({
      url: `/api/domains/clone/${siteId}/forms/submissions`,
      headers: stranger.headers,
    });
    expect(list.statusCode).toBe(404);
    const first = (await submissions()).submissions[0]!;
    const marked = await t.app.inject({
      method: 'PATCH',
      url: `/api/domains/clone/${siteId}/forms/submissions/${first.id}`,
      headers: owner.headers,
      payload: { spam: true },
    });
    expect(marked.json()).toMatchObject({ spam: true, spamReason: 'owner' });
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/domains/clone/${siteId}/forms/submissions/${first.id}`,
      headers: owner.headers,
    });
    expect(removed.statusCode).toBe(204);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/domains/clone/${siteId}`,
      headers: owner.headers,
    });
    expect(deleted.statusCode).toBe(200);
    const left = await t.app.database.db
      .selectFrom('form_submissions')
      .select('id')
      .where('site_id', '=', siteId)
      .execute();
    expect(left).toEqual([]);
    const files = await t.app.database.db.selectFrom('form_files').select('hash').execute();
    expect(files).toEqual([]);
  });
});
