import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@mirror/contract';
import { useDialogs } from '../../../lib/dialogs';
import { makeUser } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { startTestServer, type Routes, type TestServer } from '../../../test/test-server';

function OpenDialog({ name, demoId }: { name: 'login' | 'register'; demoId?: string }) {
  const { openDialog } = useDialogs();
  useEffect(() => openDialog(name, demoId ? { demoId } : undefined), [openDialog, name, demoId]);
  return null;
}

const signedIn = { body: { user: makeUser(), token: 'fresh-token' } };
const claimed = {
  body: { success: true, claimedIds: ['demo-1', 'demo-2'], message: 'Claimed 2 demo sites.' },
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

function useRoutes(routes: Routes) {
  server.setRoutes({ 'POST /auth/login': signedIn, 'POST /auth/register': signedIn, ...routes });
}

async function logIn() {
  renderWithProviders(<OpenDialog name="login" />, { route: '/?login=true' });
  await screen.findByRole('dialog', { name: 'Log in to Mirror' });
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct-horse' } });
  fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
}

const claimRequests = () => server.requests.filter((r) => r.path === '/auth/claim-demos');

describe('claiming demo sites after signing in', () => {
  it('claims the stored ids with the new session, tells the count and forgets the ids', async () => {
    useRoutes({ 'POST /auth/claim-demos': claimed });
    window.localStorage.setItem(STORAGE_KEYS.demoSites, JSON.stringify(['demo-1', 'demo-2']));
    await logIn();

    expect(await screen.findByText('Successfully logged in!')).toBeTruthy();
    expect(await screen.findByText('Claimed 2 demo sites.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('location').textContent).toBe('/');
    expect(window.localStorage.getItem(STORAGE_KEYS.demoSites)).toBeNull();
    expect(server.requests[0]?.body).toEqual({
      email: 'ada@example.com',
      password: 'correct-horse',
      locale: 'en',
    });
    expect(claimRequests()).toEqual([
      {
        method: 'POST',
        path: '/auth/claim-demos',
        authorization: 'Bearer fresh-token',
        body: { demoSiteIds: ['demo-1', 'demo-2'] },
      },
    ]);
  });

  it('keeps the ids and the session when the claim fails, with a retry hint', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    useRoutes({ 'POST /auth/claim-demos': { status: 500, body: { message: 'Boom' } } });
    window.localStorage.setItem(STORAGE_KEYS.demoSites, JSON.stringify(['demo-1']));
    await logIn();

    expect(
      await screen.findByText(/try again the next time you log in/, { exact: false }),
    ).toBeTruthy();
    expect(window.localStorage.getItem(STORAGE_KEYS.demoSites)).toBe('["demo-1"]');
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBe('fresh-token');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(logged).toHaveBeenCalledWith('Claiming demo sites failed', expect.anything());
    logged.mockRestore();
  });

  it('makes no claim when this browser made no demos', async () => {
    useRoutes({ 'POST /auth/claim-demos': claimed });
    await logIn();
    expect(await screen.findByText('Successfully logged in!')).toBeTruthy();
    expect(claimRequests()).toEqual([]);
  });

  it('claims after registering too', async () => {
    useRoutes({ 'POST /auth/claim-demos': claimed });
    window.localStorage.setItem(STORAGE_KEYS.demoSites, JSON.stringify(['demo-1', 'demo-2']));
    renderWithProviders(<OpenDialog name="register" />);
    await screen.findByRole('dialog', { name: 'Create your account' });
    const values: Record<string, string> = {
      'Full name': 'Ada Lovelace',
      Email: 'ada@example.com',
      Password: 'correct-horse',
      'Confirm password': 'correct-horse',
    };
    for (const [label, value] of Object.entries(values))
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));

    expect(
      await screen.findByText('Account created successfully! Welcome to Mirror.'),
    ).toBeTruthy();
    expect(await screen.findByText('Claimed 2 demo sites.')).toBeTruthy();
    await waitFor(() => expect(window.localStorage.getItem(STORAGE_KEYS.demoSites)).toBeNull());
    expect(server.requests[0]).toMatchObject({
      path: '/auth/register',
      body: { name: 'Ada Lovelace', locale: 'en' },
    });
  });

  it('claims the demo the dialog was opened for first, and lands on its page (issue 31, item 1)', async () => {
    useRoutes({
      'POST /auth/claim-demos': {
        body: { success: true, claimedIds: ['blog'], message: 'Claimed 1 demo site.' },
      },
    });
    window.localStorage.setItem(STORAGE_KEYS.demoSites, JSON.stringify(['refused', 'blog']));
    renderWithProviders(<OpenDialog name="login" demoId="blog" />, { route: '/' });
    await screen.findByRole('dialog', { name: 'Log in to Mirror' });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct-horse' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe('/dashboard/site/blog'),
    );
    expect(claimRequests().map((r) => r.body)).toEqual([
      { demoSiteIds: ['refused', 'blog'], firstId: 'blog' },
    ]);
  });

  it('stays put after a login whose plan had no room for the demo', async () => {
    useRoutes({
      'POST /auth/claim-demos': {
        body: {
          success: true,
          claimedIds: [],
          message:
            "Claimed 0 demo sites. Your plan's mirror limit is reached: upgrade to keep more.",
        },
      },
    });
    window.localStorage.setItem(STORAGE_KEYS.demoSites, JSON.stringify(['blog']));
    renderWithProviders(<OpenDialog name="login" demoId="blog" />, { route: '/' });
    await screen.findByRole('dialog', { name: 'Log in to Mirror' });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct-horse' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText(/mirror limit is reached/)).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/');
  });
});
