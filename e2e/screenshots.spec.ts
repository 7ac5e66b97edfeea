import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { newAccount, registerViaApi, useSession } from './support/accounts';

// Screenshots for a reviewer to look at (git-ignored); the test only checks they were written.
const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');
const viewports = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

for (const route of [
  { name: 'en', path: '/' },
  { name: 'ar', path: '/ar' },
]) {
  for (const viewport of viewports) {
    test(`landing ${route.name} at ${viewport.width}x${viewport.height}`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(route.path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.evaluate(() => document.fonts.ready);
      const base = path.join(dir, `landing-${route.name}-${viewport.width}x${viewport.height}`);
      const shot = await page.screenshot({ path: `${base}.png` });
      await page.screenshot({ path: `${base}-full.png`, fullPage: true });
      expect(shot.byteLength).toBeGreaterThan(10_000);
    });
  }
}

for (const route of ['/profile', '/settings']) {
  const name = route.slice(1);
  test(`${name} signed in at 1280x800`, async ({ page, request }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await useSession(page, await registerViaApi(request, newAccount('Ada Lovelace')));
    await page.goto(route);
    await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
    await page.evaluate(() => document.fonts.ready);
    const base = path.join(dir, `${name}-1280x800`);
    const shot = await page.screenshot({ path: `${base}.png` });
    await page.screenshot({ path: `${base}-full.png`, fullPage: true });
    expect(shot.byteLength).toBeGreaterThan(10_000);
  });
}
