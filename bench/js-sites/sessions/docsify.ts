import type { FixtureSpec } from '../../../packages/engine/test/js-fidelity.js';

// docsify renders README.md in the browser (fetched by its script, hash routes).
const spec: FixtureSpec = {
  start: '/',
  session: [
    { name: 'heading anchor', run: (page) => page.locator('#main h1 a').first().click() },
    { name: 'reload', run: async (page) => void (await page.reload()) },
  ],
};

export default spec;
