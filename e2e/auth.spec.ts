import { expect, test, type Page } from '@playwright/test';
import {
  logInViaUi,
  logOutViaMenu,
  loginDialog,
  newAccount,
  registerViaApi,
  useSession,
  userMenuButton,
  type Account,
} from './support/accounts';
import { text } from './support/locales';
import { waitForMailLink } from './support/outbox';
import { BASE_URL } from './support/server';

const en = (key: string, vars?: Record<string, string>) => text('en', key, vars);

async function expectLoggedIn(page: Page, account: Account, initials: string) {
  const avatar = userMenuButton(page, account.name);
  await expect(avatar).toBeVisible();
  await expect(avatar).toHaveText(initials);
}

test.describe('accounts', () => {
  // Multi-step flows with several password hashes each; room for a busy machine.
  test.describe.configure({ timeout: 60_000 });

  test('register, log out and log in again', async ({ page }) => {
    const ada = newAccount('Ada Lovelace');
    await page.goto('/');
    await page
      .getByRole('banner')
      .getByRole('button', { name: en('nav.signup') })
      .click();
    const dialog = page.getByRole('dialog', { name: en('auth.register.title') });
    await dialog.getByLabel(en('auth.fields.name')).fill(ada.name);
    await dialog.getByLabel(en('auth.fields.email')).fill(ada.email);
    await dialog.getByLabel(en('auth.fields.password'), { exact: true }).fill(ada.password);
    await dialog.getByLabel(en('auth.fields.confirmPassword')).fill(ada.password);
    await dialog.getByRole('button', { name: en('auth.register.submit') }).click();

    await expect(page.getByText(en('toasts.registerSuccess'))).toBeVisible();
    await expect(dialog).toBeHidden();
    await expectLoggedIn(page, ada, 'AL');
    await userMenuButton(page, ada.name).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await expect(page.getByText(ada.email).filter({ visible: true })).toBeVisible();
    for (const key of ['nav.dashboard', 'nav.profile', 'nav.billing', 'nav.settings'])
      await expect(page.getByRole('menuitem', { name: en(key) })).toBeVisible();
    await page.keyboard.press('Escape');

    await logOutViaMenu(page, ada.name);
    await logInViaUi(page, ada);
    await expect(page.getByText(en('toasts.loginSuccess'))).toBeVisible();
    await expectLoggedIn(page, ada, 'AL');
  });

  test('login and register show the SPEC validation texts on blur', async ({ page }) => {
    await page.goto('/?login=true');
    const login = loginDialog(page);
    const email = login.getByLabel(en('auth.fields.email'));
    const password = login.getByLabel(en('auth.fields.password'));
    await email.focus();
    await email.blur();
    await expect(login.getByText('Email is required.')).toBeVisible();
    await email.fill('ada@');
    await expect(login.getByText('Email must be a valid email.')).toBeVisible();
    await password.focus();
    await password.blur();
    await expect(login.getByText('Password is required.')).toBeVisible();
    await password.fill('short');
    await expect(login.getByText('Password must be at least 8 characters long.')).toBeVisible();
    await login.getByRole('button', { name: en('auth.login.submit') }).click();
    await expect(login.getByRole('alert')).toHaveText(
      'Password must be at least 8 characters long',
    );

    await login.getByRole('button', { name: en('auth.login.switchToRegister') }).click();
    const register = page.getByRole('dialog', { name: en('auth.register.title') });
    await expect(login).toBeHidden();
    await register.getByRole('button', { name: en('auth.register.submit') }).click();
    await expect(register.getByRole('alert')).toHaveText('Please fill in all fields');
    await expect(register.getByText('Full name is required.')).toBeVisible();
    await expect(register.getByText('Please confirm your password.')).toBeVisible();
    await register.getByLabel(en('auth.fields.password'), { exact: true }).fill('long-enough');
    const confirm = register.getByLabel(en('auth.fields.confirmPassword'));
    await confirm.fill('long-enougH');
    await confirm.blur();
    await expect(register.getByText('Passwords must match.')).toBeVisible();
  });

  test('a profile name change survives a reload', async ({ page, request }) => {
    const grace = newAccount('Grace Hopper');
    await useSession(page, await registerViaApi(request, grace));
    await page.goto('/profile');
    await expect(page).toHaveTitle(en('meta.profile.title'));
    const name = page.getByLabel(en('profile.fields.name'));
    await expect(name).toHaveValue(grace.name);
    await expect(page.getByLabel(en('profile.fields.email'))).toHaveValue(grace.email);
    await expect(page.getByLabel(en('profile.fields.email'))).not.toBeEditable();

    await name.fill('Grace Brewster Hopper');
    await page.getByRole('button', { name: en('profile.save') }).click();
    await expect(page.getByText(en('profile.toasts.updated'))).toBeVisible();
    await expectLoggedIn(page, { ...grace, name: 'Grace Brewster Hopper' }, 'GB');

    await page.reload();
    await expect(page.getByLabel(en('profile.fields.name'))).toHaveValue('Grace Brewster Hopper');
  });

  test('a changed password is the one that logs in', async ({ page, request }) => {
    const alan = newAccount('Alan Turing');
    await useSession(page, await registerViaApi(request, alan));
    await page.goto('/profile');
    const newPassword = `${alan.password}-new`;
    await page.getByLabel(en('profile.fields.currentPassword')).fill('not-my-password');
    await page.getByLabel(en('profile.fields.newPassword'), { exact: true }).fill(newPassword);
    await page.getByLabel(en('profile.fields.confirmNewPassword')).fill(newPassword);
    await page.getByRole('button', { name: en('profile.save') }).click();
    await expect(page.getByRole('main').getByText('Current password is incorrect.')).toBeVisible();

    await page.getByLabel(en('profile.fields.currentPassword')).fill(alan.password);
    await page.getByRole('button', { name: en('profile.save') }).click();
    await expect(page.getByText(en('profile.toasts.updatedWithPassword'))).toBeVisible();
    await expect(page.getByLabel(en('profile.fields.currentPassword'))).toHaveValue('');

    await logOutViaMenu(page, alan.name);
    await logInViaUi(page, alan);
    await expect(loginDialog(page).getByRole('alert')).toHaveText('Invalid email or password.');
    await logInViaUi(page, { email: alan.email, password: newPassword });
    await expectLoggedIn(page, alan, 'AT');
  });

  test('forgot password: the mailed link sets a new password that logs in', async ({
    page,
    request,
  }) => {
    const katherine = newAccount('Katherine Johnson');
    await registerViaApi(request, katherine);
    await page.goto('/?login=true');
    const dialog = loginDialog(page);
    await dialog.getByRole('button', { name: en('auth.login.forgotPassword') }).click();
    await expect(page.getByText(en('auth.forgot.needEmail'))).toBeVisible();

    await dialog.getByLabel(en('auth.fields.email')).fill(katherine.email);
    await dialog.getByRole('button', { name: en('auth.login.forgotPassword') }).click();
    await expect(page.getByText(en('toasts.resetSent'))).toBeVisible();

    const link = await waitForMailLink(katherine.email, `${BASE_URL}/reset-password?token=`);
    await page.goto(link);
    await expect(page).toHaveTitle(en('meta.resetPassword.title'));
    const newPassword = `${katherine.password}-reset`;
    await page.getByLabel(en('resetPassword.newPassword'), { exact: true }).fill(newPassword);
    const confirm = page.getByLabel(en('resetPassword.confirmPassword'));
    await confirm.fill(`${newPassword}x`);
    await confirm.blur();
    await expect(page.getByText('Passwords must match.')).toBeVisible();
    await confirm.fill(newPassword);
    await page.getByRole('button', { name: en('resetPassword.submit') }).click();

    await expect(
      page.getByText('Your password has been reset. You can now log in with your new password.'),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/\?login=true$/);
    await logInViaUi(page, { email: katherine.email, password: newPassword });
    await expectLoggedIn(page, katherine, 'KJ');

    // The link works once only.
    await page.goto(link);
    await page.getByLabel(en('resetPassword.newPassword'), { exact: true }).fill(newPassword);
    await page.getByLabel(en('resetPassword.confirmPassword')).fill(newPassword);
    await page.getByRole('button', { name: en('resetPassword.submit') }).click();
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(
      en('resetPassword.invalidLink'),
    );
  });

  test('a reset page without a token says the link is invalid', async ({ page }) => {
    await page.goto('/reset-password');
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(
      en('resetPassword.invalidLink'),
    );
    await page.getByRole('link', { name: en('common.backToHome') }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('deleting the account asks for the password, then two confirmations, and ends the account', async ({
    page,
    request,
  }) => {
    const mary = newAccount('Mary Jackson');
    await useSession(page, await registerViaApi(request, mary));
    await page.goto('/settings');
    await expect(page).toHaveTitle(en('meta.settings.title'));
    const deleteButton = page.getByRole('button', { name: en('settings.danger.delete') });
    const passwordStep = page.getByRole('dialog', { name: en('settings.danger.passwordTitle') });
    const first = page.getByRole('alertdialog', { name: en('settings.danger.confirmTitle') });
    const last = page.getByRole('alertdialog', { name: en('settings.danger.lastTitle') });
    const answerPassword = async (password: string) => {
      await passwordStep.getByLabel(en('settings.danger.password')).fill(password);
      await passwordStep.getByRole('button', { name: en('settings.danger.continue') }).click();
    };

    await deleteButton.click();
    await answerPassword(mary.password);
    await first.getByRole('button', { name: en('settings.danger.keep') }).click();
    await expect(page.getByText(en('settings.danger.cancelled'))).toBeVisible();
    await expect(first).toBeHidden();

    // A wrong password deletes nothing and asks again.
    await deleteButton.click();
    await answerPassword('not-my-password');
    await first.getByRole('button', { name: en('settings.danger.delete') }).click();
    await last.getByRole('button', { name: en('settings.danger.deleteForever') }).click();
    await expect(passwordStep).toContainText(en('settings.danger.passwordWrong'));

    await answerPassword(mary.password);
    await first.getByRole('button', { name: en('settings.danger.delete') }).click();
    await expect(last).toContainText(
      'Seriously, this is your last chance. Confirm account deletion?',
    );
    await last.getByRole('button', { name: en('settings.danger.deleteForever') }).click();

    await expect(page.getByText('Your account has been deleted.')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(
      page.getByRole('banner').getByRole('button', { name: en('nav.login') }),
    ).toBeVisible();
    await logInViaUi(page, mary);
    await expect(loginDialog(page).getByRole('alert')).toHaveText('Invalid email or password.');
  });

  test('settings: notifications are saved, dark and system themes are coming soon', async ({
    page,
    request,
  }) => {
    const edsger = newAccount('Edsger Dijkstra');
    await useSession(page, await registerViaApi(request, edsger));
    await page.goto('/settings');
    const push = page.getByRole('switch', { name: en('settings.notifications.push') });
    await expect(push).not.toBeChecked();
    await expect(page.getByRole('radio', { name: en('settings.appearance.light') })).toBeChecked();
    await expect(page.getByRole('radio', { name: /^Dark/ })).toBeDisabled();
    await expect(page.getByRole('radio', { name: /^System/ })).toBeDisabled();
    await push.check();
    await page.getByRole('button', { name: en('settings.save') }).click();
    await expect(page.getByText(en('settings.toasts.saved'))).toBeVisible();
    await page.getByRole('button', { name: en('settings.apiKeys.manage') }).click();
    await expect(page.getByText(en('settings.apiKeys.comingSoon'))).toBeVisible();

    await page.reload();
    await expect(
      page.getByRole('switch', { name: en('settings.notifications.push') }),
    ).toBeChecked();
  });

  test('a protected page visited after the session was revoked goes to /?login=true', async ({
    page,
    request,
  }) => {
    const barbara = newAccount('Barbara Liskov');
    const token = await registerViaApi(request, barbara);
    await useSession(page, token);
    await page.goto('/dashboard');
    await expectLoggedIn(page, barbara, 'BL');

    const revoked = await request.post('/api/auth/logout', {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(revoked.ok()).toBe(true);

    await page.goto('/profile');
    await expect(page).toHaveURL(/\/\?login=true$/);
    await expect(loginDialog(page)).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });
});
