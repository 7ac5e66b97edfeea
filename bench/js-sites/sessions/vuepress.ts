import type { FixtureSpec } from '../../../packages/engine/test/js-fidelity.js';

// create-vuepress' blog template: a Vue SPA after hydration, the blog plugin's article list,
// categories, tags and timeline pages, the dark-mode switch.
const spec: FixtureSpec = {
  start: '/',
  pages: ['/article/', '/get-started.html', '/timeline/'],
  session: [
    {
      name: 'navbar: Article',
      run: (page) => page.locator('.vp-navbar').getByRole('link', { name: 'Article' }).click(),
    },
    {
      name: 'an article',
      run: (page) => page.locator('.article-wrapper .title, .article-wrapper a').first().click(),
    },
    {
      name: 'navbar: Category',
      run: (page) => page.locator('.vp-navbar').getByRole('link', { name: 'Category' }).click(),
    },
    {
      name: 'navbar: Tag',
      run: (page) => page.locator('.vp-navbar').getByRole('link', { name: 'Tag' }).click(),
    },
    {
      name: 'navbar: Timeline',
      run: (page) => page.locator('.vp-navbar').getByRole('link', { name: 'Timeline' }).click(),
    },
    { name: 'dark mode', run: (page) => page.locator('.vp-toggle-color-mode-button').click() },
    { name: 'back', run: async (page) => void (await page.goBack()) },
    { name: 'reload a client route', run: async (page) => void (await page.reload()) },
  ],
};

export default spec;
