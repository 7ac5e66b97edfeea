import type { FixtureSpec } from '../../../packages/engine/test/js-fidelity.js';

// `vitepress init`'s site with local search: client routing with page chunks (hashmap.json), the
// search dialog (its index chunk is imported when it opens), the appearance switch.
const spec: FixtureSpec = {
  start: '/',
  pages: ['/markdown-examples.html', '/api-examples.html'],
  session: [
    {
      name: 'hero: Markdown Examples',
      run: (page) =>
        page.locator('.VPHero').getByRole('link', { name: 'Markdown Examples' }).click(),
    },
    {
      name: 'sidebar: Runtime API Examples',
      run: (page) =>
        page.locator('.VPSidebar').getByRole('link', { name: 'Runtime API Examples' }).click(),
    },
    {
      name: 'outline: a section',
      run: (page) => page.locator('.VPDocAsideOutline a').nth(1).click(),
    },
    {
      name: 'search "theme"',
      run: async (page) => {
        await page.locator('.VPNavBarSearch button').click();
        await page.locator('.VPLocalSearchBox input').fill('theme');
        await page.locator('.VPLocalSearchBox .result').first().waitFor();
      },
    },
    {
      name: 'open the first result',
      run: (page) => page.locator('.VPLocalSearchBox .result').first().click(),
    },
    { name: 'dark mode', run: (page) => page.locator('.VPNavBarAppearance button').click() },
    { name: 'back', run: async (page) => void (await page.goBack()) },
    { name: 'reload', run: async (page) => void (await page.reload()) },
  ],
};

export default spec;
