import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { newAccount, registerViaApi, useSession } from './support/accounts';
import { text } from './support/locales';
import { expectScreenFits, LAPTOP } from './support/screen-fit';
import { mirrorViaApi } from './support/site-with-history';

const en = (key: string, vars?: Record<string, string>) => text('en', key, vars);
/** A mirror run of the origin, from the queue to completed, on a busy machine. */
const RUN_TIMEOUT = 90_000;

/** A pricing page whose price and news change between two mirrors (issue 33). */
const origin = {
  url: '',
  price: 'Pro $9',
  news: 'Spring news',
  close: (): Promise<void> => Promise.resolve(),
};

test.beforeAll(async () => {
  const server = http.createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/') return res.writeHead(404).end();
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html lang="en"><head><title>Plans</title></head><body><h1>Plans</h1><div class="plan"><h2>Pro</h2><p id="price">${origin.price} a month, billed yearly</p></div><p class="news">${origin.news} from the team.</p></body></html>`,
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  origin.close = () =>
    new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
});
test.afterAll(async () => {
  await origin.close();
});

test('an owner picks a part of a page to watch, a sync changes it, and the report shows the diff at 1280 and 390 px', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const token = await registerViaApi(request, newAccount('Grace Hopper'));
  const id = await mirrorViaApi(request, token, origin.url);

  await useSession(page, token);
  await page.setViewportSize(LAPTOP);
  await page.goto(`/dashboard/site/${id}?open=versions,watches`);
  const panel = page.getByRole('region', { name: en('site.watches.title'), exact: true });
  await expect(panel.getByText(en('site.watches.empty'))).toBeVisible();

  // The part of the page: its selector, and the words it starts with.
  await panel.getByRole('button', { name: en('site.watches.add') }).click();
  const form = page.getByRole('dialog', { name: en('site.watches.form.addTitle') });
  await form.getByLabel(en('site.watches.form.name')).fill('Pro price');
  await form.getByRole('radio', { name: en('site.watches.scopes.part') }).check();
  await form.getByLabel(en('site.watches.form.page'), { exact: true }).fill('/');
  // Picked by clicking it on the page, shown in a sandboxed frame under the app's own policy.
  const csp: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) csp.push(message.text());
  });
  await form.getByRole('button', { name: en('site.watches.picker.open') }).click();
  const picked = page
    .frameLocator(`iframe[title="${en('site.watches.picker.frameTitle', { path: '/' })}"]`)
    .locator('#price');
  await picked.click();
  await expect(page.getByText(en('site.watches.picker.picked'))).toBeVisible();
  await page.getByRole('button', { name: en('site.watches.picker.confirm') }).click();
  await expect(form.getByLabel(en('site.watches.form.selector'))).toHaveValue('#price');
  await expect(form.getByLabel(en('site.watches.form.textFallback'))).toHaveValue(
    /^Pro \$9 a month/,
  );
  expect(csp).toEqual([]);
  await form.getByRole('button', { name: en('site.watches.form.save') }).click();
  await expect(form).toBeHidden();
  await expect(panel.getByRole('heading', { name: 'Pro price' })).toBeVisible();
  await expect(panel).toContainText(en('site.watches.neverTold'));

  // The origin changes inside the part and outside it; the owner mirrors it again.
  origin.price = 'Pro $12';
  origin.news = 'Summer news';
  await page.getByRole('button', { name: en('site.run.remirror') }).click();
  const rows = page.getByTestId('version-row');
  await expect(rows).toHaveCount(2, { timeout: RUN_TIMEOUT });
  const report = page.getByRole('link', {
    name: en('site.versions.changes.reportLabel', { number: '2' }),
  });
  await expect(report).toBeVisible({ timeout: RUN_TIMEOUT });
  // The watch was met by the new version.
  await page.reload();
  await expect(panel).not.toContainText(en('site.watches.neverTold'));

  await report.click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/site/${id}/changes/[^/]+$`));
  await expect(page.getByRole('heading', { name: en('site.changes.title') })).toBeVisible();
  await expect(
    page.getByText(en('site.changes.compared', { number: '2', base: '1' })),
  ).toBeVisible();
  const removed = page.locator('del', { hasText: '$9' });
  const added = page.locator('ins', { hasText: '$12' });
  await expect(removed).toBeVisible();
  await expect(added).toBeVisible();
  await expect(page.locator('del', { hasText: 'Spring' })).toBeVisible();

  // How the page looks before and after: rendered in Chromium once the version is live, then
  // shown under its text diff (the report screen asks again until it is done).
  const looks = page.getByRole('region', { name: en('site.changes.visual.title') });
  const newLook = (viewport: 'desktop' | 'mobile') =>
    looks.getByRole('img', {
      name: en('site.changes.visual.afterAlt', {
        path: '/',
        viewport: en(`fidelity.viewports.${viewport}`),
      }),
    });
  await expect(newLook('desktop')).toBeVisible({ timeout: RUN_TIMEOUT });
  await expect(looks.getByRole('slider')).toBeVisible();

  // At a laptop's width and a phone's, the diff and the viewer (at the page's desktop and phone
  // widths) are on screen, their pictures loaded, and nothing scrolls sideways.
  await expectScreenFits(page, 'change-report', {
    viewports: [LAPTOP, { width: 390, height: 844 }],
    ready: async (_page, viewport) => {
      await expect(added).toBeVisible();
      await expect(removed).toBeVisible();
      const width = viewport.width < 600 ? 'mobile' : 'desktop';
      await looks.getByRole('button', { name: en(`fidelity.viewports.${width}`) }).click();
      await expect(newLook(width)).toBeVisible();
      await expect
        .poll(() => newLook(width).evaluate((img) => (img as HTMLImageElement).naturalWidth))
        .toBe(320);
      await expect(
        looks.getByRole('button', { name: en('site.changes.visual.modes.before') }),
      ).toBeVisible();
    },
  });
});
