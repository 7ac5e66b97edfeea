import AxeBuilder from '@axe-core/playwright';
import {
  expect,
  test as base,
  type APIRequestContext,
  type Locator,
  type Page,
} from '@playwright/test';
import { newAccount, registerViaApi, useSession, type Account } from './support/accounts';
import { startE2eDns, type E2eDns } from './support/dns';
import { startFixtureSite, type StaticSite } from './support/fixture-site';
import { text } from './support/locales';
import { waitForMail } from './support/mail';
import { setPlan } from './support/plans';
import { E2E_PORT } from './support/server';
import { requestAsHost } from './support/tenant-host';
import { mirrorViaApi } from './support/site-with-history';

const en = (key: string, vars?: Record<string, string>) => text('en', key, vars);

/** The customers' domains live in this zone; the spec's DNS stand-in answers for it. */
const ZONE = 'e2e-mirror.test';

// Chromium resolves the customers' domains to the e2e server, as their DNS would in production.
const test = base.extend<object, object>({
  launchOptions: [
    async ({ launchOptions }, use) => {
      await use({
        ...launchOptions,
        args: [...(launchOptions.args ?? []), `--host-resolver-rules=MAP *.${ZONE} 127.0.0.1`],
      });
    },
    { scope: 'worker' },
  ],
});

// One DNS stand-in answers on the port the server asks: the tests of this file share it, in turn.
test.describe.configure({ mode: 'serial' });

let dns: E2eDns;
let fixture: StaticSite;

test.beforeAll(async () => {
  [dns, fixture] = await Promise.all([startE2eDns(), startFixtureSite()]);
});
test.afterAll(async () => {
  await Promise.all([dns?.close(), fixture?.close()]);
});

/** A domain of this run (retries and reruns on the same data never collide). */
function domainName(label: string): string {
  return `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}.${ZONE}`;
}

/**
 * Plays the customer at their DNS provider: creates every record the page lists, copied from its
 * record table (name relative to the zone, value).
 */
async function createListedRecords(scope: Locator) {
  const rows = scope.getByTestId('dns-record');
  await expect(rows.first()).toBeVisible();
  for (const row of await rows.all()) {
    const type = (await row.locator('.dns-type').textContent())!;
    const name = (await row.locator('code').first().textContent())!;
    const value = (await row.locator('code.dns-value').textContent())!;
    const host = name === '@' ? ZONE : `${name}.${ZONE}`;
    if (type === 'CNAME') dns.set(host, { CNAME: value });
    else if (type === 'TXT') dns.set(host, { TXT: [value] });
    else throw new Error(`a subdomain should not need a ${type} record`);
  }
}

async function signedIn(page: Page, request: APIRequestContext, plan?: 'pro') {
  const account: Account = newAccount('Ada Lovelace');
  const token = await registerViaApi(request, account);
  if (plan) setPlan(account.email, plan);
  await useSession(page, token);
  return { account, token };
}

async function expectNoSeriousA11yIssues(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    // Toasts fade in and out: axe measures their contrast mid-animation (a flaky false alarm).
    .exclude('.Toastify')
    .analyze();
  const blocking = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(blocking).toEqual([]);
}

async function checkNowUntilActive(scope: Locator | Page) {
  const dnsBlock = scope.getByTestId('domain-verification');
  await dnsBlock.getByRole('button', { name: en('domains.check.now') }).click();
  await expect(dnsBlock.getByRole('status')).toHaveText(
    `${en('domains.check.label')} ${en('domains.status.active')}`,
  );
}

const TEMPLATES = [
  { template: 'default', shows: 'This domain is parked' },
  { template: 'minimalist', shows: 'Something new is coming soon.' },
  { template: 'contact-form', shows: 'Contact the owner' },
  { template: 'custom', shows: '<h1 id="own">Our own page</h1>' },
] as const;

