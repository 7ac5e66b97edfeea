import { expect, test, type Page } from '@playwright/test';
import { STORAGE_KEYS } from '@mirror/contract';
import { newAccount, registerViaApi, useSession } from './support/accounts';
import { startFixtureSite, type StaticSite } from './support/fixture-site';
import { text } from './support/locales';
import { E2E_PORT } from './support/server';
import { mirrorViaApi } from './support/site-with-history';

const en = (key: string, vars?: Record<string, string>) => text('en', key, vars);

/** SPEC §4 progress messages, in the order a run may show them. */
const PROGRESS_ORDER = [
  'validating URL',
  'starting mirror process',
  'cloning website',
  'processing website',
  'finalizing mirror',
];
const PREVIEW_URL = new RegExp(`^http://[a-z0-9-]+\\.localhost:${E2E_PORT}/$`);
/** A mirror run of the fixture, from the queue to completed, on a busy machine. */
const RUN_TIMEOUT = 90_000;

let fixture: StaticSite;

test.beforeAll(async () => {
  fixture = await startFixtureSite();
});
test.afterAll(async () => {
  await fixture.close();
});

/** Records every text the hero's mirror message shows, to check their order afterwards. */
async function recordMirrorMessages(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { mirrorMessages: string[] }).mirrorMessages = seen;
    const note = () => {
      const text = document.querySelector('[data-testid="mirror-message"]')?.textContent ?? '';
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    };
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
  return () =>
    page.evaluate(() => (window as unknown as { mirrorMessages: string[] }).mirrorMessages);
}

