import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES, STORAGE_KEYS } from '@mirror/contract';
import { makeUser, storeToken } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { startTestServer, type RecordedRequest, type TestServer } from '../../../test/test-server';
import { SettingsPage } from './settings-page';

const user = makeUser({
  settings: { notifications: { email: true, push: false }, appearance: { theme: 'light' } },
});
const defaultRoutes = {
  'GET /auth/me': { body: { user } },
  'PUT /auth/me/settings': ({ body }: RecordedRequest) => ({
    body: { user: { ...user, settings: body } },
  }),
  'DELETE /auth/me': { body: { success: true, message: AUTH_MESSAGES.accountDeleted } },
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(defaultRoutes);
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
  server.setRoutes(defaultRoutes);
});

async function renderSettings() {
  storeToken();
  renderWithProviders(<SettingsPage />, { route: '/settings' });
  await screen.findByRole('switch', { name: 'Email notifications' });
}

const deletes = () => server.requests.filter((r) => r.method === 'DELETE');

describe('settings page', () => {
  it('offers the light theme and shows dark and system as coming soon', async () => {
    await renderSettings();
    const light = screen.getByRole('radio', { name: 'Light' }) as HTMLInputElement;
    const dark = screen.getByRole('radio', { name: /^Dark/ }) as HTMLInputElement;
    const system = screen.getByRole('radio', { name: /^System/ }) as HTMLInputElement;
    expect(light.checked).toBe(true);
    expect(light.disabled).toBe(false);
    expect(dark.disabled).toBe(true);
    expect(system.disabled).toBe(true);
    expect(dark.closest('label')?.textContent).toContain('Coming soon');
    expect(system.closest('label')?.textContent).toContain('Coming soon');
  });

  it('saves the notification switches on the account and in this browser', async () => {
    await renderSettings();
    const email = screen.getByRole('switch', { name: 'Email notifications' }) as HTMLInputElement;
    const push = screen.getByRole('switch', { name: 'Push notifications' }) as HTMLInputElement;
    expect([email.checked, push.checked]).toEqual([true, false]);
    fireEvent.click(push);
    fireEvent.click(email);
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));

    expect(await screen.findByText('Settings saved successfully!')).toBeTruthy();
    const saved = { notifications: { email: false, push: true }, appearance: { theme: 'light' } };
    expect(server.requests.find((r) => r.method === 'PUT')?.body).toEqual(saved);
    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.settings) ?? 'null')).toEqual(saved);
  });

  it('tells when saving fails', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    server.setRoutes({ ...defaultRoutes, 'PUT /auth/me/settings': { status: 500, body: {} } });
    await renderSettings();
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Failed to save settings.')).toBeTruthy();
    logged.mockRestore();
  });

  it('falls back to the settings kept in this browser when loading fails', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    server.setRoutes({ ...defaultRoutes, 'GET /auth/me': { status: 500, body: {} } });
    window.localStorage.setItem(
      STORAGE_KEYS.settings,
      JSON.stringify({ notifications: { email: false, push: true } }),
    );
    await renderSettings();
    expect((await screen.findAllByText('Failed to load settings.')).length).toBeGreaterThan(0);
    const push = screen.getByRole('switch', { name: 'Push notifications' }) as HTMLInputElement;
    expect(push.checked).toBe(true);
    logged.mockRestore();
  });

  it('says API key management is coming soon', async () => {
    await renderSettings();
    fireEvent.click(screen.getByRole('button', { name: 'Manage API keys' }));
    expect(await screen.findByText('API Key Management is coming soon!')).toBeTruthy();
  });

  /** Opens the deletion and answers the password step. */
  function enterPassword(password: string) {
    fireEvent.click(screen.getByRole('button', { name: 'Delete account' }));
    const step = screen.getByRole('dialog', { name: "Confirm it's you" });
    fireEvent.change(within(step).getByLabelText('Password'), { target: { value: password } });
    fireEvent.click(within(step).getByRole('button', { name: 'Continue' }));
  }

  function confirmBoth() {
    fireEvent.click(
      within(screen.getByRole('alertdialog', { name: 'Delete your account?' })).getByRole(
        'button',
        { name: 'Delete account' },
      ),
    );
    fireEvent.click(
      within(screen.getByRole('alertdialog', { name: 'Last chance' })).getByRole('button', {
        name: 'Yes, delete my account',
      }),
    );
  }

  it('asks for the password before the two confirmations', async () => {
    await renderSettings();
    fireEvent.click(screen.getByRole('button', { name: 'Delete account' }));
    const step = screen.getByRole('dialog', { name: "Confirm it's you" });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(within(step).getByLabelText('Password'));

    fireEvent.click(within(step).getByRole('button', { name: 'Continue' }));
    expect(within(step).getByText('Password is required.')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();

    fireEvent.change(within(step).getByLabelText('Password'), { target: { value: 'my password' } });
    fireEvent.click(within(step).getByRole('button', { name: 'Continue' }));
    expect(screen.queryByRole('dialog', { name: "Confirm it's you" })).toBeNull();
    expect(screen.getByRole('alertdialog', { name: 'Delete your account?' })).toBeTruthy();
    expect(deletes()).toEqual([]);
  });

  it('cancels the deletion when the password step is declined', async () => {
    await renderSettings();
    fireEvent.click(screen.getByRole('button', { name: 'Delete account' }));
    const step = screen.getByRole('dialog', { name: "Confirm it's you" });
    fireEvent.click(within(step).getByRole('button', { name: 'Cancel' }));

    expect(await screen.findByText('Account deletion cancelled.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(deletes()).toEqual([]);
  });

  it('cancels the deletion when the first question is declined', async () => {
    await renderSettings();
    enterPassword('my password');
    const first = screen.getByRole('alertdialog', { name: 'Delete your account?' });
    expect(first.textContent).toContain(
      'Your mirrors, domains and settings will be deleted. This cannot be undone.',
    );
    expect(document.activeElement).toBe(within(first).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(first).getByRole('button', { name: 'Cancel' }));

    expect(await screen.findByText('Account deletion cancelled.')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(deletes()).toEqual([]);
  });

  it('cancels the deletion when the last chance is declined with Escape', async () => {
    await renderSettings();
    enterPassword('my password');
    const first = screen.getByRole('alertdialog', { name: 'Delete your account?' });
    fireEvent.click(within(first).getByRole('button', { name: 'Delete account' }));
    const last = screen.getByRole('alertdialog', { name: 'Last chance' });
    expect(last.textContent).toContain(
      'Seriously, this is your last chance. Confirm account deletion?',
    );
    fireEvent.keyDown(last, { key: 'Escape' });

    expect(await screen.findByText('Account deletion cancelled.')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(deletes()).toEqual([]);
  });

  it('deletes the account with its password after both confirmations and signs out', async () => {
    await renderSettings();
    enterPassword('my password');
    confirmBoth();

    expect(await screen.findByText('Your account has been deleted.')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(deletes()).toEqual([
      expect.objectContaining({
        path: '/auth/me',
        authorization: 'Bearer token-1',
        body: { password: 'my password' },
      }),
    ]);
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('brings the password step back when the password is wrong, and keeps the account', async () => {
    server.setRoutes({
      ...defaultRoutes,
      'DELETE /auth/me': { status: 400, body: { message: AUTH_MESSAGES.deletionPasswordWrong } },
    });
    await renderSettings();
    enterPassword('not my password');
    confirmBoth();

    const step = await screen.findByRole('dialog', { name: "Confirm it's you" });
    expect(
      within(step).getByText('The password is incorrect. Your account has not been deleted.'),
    ).toBeTruthy();
    expect((within(step).getByLabelText('Password') as HTMLInputElement).value).toBe('');
    expect(screen.getByTestId('location').textContent).toBe('/settings');
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBe('token-1');
  });
});
