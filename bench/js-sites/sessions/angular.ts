import type { FixtureSpec } from '../../../packages/engine/test/js-fidelity.js';

// ng new's welcome page, prerendered and hydrated.
const spec: FixtureSpec = {
  start: '/',
  session: [{ name: 'reload', run: async (page) => void (await page.reload()) }],
};

export default spec;
