import { expect, test } from '@playwright/test';
import { LOCALES, text } from './support/locales';

test.describe('landing page', () => {
  for (const locale of LOCALES) {
    test(`renders in ${locale.name} at ${locale.homePath}`, async ({ page }) => {
      await page.goto(locale.homePath);
      await expect(page.locator('html')).toHaveAttribute('lang', locale.code);
      await expect(page.locator('html')).toHaveAttribute('dir', locale.dir);
      await expect(page).toHaveTitle(text(locale.code, 'meta.home.title'));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        text(locale.code, 'hero.title'),
      );
      await expect(page.locator('meta[name="description"]')).toHaveAttribute(
        'content',
        text(locale.code, 'meta.home.description'),
      );
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        'href',
        new RegExp(`${locale.homePath}$`),
      );
      await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
        'content',
        new RegExp(`/og/${locale.code}\\.png$`),
      );
      for (const id of ['features', 'how-it-works', 'pricing'])
        await expect(page.locator(`#${id}`)).toBeVisible();
    });
  }

  test('Arabic mirrors the layout right-to-left', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const logo = page.getByRole('banner').getByRole('link').first();
    await page.goto('/');
    const ltr = await logo.boundingBox();
    // The logo starts the line: on the left in English, on the right in Arabic.
    expect(ltr!.x + ltr!.width).toBeLessThan(640);
    await page.goto('/ar');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    const rtl = await logo.boundingBox();
    expect(rtl!.x).toBeGreaterThan(640);
    const hero = await page
      .getByRole('heading', { level: 1 })
      .evaluate((h) => getComputedStyle(h).direction);
    expect(hero).toBe('rtl');
  });

  test('the home address follows the saved language, and switching back to English stays on /', async ({
    page,
  }) => {
    await page.goto('/ru');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
    await page.goto('/?login=true');
    await expect(page).toHaveURL(/\/ru\?login=true$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
    // The sign-in dialog the address asks for opens once its code has loaded: closed before the
    // menu is used (an Escape pressed earlier closes nothing, and its backdrop takes the click).
    const login = page.getByRole('dialog');
    await expect(login).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(login).toBeHidden();
    await page
      .getByRole('button', { name: text('ru', 'nav.languageMenu', { language: 'Русский' }) })
      .click();
    await page.getByRole('menuitemradio', { name: 'English' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await page.reload();
    await expect(page).toHaveURL(/\/$/);
    await expect(page).toHaveTitle(text('en', 'meta.home.title'));
  });

  test('switching language changes the path, the title and the document language', async ({
    page,
  }) => {
    await page.goto('/');
    await page
      .getByRole('button', { name: text('en', 'nav.languageMenu', { language: 'English' }) })
      .click();
    await page.getByRole('menuitemradio', { name: 'Español' }).click();
    await expect(page).toHaveURL(/\/es$/);
    await expect(page).toHaveTitle(text('es', 'meta.home.title'));
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    // The choice is remembered on routes without a language of their own.
    await page.goto('/about');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page).toHaveTitle(text('es', 'meta.about.title'));
  });

  test('the hero URL field adds https:// after a pause in typing', async ({ page }) => {
    await page.goto('/');
    const url = page.locator('#hero-url');
    await url.pressSequentially('example.com/blog/');
    await expect(url).toHaveValue('https://example.com/blog/');
  });

  test('the FAQ keeps one answer open at a time', async ({ page }) => {
    await page.goto('/');
    const questions = page.locator('#faq button[aria-expanded]');
    await expect(questions).toHaveCount(5);
    await questions.nth(0).click();
    await expect(questions.nth(0)).toHaveAttribute('aria-expanded', 'true');
    await questions.nth(2).click();
    await expect(questions.nth(2)).toHaveAttribute('aria-expanded', 'true');
    await expect(questions.nth(0)).toHaveAttribute('aria-expanded', 'false');
  });
});

test.describe('routing', () => {
  for (const route of ['/dashboard', '/dashboard/site/abc', '/billing', '/profile', '/settings']) {
    test(`${route} while logged out lands on /?login=true with the login dialog`, async ({
      page,
    }) => {
      await page.goto(route);
      await expect(page).toHaveURL(/\/\?login=true$/);
      await expect(
        page.getByRole('dialog', { name: text('en', 'auth.login.title') }),
      ).toBeVisible();
    });
  }

  for (const route of ['/no/such/page', '/404']) {
    test(`${route} shows the not-found screen`, async ({ page }) => {
      await page.goto(route);
      await expect(page.getByRole('heading', { name: text('en', 'notFound.title') })).toBeVisible();
    });
  }

  for (const name of ['contact', 'about', 'blog', 'roadmap', 'terms', 'privacy', 'cookies']) {
    test(`/${name} has real content`, async ({ page }) => {
      await page.goto(`/${name}`);
      await expect(page).toHaveTitle(text('en', `meta.${name}.title`));
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const words = (await page.getByRole('main').innerText()).split(/\s+/).length;
      expect(words).toBeGreaterThan(40);
    });
  }
});
