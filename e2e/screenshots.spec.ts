import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';

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
