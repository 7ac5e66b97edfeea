import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { URL_AUTO_PREFIX_DELAY_MS } from '@mirror/contract';
import { renderWithProviders } from '../../../test/render';
import { UrlForm } from './url-form';

function getUrlInput() {
  return screen.getByLabelText('Website URL') as HTMLInputElement;
}

describe('hero URL field', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('prepends https:// after a one-second typing pause', () => {
    renderWithProviders(<UrlForm />);
    const input = getUrlInput();
    expect(input.id).toBe('hero-url');
    expect(input.name).toBe('sourceUrl');

    fireEvent.change(input, { target: { value: 'example' } });
    fireEvent.change(input, { target: { value: 'example.com' } });
    act(() => vi.advanceTimersByTime(URL_AUTO_PREFIX_DELAY_MS - 1));
    expect(input.value).toBe('example.com');
    act(() => vi.advanceTimersByTime(1));
    expect(input.value).toBe('https://example.com');
  });

  it('leaves text without a dot and addresses with a scheme alone', () => {
    renderWithProviders(<UrlForm />);
    const input = getUrlInput();
    fireEvent.change(input, { target: { value: 'localhost' } });
    act(() => vi.advanceTimersByTime(2000));
    expect(input.value).toBe('localhost');
    fireEvent.change(input, { target: { value: 'http://example.com' } });
    act(() => vi.advanceTimersByTime(2000));
    expect(input.value).toBe('http://example.com');
  });

  it('prefixes and trims again on submit, before the pause ends', () => {
    renderWithProviders(<UrlForm />);
    const input = getUrlInput();
    fireEvent.change(input, { target: { value: '  example.com/docs/  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Mirror website free' }));
    expect(input.value).toBe('https://example.com/docs');
    expect(input.getAttribute('aria-invalid')).toBeNull();
  });

  it('shows the error under the field when the URL is empty', () => {
    renderWithProviders(<UrlForm />);
    fireEvent.click(screen.getByRole('button', { name: 'Mirror website free' }));
    const input = getUrlInput();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const error = document.getElementById(input.getAttribute('aria-describedby')!);
    expect(error?.textContent).toBe('Website URL is required.');
  });

  it('offers guests the login and sign-up buttons', () => {
    renderWithProviders(<UrlForm />);
    expect(screen.getByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign up' })).toBeTruthy();
    expect(screen.queryByLabelText('Target subdomain (optional)')).toBeNull();
  });
});
