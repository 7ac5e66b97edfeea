import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { STORAGE_KEYS } from '@mirror/contract';
import { text } from './locales';

export interface Account {
  name: string;
  email: string;
  password: string;
}

/** A fresh account per test, so specs can run in any order and in parallel. */
export function newAccount(name = 'Ada Lovelace'): Account {
  const slug = name.split(' ')[0]!.toLowerCase();
  return {
    name,
    email: `${slug}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`,
    password: `pw-${Math.random().toString(36).slice(2, 10)}`,
  };
}

/** Registers through the API and returns the session token. */
export async function registerViaApi(request: APIRequestContext, account: Account) {
  const response = await request.post('/api/auth/register', {
    data: { name: account.name, email: account.email, password: account.password },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { token: string }).token;
}

/** Starts the browser's session with a token, as a login would leave it. */
export async function useSession(page: Page, token: string) {
  await page.goto('/');
  await page.evaluate(
    ([key, value]) => localStorage.setItem(key!, value!),
    [STORAGE_KEYS.token, token],
  );
}

export function loginDialog(page: Page) {
  return page.getByRole('dialog', { name: text('en', 'auth.login.title') });
}

export function userMenuButton(page: Page, name: string) {
  return page.getByRole('button', { name: text('en', 'nav.userMenu', { name }) });
}

/** Logs in through the navbar's dialog and waits until the user menu shows. */
export async function logInViaUi(page: Page, account: Pick<Account, 'email' | 'password'>) {
  const dialog = loginDialog(page);
  // A page opened at /?login=true opens the dialog itself, maybe only after the first look: then
  // its backdrop takes the click meant for the banner's button, and the next look finds it open.
  await expect(async () => {
    if (!(await dialog.isVisible())) {
      await page
        .getByRole('banner')
        .getByRole('button', { name: text('en', 'nav.login') })
        .click({ timeout: 2_000 });
    }
    await expect(dialog).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await dialog.getByLabel(text('en', 'auth.fields.email')).fill(account.email);
  await dialog.getByLabel(text('en', 'auth.fields.password')).fill(account.password);
  await dialog.getByRole('button', { name: text('en', 'auth.login.submit') }).click();
}

export async function logOutViaMenu(page: Page, name: string) {
  await userMenuButton(page, name).click();
  await page.getByRole('menuitem', { name: text('en', 'nav.logout') }).click();
  await expect(page.getByText(text('en', 'toasts.logoutSuccess'))).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(
    page.getByRole('banner').getByRole('button', { name: text('en', 'nav.login') }),
  ).toBeVisible();
}
