import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { newAccount, registerViaApi, useSession } from './support/accounts';
import { startFixtureSite, type StaticSite } from './support/fixture-site';
import { text } from './support/locales';
import { mirrorViaApi } from './support/site-with-history';

// Web archives (issue 35, docs/archives.md): the owner downloads a version as WACZ from the site
// page, and another account hosts that WACZ as a copy of its own on "Host an archive".
const en = (key: string, vars?: Record<string, string>) => text('en', key, vars);
const RUN_TIMEOUT = 90_000;

let fixture: StaticSite;
test.beforeAll(async () => {
  fixture = await startFixtureSite();
});
test.afterAll(async () => {
  await fixture.close();
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`downloads a WACZ and hosts it as a copy at ${viewport.width} px`, async ({
    page,
    request,
  }, testInfo) => {
    test.setTimeout(240_000);
    await page.setViewportSize(viewport);
    const owner = newAccount('Ada Lovelace');
    const ownerToken = await registerViaApi(request, owner);
    const siteId = await mirrorViaApi(request, ownerToken, fixture.origin);

    // The owner downloads the live version as WACZ from the versions list.
    await useSession(page, ownerToken);
    await page.goto(`/dashboard/site/${siteId}?open=versions`);
    const download = page.waitForEvent('download');
    await page
      .getByRole('button', {
        name: en('site.versions.downloadLabel', { number: '1', format: 'WACZ' }),
      })
      .click();
    const file = testInfo.outputPath('site.wacz');
    await (await download).saveAs(file);
    expect(fs.readFileSync(file).subarray(0, 2).toString()).toBe('PK');

    // Another account hosts it on "Host an archive", and sees the hosted copy.
    const other = newAccount('Grace Hopper');
    const otherToken = await registerViaApi(request, other);
    await useSession(page, otherToken);
    await page.goto('/');
    await page.getByRole('tab', { name: en('hero.modeArchive') }).click();
    await page.getByLabel(en('hero.archive.label')).setInputFiles(file);
    await page.getByRole('button', { name: en('hero.archive.submit') }).click();
    await expect(page).toHaveURL(/\/dashboard\/site\/[\w-]+$/, { timeout: 60_000 });
    const newId = new URL(page.url()).pathname.split('/').pop()!;
    // The site page follows the import run; its versions say where the copy came from.
    await page.goto(`/dashboard/site/${newId}?open=versions`);
    const imported = page.getByTestId('imported-from').first();
    await expect(imported).toContainText('Imported from site.wacz (WACZ', { timeout: RUN_TIMEOUT });
    const record = (await (
      await request.get(`/api/domains/clone/${newId}`, {
        headers: { Authorization: `Bearer ${otherToken}` },
      })
    ).json()) as { previewUrl: string; status: string };
    expect(record.status).toBe('completed');
    await page.goto(record.previewUrl);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mirror fixture');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });
}

test('"Host an archive" says what is wrong with a file that is no archive', async ({
  page,
  request,
}, testInfo) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const token = await registerViaApi(request, newAccount('Alan Turing'));
  await useSession(page, token);
  await page.goto('/');
  await page.getByRole('tab', { name: en('hero.modeArchive') }).click();
  const file = testInfo.outputPath('random.warc');
  fs.writeFileSync(file, Buffer.from('this is not a web archive at all\n'.repeat(100)));
  await page.getByLabel(en('hero.archive.label')).setInputFiles(file);
  await page.getByRole('button', { name: en('hero.archive.submit') }).click();
  await expect(page.getByRole('alert')).toBeVisible({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/$/);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});
