import type { FixtureSpec } from '../../../packages/engine/test/js-fidelity.js';

// sv create's demo app, prerendered with adapter-static: hydration, the counter, client routing.
const spec: FixtureSpec = {
  start: '/',
  pages: ['/about', '/sverdle/how-to-play'],
  session: [
    { name: 'counter +1', run: (page) => page.getByRole('button', { name: /Increase/ }).click() },
    {
      name: 'counter +1 again',
      run: (page) => page.getByRole('button', { name: /Increase/ }).click(),
    },
    { name: 'counter -1', run: (page) => page.getByRole('button', { name: /Decrease/ }).click() },
    {
      name: 'nav: About',
      run: (page) => page.locator('header nav').getByRole('link', { name: 'About' }).click(),
    },
    {
      name: 'nav: Home',
      run: (page) => page.locator('header nav').getByRole('link', { name: 'Home' }).click(),
    },
    { name: 'back', run: async (page) => void (await page.goBack()) },
    { name: 'reload', run: async (page) => void (await page.reload()) },
  ],
};

export default spec;
