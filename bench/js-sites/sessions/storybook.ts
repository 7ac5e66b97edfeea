import type { FixtureSpec } from '../../../packages/engine/test/js-fidelity.js';

// storybook init's example stories: the manager app (index.json, the sidebar tree, search) with
// each story rendered in iframe.html.
const spec: FixtureSpec = {
  start: '/',
  pages: ['/iframe.html?id=example-button--primary&viewMode=story'],
  session: [
    {
      name: 'open Button',
      run: (page) =>
        page
          .locator('#storybook-explorer-tree')
          .getByRole('button', { name: 'Button', exact: true })
          .click(),
    },
    {
      name: 'story: Button Secondary',
      run: (page) =>
        page
          .locator('#storybook-explorer-tree')
          .getByRole('link', { name: 'Secondary' })
          .first()
          .click(),
    },
    {
      name: 'open Header',
      run: (page) =>
        page
          .locator('#storybook-explorer-tree')
          .getByRole('button', { name: 'Header', exact: true })
          .click(),
    },
    {
      name: 'story: Header Logged In',
      run: (page) =>
        page
          .locator('#storybook-explorer-tree')
          .getByRole('link', { name: 'Logged In' })
          .first()
          .click(),
    },
    { name: 'reload', run: async (page) => void (await page.reload()) },
  ],
};

export default spec;
