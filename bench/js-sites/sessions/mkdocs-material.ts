import type { FixtureSpec } from '../../../packages/engine/test/js-fidelity.js';

// Material for MkDocs with instant navigation (links fetched and swapped in; it reads sitemap.xml to
// know which addresses are the site's), tabs, its search (a web worker over search_index.json)
// and the light/dark palette toggle.
const spec: FixtureSpec = {
  start: '/',
  // The search worker indexes the site after load; its status line changes when it is done.
  ready: (page) =>
    page.waitForFunction(
      () =>
        !document.querySelector('.md-search-result__meta')?.textContent?.includes('Initializing'),
      undefined,
      { timeout: 10_000 },
    ),
  pages: ['/Reference/Routes/', '/Guides/Getting-Started/', '/does-not-exist/'],
  session: [
    {
      name: 'tab Reference (instant navigation)',
      run: (page) => page.locator('.md-tabs__link', { hasText: 'Reference' }).click(),
    },
    {
      name: 'sidebar: Hooks',
      run: (page) =>
        page
          .locator('.md-sidebar--primary')
          .getByRole('link', { name: 'Hooks', exact: true })
          .click(),
    },
    {
      name: 'table of contents: a section (hash)',
      run: (page) => page.locator('.md-sidebar--secondary .md-nav__link').nth(2).click(),
    },
    {
      name: 'search "decorate"',
      run: async (page) => {
        await page.locator('.md-search__input').click();
        await page.keyboard.type('decorate', { delay: 30 });
        await page.locator('.md-search-result__item').first().waitFor();
      },
    },
    {
      name: 'open the first result',
      run: (page) => page.locator('.md-search-result__item a').first().click(),
    },
    {
      name: 'dark mode',
      run: (page) => page.locator('label[title="Switch to dark mode"]:visible').click(),
    },
    { name: 'back', run: async (page) => void (await page.goBack()) },
    { name: 'reload (palette kept)', run: async (page) => void (await page.reload()) },
  ],
};

export default spec;
