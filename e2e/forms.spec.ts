import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { newAccount, registerViaApi, useSession } from './support/accounts';
import { text } from './support/locales';
import { waitForMailWith } from './support/outbox';
import { expectScreenFits, LAPTOP, PHONES } from './support/screen-fit';
import { authHeaders, mirrorViaApi } from './support/site-with-history';

const en = (key: string, vars?: Record<string, string>) => text('en', key, vars);

/** A bakery's contact page: its form posts to a PHP script the copy does not have (issue 34). */
const PAGES: Record<string, string> = {
  '/': `<!doctype html><html lang="en"><head><title>Bakery</title></head><body><h1>Write to us</h1>
    <form action="/contact.php" method="post">
      <p><label>Your name <input name="your-name" required></label></p>
      <p><label>Your email <input type="email" name="your-email" required></label></p>
      <p><label>Message <textarea name="your-message" required></textarea></label></p>
      <p><button>Send</button></p>
    </form><p><a href="/thank-you/">Letters we answered</a></p></body></html>`,
  '/thank-you/': `<!doctype html><html lang="en"><head><title>Thanks</title></head><body><h1>Thank you, we will write back soon.</h1></body></html>`,
};
const origin = { url: '', close: (): Promise<void> => Promise.resolve() };

test.beforeAll(async () => {
  const server = http.createServer((req, res) => {
    const body = PAGES[new URL(req.url ?? '/', 'http://x').pathname];
    if (req.method !== 'GET' || !body) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  origin.close = () =>
    new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
});
test.afterAll(async () => {
  await origin.close();
});

test("a visitor sends a copy's contact form with its original gone, and the owner reads it and its mail at 1280 and 390 px", async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(180_000);
  const owner = newAccount('Rosalind Franklin');
  const token = await registerViaApi(request, owner);
  const headers = authHeaders(token);
  const id = await mirrorViaApi(request, token, origin.url);
  const status = await request.get(`/api/domains/clone/${id}/status`, { headers });
  const { previewUrl } = (await status.json()) as { previewUrl: string };
  await origin.close();

  // A visitor, in a browser of their own, writes as a person does (more than 1.5 s on the page).
  const visitor = await browser.newContext();
  const hosted = await visitor.newPage();
  await hosted.goto(previewUrl);
  await hosted.getByLabel('Your name').fill('Ana Ruiz');
  await hosted.getByLabel('Your email').fill('ana@example.net');
  await hosted.getByLabel('Message').fill('Two rye loaves for Friday, please.');
  await hosted.waitForTimeout(1_600);
  await hosted.getByRole('button', { name: 'Send' }).click();
  await expect(hosted.getByRole('heading', { level: 1 })).toHaveText(
    'Thank you, we will write back soon.',
  );
  await expect(hosted).toHaveURL(/\/thank-you\/$/);
  // A bot fills it the moment the page is there: the copy's script says how soon, and it is
  // answered like a person but kept apart.
  await hosted.goto(previewUrl);
  await hosted.getByLabel('Your name').fill('Quick Bot');
  await hosted.getByLabel('Your email').fill('bot@example.org');
  await hosted.getByLabel('Message').fill('Cheap pills');
  await hosted.getByRole('button', { name: 'Send' }).click();
  await expect(hosted).toHaveURL(/\/thank-you\/$/);
  await visitor.close();

  // The owner's mail answers the visitor.
  const mail = await waitForMailWith(owner.email, 'Two rye loaves');
  expect(mail).toMatch(/^Reply-To: ana@example\.net/m);
  expect(mail).toContain('your-message: Two rye loaves for Friday, please.');

  // The owner's Forms section: the form, captured, and the submission in the inbox, not spam.
  await useSession(page, token);
  await page.setViewportSize(LAPTOP);
  await page.goto(`/dashboard/site/${id}?open=forms`);
  const panel = page.getByRole('region', { name: en('site.forms.title'), exact: true });
  const form = panel.getByTestId('site-form');
  await expect(form).toHaveCount(1);
  await expect(form).toContainText(en('site.forms.kinds.contact'));
  await expect(form).toContainText(en('site.forms.state.captured'));
  const submission = panel.getByTestId('submission');
  await expect(submission).toHaveCount(1);
  await expect(submission).toContainText('Two rye loaves for Friday, please.');
  await expect(submission).toContainText('ana@example.net');
  await expect(panel.getByTestId('forms-usage')).toHaveText(
    en('site.forms.usage', { used: '1', limit: '50' }),
  );
  await panel.getByRole('button', { name: en('site.forms.submissions.spam'), exact: true }).click();
  await expect(submission).toHaveCount(1);
  await expect(submission).toContainText('Cheap pills');
  await expect(submission).toContainText(en('site.forms.submissions.why.too-fast'));
  await panel
    .getByRole('button', { name: en('site.forms.submissions.inbox'), exact: true })
    .click();
  await expect(submission).toContainText('Two rye loaves for Friday, please.');

  await expectScreenFits(page, 'site-forms', {
    viewports: [LAPTOP, { width: 390, height: 844 }],
    ready: async () => {
      // A phone opens the page with its sections closed: the address keeps this one open.
      await expect(submission).toBeVisible();
      await expect(submission).toContainText('Two rye loaves for Friday, please.');
    },
  });

  // "Send the contact form to sales@…": a draft, published, then the address is asked.
  const sales = `sales.department.${Date.now()}@example.com`;
  const customized = await request.put(`/api/domains/clone/${id}/customize`, {
    headers,
    data: { customizations: { instructions: `Send the contact form to ${sales}` } },
  });
  expect(customized.ok()).toBe(true);
  let draftId = '';
  await expect
    .poll(
      async () => {
        const versions = (await (
          await request.get(`/api/domains/clone/${id}/versions`, { headers })
        ).json()) as { id: string; draft?: boolean; status: string }[];
        draftId = versions.find((v) => v.draft && v.status === 'completed')?.id ?? '';
        return draftId;
      },
      { timeout: 60_000 },
    )
    .not.toBe('');
  const published = await request.post(`/api/domains/clone/${id}/versions/${draftId}/publish`, {
    headers,
  });
  expect(published.ok()).toBe(true);
  expect(await waitForMailWith(sales, 'Nothing is sent here unless you confirm')).toContain(
    '/api/forms/recipients/confirm?token=',
  );
  await page.setViewportSize(LAPTOP);
  await page.goto(`/dashboard/site/${id}?open=forms`);
  await expect(form).toContainText(en('site.forms.recipient.pending', { email: sales }));
  await expect(
    form.getByRole('button', { name: en('site.forms.recipient.resend'), exact: true }),
  ).toBeVisible();
  await expectScreenFits(page, 'site-forms-recipient', {
    viewports: [LAPTOP, ...PHONES],
    ready: async () => {
      await expect(form).toContainText(en('site.forms.recipient.pending', { email: sales }));
    },
  });
});
