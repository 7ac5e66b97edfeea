import type { FixtureSpec } from '../../../packages/engine/test/js-fidelity.js';

// 41 pages of one template carrying third-party tags: gtag (GA4) and Plausible (their hosts are
// unreachable here, as for a visitor with a blocker), a vanilla-cookieconsent banner, a chat
// loader, a 1×1 pixel and a hashchange scroll-spy. Nothing here needs a render to be copied.
const spec: FixtureSpec = {
  start: '/',
  pages: ['/reference/routes/', '/guides/getting-started/', '/reference/hooks/'],
  session: [
    {
      name: 'accept cookies',
      run: (page) => page.getByRole('button', { name: 'Accept all' }).click(),
    },
    {
      name: 'sidebar: Routes',
      run: (page) =>
        page.locator('.sidebar').getByRole('link', { name: 'Routes', exact: true }).click(),
    },
    {
      name: 'table of contents: a section (hashchange)',
      run: (page) => page.locator('#toc a').nth(3).click(),
    },
    { name: 'reload (consent kept)', run: async (page) => void (await page.reload()) },
    {
      name: 'cookie settings',
      run: (page) => page.getByRole('button', { name: 'Cookie settings' }).click(),
    },
    {
      name: 'reject all',
      run: (page) => page.locator('.pm').getByRole('button', { name: 'Reject all' }).click(),
    },
    {
      name: 'nav: Guides',
      run: (page) => page.locator('.top').getByRole('link', { name: 'Guides' }).click(),
    },
  ],
};

export default spec;
