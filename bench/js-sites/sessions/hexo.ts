import type { FixtureSpec } from '../../../packages/engine/test/js-fidelity.js';

// hexo-starter's hello-world post in the landscape theme (jQuery): the post, its share box and
// the search box the theme opens with a script, the archives.
const spec: FixtureSpec = {
  start: '/',
  pages: ['/archives/'],
  session: [
    { name: 'open the post', run: (page) => page.locator('.article-title').first().click() },
    { name: 'share box', run: (page) => page.locator('.article-share-link').first().click() },
    { name: 'open the search box', run: (page) => page.locator('.nav-search-btn').click() },
    { name: 'type in it', run: (page) => page.locator('.search-form-input').fill('hello') },
    {
      name: 'Archives',
      run: (page) => page.locator('#main-nav').getByRole('link', { name: 'Archives' }).click(),
    },
    {
      name: 'Home',
      run: (page) => page.locator('#main-nav').getByRole('link', { name: 'Home' }).click(),
    },
  ],
};

export default spec;
