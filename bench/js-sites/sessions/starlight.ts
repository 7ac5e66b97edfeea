import type { FixtureSpec } from '../../../packages/engine/test/js-fidelity.js';

// Astro + Starlight over fastify's docs: the sidebar, "On this page", Pagefind search (its
// bundle and index fragments load when the dialog opens), the theme select.
const spec: FixtureSpec = {
  start: '/',
  pages: ['/reference/routes/', '/guides/getting-started/'],
  session: [
    {
      name: 'sidebar: Hooks',
      run: (page) =>
        page
          .locator('#starlight__sidebar')
          .getByRole('link', { name: 'Hooks', exact: true })
          .click(),
    },
    {
      name: 'on this page: a section',
      run: (page) => page.locator('starlight-toc a').nth(2).click(),
    },
    {
      name: 'search "decorators"',
      run: async (page) => {
        await page.locator('site-search button[data-open-modal]').click();
        await page.locator('#starlight__search input').fill('decorators');
        await page.locator('.pagefind-ui__result-link').first().waitFor({ timeout: 10_000 });
      },
    },
    {
      name: 'open the first result',
      run: (page) => page.locator('.pagefind-ui__result-link').first().click(),
    },
    {
      name: 'theme: dark',
      run: (page) => page.locator('starlight-theme-select select').first().selectOption('dark'),
    },
    { name: 'back', run: async (page) => void (await page.goBack()) },
  ],
};

export default spec;
