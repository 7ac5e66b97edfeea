import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '@mirror/contract';
import { makeClone, makeStatus, makeUser } from '../../../test/fixtures';
import { idleReal } from '../../../test/real-time';
import { renderWithProviders } from '../../../test/render';
import { startTestServer, type Reply, type TestServer } from '../../../test/test-server';
import { UrlForm } from './url-form';

// Issue 31: a visitor's demo from the hero to the account (items 1, 7 and 10).

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const savedIds = () =>
  JSON.parse(window.localStorage.getItem(STORAGE_KEYS.demoSites) ?? 'null') as string[] | null;
const toasts = () => document.querySelector('.Toastify')?.textContent ?? '';
const panel = () => screen.getByRole('region', { name: 'Live preview' });
/** The panel loads with the first run (a lazy chunk), after the first status answer. */
const findPanel = () => screen.findByRole('region', { name: 'Live preview' }, { timeout: 5_000 });
const cloneCalls = () =>
  server.requests.filter((r) => r.method === 'POST' && r.path === '/domains/clone');

function mirror(url: string) {
  fireEvent.change(screen.getByLabelText('Website URL'), { target: { value: url } });
  fireEvent.click(screen.getByRole('button', { name: 'Mirror website free' }));
}

/** Texts a sighted reader sees: the visually hidden live region is left out. */
function visibleText(): string {
  const copy = document.body.cloneNode(true) as HTMLElement;
  copy.querySelectorAll('.visually-hidden').forEach((node) => node.remove());
  return copy.textContent ?? '';
}

describe('a failed guest mirror (item 7)', () => {
  it('is not celebrated nor kept, says "Mirror failed" once and links nowhere', async () => {
    server.setRoutes({
      'POST /domains/clone': { status: 201, body: makeClone({ isDemo: true }) },
      'GET /domains/clone/site-1/status': {
        body: makeStatus('failed', {
          error: 'Nothing at that address.',
          errorKind: 'http-not-found',
        }),
      },
    });
    renderWithProviders(<UrlForm />);
    mirror('https://example.com/missing');
    await within(await findPanel()).findByRole('alert', {}, { timeout: 5_000 });
    await waitFor(() => expect(toasts()).toContain('Mirror failed'));
    await idleReal();

    expect(toasts()).not.toContain('demo site ID has been saved');
    expect(savedIds()).toBeNull();
    expect(visibleText().match(/mirror failed/gi)).toHaveLength(1);
    expect(within(panel()).queryAllByRole('link')).toHaveLength(0);
    expect(within(panel()).queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(within(panel()).getByRole('button', { name: 'Try another address' })).toBeTruthy();
  });

  it('tries the same address again where a retry may help', async () => {
    let statuses: Reply[] = [
      { body: makeStatus('failed', { error: 'Too slow.', errorKind: 'timeout' }) },
    ];
    server.setRoutes({
      'POST /domains/clone': { status: 201, body: makeClone({ isDemo: true }) },
      'GET /domains/clone/site-1/status': () => statuses[0]!,
    });
    renderWithProviders(<UrlForm />);
    mirror('https://slow.example.com');
    const again = await within(await findPanel()).findByRole(
      'button',
      { name: 'Try again' },
      { timeout: 5_000 },
    );
    statuses = [{ body: makeStatus('completed') }];
    fireEvent.click(again);
    await waitFor(
      () =>
        expect(within(panel()).getByRole('button', { name: 'Register to customize' })).toBeTruthy(),
      { timeout: 5_000 },
    );
    expect(cloneCalls().map((call) => call.body)).toEqual([
      { sourceUrl: 'https://slow.example.com', isDemo: true },
      { sourceUrl: 'https://slow.example.com', isDemo: true },
    ]);
  });
});

describe('the finished demo after a reload (item 10)', () => {
  it('comes back from the saved demo list; failed and vanished demos leave it', async () => {
    window.localStorage.setItem(
      STORAGE_KEYS.demoSites,
      JSON.stringify(['blog', 'refused', 'expired']),
    );
    server.setRoutes({
      'GET /domains/clone/expired/status': { status: 404, body: { message: 'Not found' } },
      'GET /domains/clone/refused/status': {
        body: makeStatus('failed', { id: 'refused', errorKind: 'refused' }),
      },
      'GET /domains/clone/blog/status': {
        body: makeStatus('completed', {
          id: 'blog',
          previewUrl: 'http://blog.localhost:8181/',
          fidelity: { state: 'completed', score: 99.1, pagesChecked: 2 },
        }),
      },
    });
    renderWithProviders(<UrlForm />);
    const link = await within(await findPanel()).findByRole('link', {
      name: 'http://blog.localhost:8181/',
    });
    expect(link).toBeTruthy();
    expect(within(panel()).getByTestId('preview-fidelity').textContent).toBe(
      'Fidelity 99.1% · 2 pages checked',
    );
    expect(within(panel()).getByRole('button', { name: 'Register to customize' })).toBeTruthy();
    expect(savedIds()).toEqual(['blog']);
    // Nothing was celebrated again.
    expect(toasts()).not.toContain('demo site ID has been saved');
    expect(toasts()).not.toContain('Mirror created successfully');
  });
});

describe('registering from a demo (item 1)', () => {
  it('claims that demo first and lands on its page', async () => {
    window.localStorage.setItem(STORAGE_KEYS.demoSites, JSON.stringify(['failed-1', 'failed-2']));
    server.setRoutes({
      'POST /domains/clone': { status: 201, body: makeClone({ id: 'blog', isDemo: true }) },
      'GET /domains/clone/blog/status': { body: makeStatus('completed', { id: 'blog' }) },
      'GET /domains/clone/failed-2/status': { body: makeStatus('failed', { id: 'failed-2' }) },
      'GET /domains/clone/failed-1/status': { body: makeStatus('failed', { id: 'failed-1' }) },
      'POST /auth/register': { status: 201, body: { user: makeUser(), token: 'fresh-token' } },
      'POST /auth/claim-demos': {
        body: { success: true, claimedIds: ['blog'], message: 'Claimed 1 demo site.' },
      },
    });
    renderWithProviders(<UrlForm />);
    // The two failed demos of an earlier visit are dropped from the list when the page opens.
    await waitFor(() => expect(savedIds()).toBeNull());
    mirror('https://blog.example.com');
    fireEvent.click(
      await within(await findPanel()).findByRole(
        'button',
        { name: 'Register to customize' },
        { timeout: 5_000 },
      ),
    );
    const dialog = within(await screen.findByRole('dialog', { name: 'Create your account' }));
    const values: Record<string, string> = {
      'Full name': 'Ada Lovelace',
      Email: 'ada@example.com',
      Password: 'correct-horse',
      'Confirm password': 'correct-horse',
    };
    for (const [label, value] of Object.entries(values))
      fireEvent.change(dialog.getByLabelText(label), { target: { value } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create account' }));

    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe('/dashboard/site/blog'),
    );
    const claims = server.requests.filter((r) => r.path === '/auth/claim-demos');
    expect(claims.map((c) => c.body)).toEqual([{ demoSiteIds: ['blog'], firstId: 'blog' }]);
  });
});