test.describe('mirroring', () => {
  test.describe.configure({ timeout: 180_000 });

  test('a guest mirrors a site, previews it, registers and finds it on the dashboard', async ({
    page,
  }) => {
    await page.goto('/');
    const messages = await recordMirrorMessages(page);
    await page.getByLabel(en('hero.url.label')).fill(fixture.origin);
    await page.getByRole('button', { name: en('hero.url.submitGuest') }).click();

    // The demo is kept at once (a sign-up meanwhile claims it); "saved" is said once it is done.
    const readDemoIds = () =>
      page.evaluate(
        (key) => JSON.parse(localStorage.getItem(key) ?? '[]') as string[],
        STORAGE_KEYS.demoSites,
      );
    await expect.poll(readDemoIds).toHaveLength(1);
    const demoIds = await readDemoIds();

    const panel = page.getByRole('region', { name: en('hero.panel.title') });
    await expect(panel).toBeVisible();
    const message = page.getByTestId('mirror-message');
    await expect(message).toHaveText(
      new RegExp(`^Completed: http://[a-z0-9-]+\\.localhost:${E2E_PORT}/$`),
      {
        timeout: RUN_TIMEOUT,
      },
    );
    const progress = panel.getByRole('progressbar', { name: en('mirror.progressLabel') });
    await expect(progress).toHaveAttribute('aria-valuenow', '100');
    await expect(panel.getByText(en('mirror.status.completed'), { exact: true })).toBeVisible();
    await expect(page.getByText(en('mirror.messages.demoSaved'))).toBeVisible();

    // Every message came in the SPEC order and the run ended with the preview address.
    const seen = await messages();
    const progressSeen = seen.filter((m) => PROGRESS_ORDER.includes(m));
    expect(progressSeen.length).toBeGreaterThan(0);
    const positions = progressSeen.map((m) => PROGRESS_ORDER.indexOf(m));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(seen.at(-1)).toMatch(/^Completed: /);

    const previewUrl = (await panel.getByRole('link', { name: PREVIEW_URL }).textContent())!;
    await panel.getByRole('button', { name: en('hero.panel.livePreview') }).click();
    const frame = page.frameLocator(`iframe[src="${previewUrl}"]`);
    await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Mirror fixture');
    await expect(page.locator('iframe')).toHaveAttribute(
      'sandbox',
      'allow-scripts allow-same-origin allow-forms allow-popups',
    );
    await panel.getByRole('button', { name: en('hero.panel.closePreview') }).click();
    await expect(page.locator('iframe')).toHaveCount(0);

    // Register from the panel: the demo is claimed and the new account lands on its page.
    await panel.getByRole('button', { name: en('hero.panel.registerToCustomize') }).click();
    const ada = newAccount('Ada Lovelace');
    const dialog = page.getByRole('dialog', { name: en('auth.register.title') });
    await dialog.getByLabel(en('auth.fields.name')).fill(ada.name);
    await dialog.getByLabel(en('auth.fields.email')).fill(ada.email);
    await dialog.getByLabel(en('auth.fields.password'), { exact: true }).fill(ada.password);
    await dialog.getByLabel(en('auth.fields.confirmPassword')).fill(ada.password);
    await dialog.getByRole('button', { name: en('auth.register.submit') }).click();
    await expect(page.getByText(en('toasts.registerSuccess'))).toBeVisible();
    await expect
      .poll(() => page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.demoSites))
      .toBeNull();
    await expect(page).toHaveURL(new RegExp(`/dashboard/site/${demoIds[0]}$`));

    await page
      .getByRole('banner')
      .getByRole('link', { name: en('nav.dashboard') })
      .click();
    await expect(page).toHaveURL(/\/dashboard$/);
    // The site is named by its home page's title, with its host beneath.
    const host = new URL(fixture.origin).host;
    const name = 'Fixture home';
    const row = page.getByTestId('site-row').filter({ hasText: host });
    await expect(row).toHaveCount(1);
    await expect(row.locator('.site-row-name')).toHaveText(name);
    await expect(row.locator('.site-row-host')).toHaveText(host);
    await expect(row.getByText(en('mirror.status.completed'), { exact: true })).toBeVisible();
    await expect(page.getByTestId('stat-sites')).toContainText('1');
    await expect(page.getByTestId('plan-usage')).toHaveText('Usage: 1 / 1');
    await expect(
      page.getByRole('link', { name: `${en('dashboard.sites.preview')} ${name}` }),
    ).toHaveAttribute('href', previewUrl);
    await row.getByRole('link', { name: `${en('dashboard.sites.manage')} ${name}` }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/site/${demoIds[0]}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
    await expect(page.locator('.site-page-host')).toHaveText(host);
    await expect(page).toHaveTitle(`Site ${name} | Mirror`);

    // The copy was checked against the original after it went live: the score, then the viewer.
    const fidelity = page.getByRole('button', {
      name: /^Fidelity \d+(\.\d)?% · \d+ pages? checked$/,
    });
    await expect(fidelity).toBeVisible({ timeout: 120_000 });
    await fidelity.click();
    const report = page.getByRole('region', { name: en('fidelity.title'), exact: true });
    await expect(report.getByRole('img', { name: /^The copy: \// }).first()).toBeVisible();
    await expect(
      report.getByRole('img', { name: /^The original website: \// }).first(),
    ).toBeVisible();
  });

  test('a mirror that cannot be made says why once, in plain words, with the detail on request', async ({
    page,
  }) => {
    // https:// to a server that speaks plain HTTP: OpenSSL answers "wrong version number".
    const secure = fixture.origin.replace('http://', 'https://');
    await page.goto('/');
    await page.getByLabel(en('hero.url.label')).fill(secure);
    await page.getByRole('button', { name: en('hero.url.submitGuest') }).click();

    const panel = page.getByRole('region', { name: en('hero.panel.title') });
    const plain = en('mirror.failure.kinds.tls');
    await expect(panel.getByText(plain)).toBeVisible({ timeout: RUN_TIMEOUT });
    await expect(page.getByText(plain)).toHaveCount(1);
    await expect(page.getByTestId('mirror-message')).toHaveText(en('mirror.progress.failed'));
    await expect(page.getByText(/SSL routines/)).toHaveCount(0);
    await panel.getByRole('button', { name: en('mirror.failure.details') }).click();
    await expect(panel.getByText(/SSL routines/)).toBeVisible();
    // One toast, capitalized.
    await expect(
      page.locator('.Toastify__toast', { hasText: en('toasts.mirrorFailed') }),
    ).toHaveCount(1);
  });

  test('a signed-in user re-mirrors on the site page and rolls back to the first version', async ({
    page,
    request,
  }) => {
    const token = await registerViaApi(request, newAccount('Grace Hopper'));
    const id = await mirrorViaApi(request, token, fixture.origin);
    await useSession(page, token);
    await page.goto(`/dashboard/site/${id}`);

    const rows = page.getByTestId('version-row');
    const liveRow = rows.filter({ has: page.getByText(en('site.versions.live'), { exact: true }) });
    await expect(rows).toHaveCount(1);
    await expect(liveRow).toContainText(en('site.versions.version', { number: '1' }));
    const frame = page.frameLocator('iframe[title^="Live preview of"]');
    await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Mirror fixture');

    const remirror = page.getByRole('button', { name: en('site.run.remirror') });
    await remirror.click();
    await expect(page.getByText(en('site.run.started'))).toBeVisible();
    await expect(rows).toHaveCount(2, { timeout: RUN_TIMEOUT });
    await expect(liveRow).toContainText(en('site.versions.version', { number: '2' }), {
      timeout: RUN_TIMEOUT,
    });
    await expect(remirror).toBeEnabled();
    await expect(page.getByText(en('mirror.progress.completed')).first()).toBeVisible();
    // The fixture did not change between the runs, and the new version says so (issue 33).
    await expect(liveRow).toContainText(en('site.versions.changes.noChanges'));
    await expect(rows.last().locator('.version-changes')).toHaveCount(0);

    await page
      .getByRole('button', { name: en('site.versions.publishLabel', { number: '1' }) })
      .click();
    await expect(page.getByText(en('site.versions.published', { number: '1' }))).toBeVisible();
    await expect(liveRow).toHaveCount(1);
    await expect(liveRow).toContainText(en('site.versions.version', { number: '1' }));
    await expect(
      page.getByRole('button', { name: en('site.versions.publishLabel', { number: '2' }) }),
    ).toBeVisible();
    await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Mirror fixture');
  });
});
