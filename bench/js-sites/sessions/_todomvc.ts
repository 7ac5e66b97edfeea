import type { Page } from 'playwright-core';
import type { FixtureSpec } from '../../../packages/engine/test/js-fidelity.js';

// The same visit of every TodoMVC app (todomvc.com's spec: #new-todo, .toggle, the filters as hash
// routes, "Clear completed", localStorage). Ticks click the checkbox of the row that has the text.

const input = '#new-todo, .new-todo';
const add = async (page: Page, title: string) => {
  await page.locator(input).fill(title);
  await page.locator(input).press('Enter');
};
const toggle = (page: Page, title: string) =>
  page
    .locator('#todo-list li, .todo-list li')
    .filter({ hasText: title })
    .locator('input.toggle')
    .click();

export function todoSession(): FixtureSpec {
  return {
    session: [
      { name: 'add "Buy milk"', run: (page) => add(page, 'Buy milk') },
      { name: 'add "Fix the bike light"', run: (page) => add(page, 'Fix the bike light') },
      { name: 'add "Call Gran"', run: (page) => add(page, 'Call Gran') },
      { name: 'tick "Buy milk"', run: (page) => toggle(page, 'Buy milk') },
      { name: 'filter Active', run: (page) => page.getByRole('link', { name: 'Active' }).click() },
      {
        name: 'filter Completed',
        run: (page) => page.getByRole('link', { name: 'Completed' }).click(),
      },
      { name: 'filter All', run: (page) => page.getByRole('link', { name: 'All' }).click() },
      { name: 'reload (localStorage)', run: async (page) => void (await page.reload()) },
      { name: 'tick "Call Gran"', run: (page) => toggle(page, 'Call Gran') },
      {
        name: 'clear completed',
        run: (page) => page.getByRole('button', { name: /Clear completed/ }).click(),
      },
      { name: 'reload again', run: async (page) => void (await page.reload()) },
    ],
  };
}
