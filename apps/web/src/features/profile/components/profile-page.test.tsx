import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES } from '@mirror/contract';
import { makeUser, storeToken } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { startTestServer, type RecordedRequest, type TestServer } from '../../../test/test-server';
import { ProfilePage } from './profile-page';

const user = makeUser();
let server: TestServer;

const defaultRoutes = {
  'GET /auth/me': { body: { user } },
  'PUT /auth/me': ({ body }: RecordedRequest) => ({
    body: { user: { ...user, name: (body as { name: string }).name } },
  }),
  'PUT /auth/me/password': ({ body }: RecordedRequest) =>
    (body as { currentPassword: string }).currentPassword === 'old-secret'
      ? { body: { success: true, message: AUTH_MESSAGES.passwordChanged } }
      : { status: 400, body: { message: AUTH_MESSAGES.currentPasswordWrong } },
};

beforeAll(async () => {
  server = await startTestServer(defaultRoutes);
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
  server.setRoutes(defaultRoutes);
});

async function renderProfile() {
  storeToken();
  renderWithProviders(<ProfilePage />, { route: '/profile' });
  const name = (await screen.findByLabelText('Full name')) as HTMLInputElement;
  return {
    name,
    current: screen.getByLabelText('Current password') as HTMLInputElement,
    next: screen.getByLabelText('New password') as HTMLInputElement,
    confirm: screen.getByLabelText('Confirm new password') as HTMLInputElement,
    save: () => fireEvent.click(screen.getByRole('button', { name: 'Save changes' })),
  };
}

function type(input: HTMLInputElement, value: string) {
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

const writes = () => server.requests.filter((r) => r.method === 'PUT');

describe('profile page', () => {
  it('shows the name and a read-only email', async () => {
    const { name } = await renderProfile();
    expect(name.value).toBe('Ada Lovelace');
    const email = screen.getByLabelText('Email') as HTMLInputElement;
    expect(email.value).toBe('ada@example.com');
    expect(email.readOnly).toBe(true);
    expect(screen.getByText('Your email address cannot be changed.')).toBeTruthy();
  });

  it('shows every field rule on blur and on change, in the SPEC words', async () => {
    const { name, current, next, confirm } = await renderProfile();
    type(name, '');
    expect(screen.getByText('Full name is required')).toBeTruthy();
    type(name, 'Ada');
    expect(screen.queryByText('Full name is required')).toBeNull();

    type(current, 'old-secret');
    type(next, '');
    expect(screen.getByText('New password is required if changing.')).toBeTruthy();
    type(next, 'short');
    expect(screen.getByText('New password must be at least 8 characters.')).toBeTruthy();
    type(next, 'new-secret');
    type(confirm, '');
    expect(screen.getByText('Please confirm your new password.')).toBeTruthy();
    type(confirm, 'new-secreT');
    expect(screen.getByText('New passwords must match.')).toBeTruthy();
    type(confirm, 'new-secret');
    expect(screen.queryByText('New passwords must match.')).toBeNull();
  });

  it('says what is wrong on submit and sends nothing', async () => {
    const { name, current, next, confirm, save } = await renderProfile();
    type(current, 'old-secret');
    save();
    expect(screen.getByRole('alert').textContent).toBe(
      'Please fill all password fields to change your password, or leave them blank.',
    );

    type(next, 'new-secret');
    type(confirm, 'other-secret');
    save();
    expect(screen.getByRole('alert').textContent).toBe('New passwords do not match.');

    type(current, '');
    type(next, '');
    type(confirm, '');
    type(name, '');
    save();
    expect(screen.getByRole('alert').textContent).toBe('Please correct the errors in the form.');
    expect(writes()).toEqual([]);
  });

  it('saves a new name', async () => {
    const { name, save } = await renderProfile();
    type(name, '  Ada King  ');
    save();
    expect(await screen.findByText('Profile updated successfully!')).toBeTruthy();
    expect(writes()).toEqual([
      expect.objectContaining({ path: '/auth/me', body: { name: 'Ada King', locale: 'en' } }),
    ]);
    expect(name.value).toBe('Ada King');
  });

  it('changes the password with the name and clears the password fields', async () => {
    const { current, next, confirm, save } = await renderProfile();
    type(current, 'old-secret');
    type(next, 'new-secret');
    type(confirm, 'new-secret');
    save();
    expect(await screen.findByText('Profile and password updated successfully!')).toBeTruthy();
    expect(writes().map((r) => [r.path, r.body])).toEqual([
      ['/auth/me/password', { currentPassword: 'old-secret', newPassword: 'new-secret' }],
      ['/auth/me', { name: 'Ada Lovelace', locale: 'en' }],
    ]);
    expect([current.value, next.value, confirm.value]).toEqual(['', '', '']);
    expect(screen.queryByText('Please confirm your new password.')).toBeNull();
  });

  it('shows the server message inline when the current password is wrong', async () => {
    const { current, next, confirm, save } = await renderProfile();
    type(current, 'wrong-secret');
    type(next, 'new-secret');
    type(confirm, 'new-secret');
    save();
    const inline = await screen.findByText('Current password is incorrect.');
    expect(inline.closest('form')).not.toBeNull();
    expect(await screen.findByText('Failed to update profile.')).toBeTruthy();
    expect(writes().map((r) => r.path)).toEqual(['/auth/me/password']);
    expect(current.value).toBe('wrong-secret');
  });

  it('says so when the profile cannot be loaded', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    server.setRoutes({ 'GET /auth/me': { status: 500, body: {} } });
    storeToken();
    renderWithProviders(<ProfilePage />, { route: '/profile' });
    const message = 'Could not load profile information. Please try again later.';
    await waitFor(() => expect(screen.getAllByText(message).length).toBeGreaterThan(0));
    logged.mockRestore();
  });
});
