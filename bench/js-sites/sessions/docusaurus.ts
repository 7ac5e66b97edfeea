import type { FixtureSpec } from '../../../packages/engine/test/js-fidelity.js';

// create-docusaurus' classic template: a React SPA after hydration (route chunks), the docs
// sidebar with collapsible categories, the blog, tabs in a Markdown page, dark mode.
const spec: FixtureSpec = {
  start: '/',
  pages: ['/docs/intro', '/blog', '/markdown-page', '/docs/tutorial-extras/manage-docs-versions'],
  session: [
    {
      name: 'hero: Docusaurus Tutorial',
      run: (page) => page.getByRole('link', { name: /Docusaurus Tutorial/ }).click(),
    },
    {
      name: 'sidebar: open Tutorial - Basics',
      run: (page) =>
        page
          .locator('.theme-doc-sidebar-container')
          .getByRole('button', { name: /Tutorial - Basics/ })
          .click(),
    },
    {
      name: 'sidebar: Create a Page',
      run: (page) =>
        page
          .locator('.theme-doc-sidebar-container')
          .getByRole('link', { name: 'Create a Page' })
          .click(),
    },
    { name: 'next page', run: (page) => page.locator('.pagination-nav__link--next').click() },
    {
      name: 'navbar: Blog',
      run: (page) => page.locator('.navbar').getByRole('link', { name: 'Blog' }).click(),
    },
    { name: 'a blog post', run: (page) => page.locator('article h2 a').first().click() },
    {
      name: 'dark mode',
      run: (page) => page.locator('.navbar button[title*="mode"]').first().click(),
    },
    { name: 'back', run: async (page) => void (await page.goBack()) },
    { name: 'reload a client route', run: async (page) => void (await page.reload()) },
  ],
};

export default spec;
