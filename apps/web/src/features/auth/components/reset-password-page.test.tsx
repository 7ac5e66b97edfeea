import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/test-server';
import { renderWithProviders } from '../../../test/render';
import { ResetPasswordPage } from './reset-password-page';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    'POST /auth/reset-password/confirm': ({ body }) =>
      (body as { token: string }).token === 'good-token'
        ? { body: { success: true, message: 'Your password has been reset.' } }
        : {
            status: 400,
            body: { message: 'This password reset link is invalid or has expired.' },
          },
  });
});
afterAll(() => server.close());

function fill(label: string, value: string) {
  const input = screen.getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

describe('reset password page', () => {
  it('explains a link without a token and offers the way home', async () => {
    renderWithProviders(<ResetPasswordPage />, { route: '/reset-password' });
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'This password reset link is invalid or has expired.',
    );
    expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/');
    expect(screen.queryByLabelText('New password')).toBeNull();
    await waitFor(() => expect(document.title).toBe('Reset your password | Mirror'));
  });

  it('checks length and agreement of the two passwords before calling the server', async () => {
    renderWithProviders(<ResetPasswordPage />, { route: '/reset-password?token=good-token' });
    await screen.findByLabelText('New password');
    fill('New password', 'short');
    expect(screen.getByText('Password must be at least 8 characters long.')).toBeTruthy();
    fill('New password', 'long-enough-1');
    fill('Confirm new password', 'long-enough-2');
    expect(screen.getByText('Passwords must match.')).toBeTruthy();

    const before = server.requests.length;
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(screen.getByText('Passwords must match.')).toBeTruthy();
    expect(server.requests.length).toBe(before);
  });

  it('sets the new password, shows the answer and opens the login', async () => {
    renderWithProviders(<ResetPasswordPage />, { route: '/reset-password?token=good-token' });
    await screen.findByLabelText('New password');
    fill('New password', 'long-enough-1');
    fill('Confirm new password', 'long-enough-1');
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/?login=true'));
    expect(await screen.findByText('Your password has been reset.')).toBeTruthy();
    expect(server.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/auth/reset-password/confirm',
      body: { token: 'good-token', password: 'long-enough-1' },
    });
  });

  it('shows the server message when the link is no longer valid', async () => {
    renderWithProviders(<ResetPasswordPage />, { route: '/reset-password?token=used-token' });
    await screen.findByLabelText('New password');
    fill('New password', 'long-enough-1');
    fill('Confirm new password', 'long-enough-1');
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This password reset link is invalid or has expired.',
    );
    expect(screen.getByTestId('location').textContent).toBe('/reset-password?token=used-token');
  });
});
