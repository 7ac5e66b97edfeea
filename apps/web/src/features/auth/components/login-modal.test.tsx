import { fireEvent, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { useDialogs } from '../../../lib/dialogs';
import { renderWithProviders } from '../../../test/render';

function OpenLogin() {
  const { openDialog } = useDialogs();
  useEffect(() => openDialog('login'), [openDialog]);
  return null;
}

async function renderLogin() {
  renderWithProviders(<OpenLogin />);
  const dialog = await screen.findByRole('dialog', { name: 'Log in to Mirror' });
  const email = screen.getByLabelText('Email') as HTMLInputElement;
  const password = screen.getByLabelText('Password') as HTMLInputElement;
  return { dialog, email, password };
}

describe('login dialog', () => {
  it('shows the SPEC texts once a field is left, then follows changes', async () => {
    const { email, password } = await renderLogin();
    expect(document.activeElement).toBe(email);

    fireEvent.change(email, { target: { value: 'a' } });
    expect(screen.queryByText('Email must be a valid email.')).toBeNull();

    fireEvent.change(email, { target: { value: '' } });
    fireEvent.blur(email);
    expect(screen.getByText('Email is required.')).toBeTruthy();
    expect(email.getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(email, { target: { value: 'jane@' } });
    expect(screen.getByText('Email must be a valid email.')).toBeTruthy();
    fireEvent.change(email, { target: { value: 'jane@example.com' } });
    expect(screen.queryByText('Email must be a valid email.')).toBeNull();

    fireEvent.blur(password);
    expect(screen.getByText('Password is required.')).toBeTruthy();
    fireEvent.change(password, { target: { value: 'short' } });
    expect(screen.getByText('Password must be at least 8 characters long.')).toBeTruthy();
  });

  it('explains what is missing on submit', async () => {
    const { email, password } = await renderLogin();
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByRole('alert').textContent).toBe('Please fill in all fields');

    fireEvent.change(email, { target: { value: 'jane@example.com' } });
    fireEvent.change(password, { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByRole('alert').textContent).toBe(
      'Password must be at least 8 characters long',
    );
  });

  it('lets a pressed button decide, and asks for the email before sending a reset link', async () => {
    const { email } = await renderLogin();
    const forgot = screen.getByRole('button', { name: 'Forgot your password?' });
    // Pressing the button: the email error would push it from under the pointer, so it waits.
    fireEvent.pointerDown(forgot);
    fireEvent.blur(email, { relatedTarget: forgot });
    expect(screen.queryByText('Email is required.')).toBeNull();
    fireEvent.click(forgot);
    expect(
      await screen.findByText('Please enter your email address to reset your password.'),
    ).toBeTruthy();

    // Leaving the field with Tab for the same button validates as usual.
    fireEvent.keyDown(email, { key: 'Tab' });
    fireEvent.blur(email, { relatedTarget: forgot });
    expect(screen.getByText('Email is required.')).toBeTruthy();
  });

  it('switches to the register dialog and closes with Escape', async () => {
    const { dialog } = await renderLogin();
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('dialog', { name: 'Create your account' })).toBeTruthy();
    expect(dialog.isConnected).toBe(false);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