test.describe('domains', () => {
  test.describe.configure({ timeout: 180_000 });

  test('parks a domain with each template, activates it through DNS and serves its page by host', async ({
    page,
    request,
  }) => {
    // Four parked domains: more than the free plan's three.
    await signedIn(page, request, 'pro');
    for (const { template, shows } of TEMPLATES) {
      const domain = domainName(template);
      await page.goto('/park-domain');
      await page.getByLabel(en('domains.park.domainLabel'), { exact: true }).fill(domain);
      await page
        .getByRole('radio', { name: new RegExp(`^${en(`domains.templates.${template}.name`)}`) })
        .check();
      if (template === 'custom') {
        await page
          .getByLabel(en('domains.park.contentLabel'))
          .fill(`<!doctype html><title>${domain}</title>${shows}`);
      }
      await page.getByRole('button', { name: en('domains.park.submit') }).click();

      const card = page.getByRole('region', { name: en('domains.result.title') });
      await expect(card.getByText(domain, { exact: true })).toBeVisible();
      await expect(card.getByText(en('domains.status.pending'), { exact: true })).toBeVisible();
      await createListedRecords(card);

      // Not served before DNS says the domain is the owner's.
      expect((await requestAsHost(domain)).body).not.toContain(shows);

      await card.getByRole('link', { name: en('domains.result.manage') }).click();
      await expect(page.getByRole('heading', { level: 1, name: domain })).toBeVisible();
      await checkNowUntilActive(page);

      const served = await requestAsHost(domain);
      expect(served.status).toBe(200);
      expect(served.headers['content-type']).toContain('text/html');
      expect(served.body).toContain(shows);
      if (template !== 'custom') expect(served.body).toContain(domain);
    }
  });

  test('a visitor sends the owner a message from the contact form page', async ({
    page,
    request,
  }) => {
    const { account: owner } = await signedIn(page, request);
    const domain = domainName('contact');
    await page.goto('/park-domain');
    await expect(
      page.getByRole('heading', { level: 1, name: en('parkDomain.title') }),
    ).toBeVisible();
    await expectNoSeriousA11yIssues(page);
    await page.getByLabel(en('domains.park.domainLabel'), { exact: true }).fill(domain);
    await page
      .getByRole('radio', { name: new RegExp(`^${en('domains.templates.contact-form.name')}`) })
      .check();
    await page.getByRole('button', { name: en('domains.park.submit') }).click();
    const card = page.getByRole('region', { name: en('domains.result.title') });
    await createListedRecords(card);
    await card.getByRole('link', { name: en('domains.result.manage') }).click();
    await checkNowUntilActive(page);
    await expectNoSeriousA11yIssues(page);
    const domainPage = page.url();

    // The visitor, on the parked domain itself.
    await page.goto(`http://${domain}:${E2E_PORT}/`);
    await expect(page.getByRole('heading', { level: 1, name: domain })).toBeVisible();
    await page.getByLabel('Your name').fill('Grace Hopper');
    await page.getByLabel('Your email').fill('grace@example.org');
    await page.getByLabel('Message', { exact: true }).fill('Is this domain for sale?');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByText('Thank you! Your message was sent to the owner.')).toBeVisible();

    const mail = await waitForMail(owner.email, [domain, 'Is this domain for sale?']);
    expect(mail).toContain('grace@example.org');

    // The owner finds it on the domain's page too.
    await page.goto(domainPage);
    const messages = page.getByRole('region', { name: en('domains.messages.title') });
    await expect(messages.getByTestId('parked-message')).toHaveCount(1);
    await expect(messages.getByText('Is this domain for sale?')).toBeVisible();
  });

  test('attaches a custom domain to a site, activates it through DNS and serves the site on it', async ({
    page,
    request,
  }) => {
    const { token } = await signedIn(page, request, 'pro');
    const siteId = await mirrorViaApi(request, token, fixture.origin);

    const domain = domainName('shop');
    await page.goto(`/dashboard/site/${siteId}`);
    const panel = page.getByRole('region', { name: en('site.domains.title') });
    await panel.getByLabel(en('site.domains.label')).fill(domain);
    await panel.getByRole('button', { name: en('site.domains.attach') }).click();
    const item = panel.getByTestId('site-domain');
    await expect(item.getByRole('link', { name: domain })).toBeVisible();
    await expect(item.getByRole('status')).toHaveText(
      `${en('domains.check.label')} ${en('domains.status.pending')}`,
    );
    await createListedRecords(item);
    await checkNowUntilActive(item);
    await expect(item.getByTestId('dns-record').first()).toHaveAttribute('data-status', 'ok');

    // The site's live version, on the custom domain: by Host header, and in the browser.
    const served = await requestAsHost(domain);
    expect(served.status).toBe(200);
    expect(served.body).toContain('Mirror fixture');
    await page.goto(`http://${domain}:${E2E_PORT}/`);
    await expect(page.getByRole('heading', { level: 1, name: 'Mirror fixture' })).toBeVisible();

    // An unknown host gets no site.
    const unknown = await requestAsHost(domainName('nobody'));
    expect(unknown.body).not.toContain('Mirror fixture');
  });
});
