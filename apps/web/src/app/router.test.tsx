import { render, screen, waitFor } from '@testing-library/react';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryRouter } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH, STORAGE_KEYS } from '@mirror/contract';
import { configureApiClient } from '../lib/api-client';
import { I18nProvider } from '../lib/i18n';
import { LocationProbe } from '../test/render';
import { AppRoutes } from './router';

function renderApp(route: string) {
  return render(
    <I18nProvider initialLocale="en">
      <MemoryRouter initialEntries={[route]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>
    </I18nProvider>,
  );
}

// A real local server stands in for GET /api/auth/me, which the app calls when a token exists.
let server: http.Server;
let cut = 0;
let cutUntil = 0;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    // Until `cutUntil`, asking for the user gets no answer: a broken one, and the connection is
    // cut (a reset alone is retried by fetch itself on a reused connection).
    if (req.url === '/api/auth/me' && Date.now() < cutUntil) {
      cut++;
      return void req.socket.end('HTTP/1.1 banana\r\n\r\n');
    }
    // The pages' own data is not served here: 404, which keeps the session.
    if (req.url !== '/api/auth/me')
      return void res.writeHead(404, { 'Content-Type': 'application/json' }).end('{}');
    const ok = ['Bearer token-1', 'Bearer token-cut'].includes(req.headers.authorization ?? '');
    res.writeHead(ok ? 200 : 401, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify(
        ok ? { user: { id: 'u1', name: 'Jane Doe', email: 'jane@example.com', plan: 'free' } } : {},
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  configureApiClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api` });
});
afterAll(async () => {
  configureApiClient({ baseUrl: API_BASE_PATH });
  await new Promise((resolve) => server.close(resolve));
});

describe('routes', () => {
  it.each([
    '/dashboard',
    '/dashboard/site/abc',
    '/dashboard/site/abc/changes/v1',
    '/billing',
    '/profile',
    '/settings',
  ])('sends a logged-out visit of %s to /?login=true with the login dialog open', async (route) => {
    renderApp(route);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/?login=true'));
    const dialog = await screen.findByRole('dialog', { name: 'Log in to Mirror' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
  });

  it('lets a visitor with a token see the dashboard page', async () => {
    window.localStorage.setItem(STORAGE_KEYS.token, 'token-1');
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeTruthy();
    // The user menu shows the initials of the fetched user.
    expect(await screen.findByRole('button', { name: 'Account menu for Jane Doe' })).toBeTruthy();
  });

  it('keeps the session when fetching the user gets no answer, and asks again', async () => {
    window.localStorage.setItem(STORAGE_KEYS.token, 'token-cut');
    cutUntil = Date.now() + 300;
    renderApp('/dashboard');
    expect(
      await screen.findByRole('button', { name: 'Account menu for Jane Doe' }, { timeout: 5_000 }),
    ).toBeTruthy();
    expect(cut).toBeGreaterThan(0);
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBe('token-cut');
    expect(screen.getByTestId('location').textContent).toBe('/dashboard');
  });

  it('logs out when the token is rejected', async () => {
    window.localStorage.setItem(STORAGE_KEYS.token, 'expired');
    renderApp('/settings');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/?login=true'));
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('shows the not-found screen for unknown paths', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    // The title follows in an effect after the page renders.
    await waitFor(() => expect(document.title).toBe('Page not found | Mirror'));
  });

  it('renders the static pages with real content', async () => {
    renderApp('/privacy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'What we store' })).toBeTruthy();
  });
});
