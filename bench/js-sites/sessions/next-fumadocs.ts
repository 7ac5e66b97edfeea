import type { FixtureSpec } from '../../../packages/engine/test/js-fidelity.js';

// create-fumadocs-app's Next.js static-export template: App Router client navigation with RSC
// payloads (index.txt?_rsc=…), the search dialog (Orama over a static /api/search index), theme.
const spec: FixtureSpec = {
  start: '/',
  pages: ['/docs', '/docs/test'],
  session: [
    {
      name: 'open the docs',
      run: (page) => page.getByRole('link', { name: /docs/i }).first().click(),
    },
    {
      name: 'sidebar: Components',
      run: (page) => page.getByRole('link', { name: 'Components', exact: true }).first().click(),
    },
    {
      name: 'sidebar: Hello World',
      run: (page) => page.getByRole('link', { name: 'Hello World', exact: true }).first().click(),
    },
    {
      name: 'search "components"',
      run: async (page) => {
        await page.locator('button:visible').filter({ hasText: 'Search' }).first().click();
        await page
          .getByRole('dialog')
          .locator('input')
          .pressSequentially('components', { delay: 30 });
      },
    },
    {
      name: 'open the first result (Enter)',
      run: (page) => page.getByRole('dialog').locator('input').press('Enter'),
    },
    {
      name: 'theme',
      run: (page) => page.getByRole('button', { name: 'Toggle Theme' }).first().click(),
    },
    { name: 'back', run: async (page) => void (await page.goBack()) },
    { name: 'reload', run: async (page) => void (await page.reload()) },
  ],
};

export default spec;
