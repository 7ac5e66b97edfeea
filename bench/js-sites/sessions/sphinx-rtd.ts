import type { FixtureSpec } from '../../../packages/engine/test/js-fidelity.js';

// Sphinx's own documentation in the Read the Docs theme: full page loads through the sidebar,
// its expandable tree, and Sphinx's client-side search (searchtools.js over searchindex.js).
const spec: FixtureSpec = {
  start: '/',
  pages: ['/usage/quickstart.html', '/usage/extensions/index.html', '/search.html?q=directive'],
  ready: (page) =>
    page.waitForFunction(
      () =>
        !document.querySelector('#search-results') ||
        !!document.querySelector('#search-results p.search-summary'),
      undefined,
      { timeout: 15_000 },
    ),
  session: [
    {
      name: 'sidebar: Using Sphinx',
      run: (page) =>
        page.locator('.wy-menu').getByRole('link', { name: 'Using Sphinx', exact: true }).click(),
    },
    {
      name: 'sidebar: Extensions',
      run: (page) =>
        page
          .locator('.wy-menu')
          .getByRole('link', { name: 'Extensions', exact: true })
          .first()
          .click(),
    },
    {
      name: 'search "autodoc"',
      run: async (page) => {
        await page.getByPlaceholder('Search docs').fill('autodoc');
        await page.getByPlaceholder('Search docs').press('Enter');
        await page.locator('#search-results p.search-summary').waitFor({ timeout: 15_000 });
      },
    },
    {
      name: 'open the first result',
      run: (page) => page.locator('#search-results ul.search li a').first().click(),
    },
    { name: 'back to the results', run: async (page) => void (await page.goBack()) },
  ],
};

export default spec;
