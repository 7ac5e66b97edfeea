import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeClone, makeStatus, makeUser, storeToken } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { startTestServer, type Routes, type TestServer } from '../../test/test-server';
import { DnsSetupModal } from './dns-setup-modal';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const previewUrl = 'http://calm-river.localhost:8181/';
const calls = (method: string, path: string) =>
  server.requests.filter((r) => r.method === method && r.path === path);
const toasts = () => document.querySelector('.Toastify')?.textContent ?? '';

async function renderModal(routes: Routes = {}) {
  storeToken();
  server.setRoutes({
    'GET /auth/me': { body: { user: makeUser({ plan: 'pro' }) } },
    'GET /domains/clones': {
      body: [
        makeClone({ id: 'old', createdAt: '2025-01-01T00:00:00.000Z', previewUrl: 'http://x/' }),
        makeClone({
          id: 's1',
          status: 'completed',
          previewUrl,
          createdAt: '2025-02-01T00:00:00.000Z',
        }),
      ],
    },
    ...routes,
  });
  const onClose = vi.fn();
  renderWithProviders(<DnsSetupModal onClose={onClose} />, { route: '/billing' });
  const dialog = within(await screen.findByRole('dialog', { name: 'Set up your site' }));
  await dialog.findByText('Temporary URL');
  return { dialog, onClose };
}

function chooseDomain(dialog: ReturnType<typeof within>, domain: string) {
  fireEvent.change(dialog.getByLabelText('Custom domain (optional)'), {
    target: { value: domain },
  });
}

describe('DNS setup modal', () => {
  it("shows the newest site's address and, for a custom domain, the CNAME record to add", async () => {
    const { dialog } = await renderModal();
    expect(dialog.getByRole('link', { name: previewUrl }).getAttribute('href')).toBe(previewUrl);
    expect(dialog.queryByText('CNAME')).toBeNull();

    chooseDomain(dialog, 'not a domain');
    expect(dialog.getByText('Invalid domain name format (e.g., example.com)')).toBeTruthy();
    chooseDomain(dialog, 'shop.example.com');
    expect(dialog.getByText('https://shop.example.com')).toBeTruthy();
    expect(dialog.getByText('CNAME')).toBeTruthy();
    expect(dialog.getByText('@')).toBeTruthy();
    expect(dialog.getByTestId('dns-record-value').textContent).toBe('localhost');
    expect(dialog.getByText('DNS Status: Checking...')).toBeTruthy();
    expect(dialog.getByText('DNS changes may take up to 24 hours to take effect.')).toBeTruthy();
    // The input carries the product's sites host as its suffix.
    expect(dialog.getByText('.localhost')).toBeTruthy();
  });

  it('copies the DNS record value', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { dialog } = await renderModal();
    chooseDomain(dialog, 'shop.example.com');
    fireEvent.click(dialog.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('localhost');
    await waitFor(() => expect(toasts()).toContain('DNS record copied to clipboard!'));
  });

  it('checks the domain with the real call and shows its answer or its error', async () => {
    const { dialog } = await renderModal({
      'GET /domains/check/shop.example.com': { status: 404, body: { message: 'No route' } },
    });
    chooseDomain(dialog, 'shop.example.com');
    fireEvent.click(dialog.getByRole('button', { name: 'Check Now' }));
    await waitFor(() => expect(toasts()).toContain('Failed to check DNS status'));
    expect(dialog.getByText('No route')).toBeTruthy();
    expect(dialog.getByText('DNS Status: Checking...')).toBeTruthy();

    server.setRoutes({
      'GET /domains/check/shop.example.com': {
        body: { status: 'pending', reason: 'No CNAME record for shop.example.com yet.' },
      },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Check Now' }));
    await waitFor(() =>
      expect(toasts()).toContain(
        'DNS propagation is still in progress. Please check again in a few minutes.',
      ),
    );

    expect(dialog.getByText('No CNAME record for shop.example.com yet.')).toBeTruthy();

    server.setRoutes({ 'GET /domains/check/shop.example.com': { body: { status: 'active' } } });
    fireEvent.click(dialog.getByRole('button', { name: 'Check Now' }));
    expect(await dialog.findByText('DNS Status: Active')).toBeTruthy();
    expect(calls('GET', '/domains/check/shop.example.com')).toHaveLength(3);
  });

  it('applies AI instructions to the site, and needs a subdomain or instructions', async () => {
    const { dialog } = await renderModal({
      'PUT /domains/clone/s1/customize': {
        status: 202,
        body: makeStatus('pending', { id: 's1' }),
      },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Apply Customizations' }));
    expect(
      dialog.getByText('Please provide either a custom subdomain or AI instructions'),
    ).toBeTruthy();
    expect(calls('PUT', '/domains/clone/s1/customize')).toHaveLength(0);

    fireEvent.change(dialog.getByLabelText('AI instructions'), {
      target: { value: ' Change the company name to Acme ' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Apply Customizations' }));
    await waitFor(() =>
      expect(toasts()).toContain(
        "Your changes are being made as a draft. Review and publish them on the site's page.",
      ),
    );
    expect(calls('PUT', '/domains/clone/s1/customize')[0]?.body).toEqual({
      customizations: { instructions: 'Change the company name to Acme' },
      regenerate: true,
    });
  });

  it('moves the site to the subdomain typed in, and shows the server refusal', async () => {
    let taken = true;
    const { dialog } = await renderModal({
      'PUT /domains/clone/s1': () =>
        taken
          ? {
              status: 409,
              body: { message: 'This subdomain is already taken. Please choose another one.' },
            }
          : { body: makeClone({ id: 's1', previewUrl: 'http://bakery.localhost:8181/' }) },
    });
    const field = () => dialog.getByLabelText(/^Custom subdomain/);
    fireEvent.change(field(), { target: { value: 'bakery' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Apply Customizations' }));
    await waitFor(() =>
      expect(toasts()).toContain('This subdomain is already taken. Please choose another one.'),
    );
    taken = false;
    fireEvent.click(dialog.getByRole('button', { name: 'Apply Customizations' }));
    await waitFor(() =>
      expect(toasts()).toContain('Your site now lives at bakery.localhost:8181.'),
    );
    expect(calls('PUT', '/domains/clone/s1').map((c) => c.body)).toEqual([
      { targetDomain: 'bakery' },
      { targetDomain: 'bakery' },
    ]);
    expect(calls('PUT', '/domains/clone/s1/customize')).toHaveLength(0);
  });

  it('shows only the new address once the subdomain is changed (the old one answers 404)', async () => {
    const moved = 'http://bakery.localhost:8181/';
    const { dialog } = await renderModal({
      'PUT /domains/clone/s1': { body: makeClone({ id: 's1', previewUrl: moved }) },
    });
    const siteUrl = () => dialog.getByText('Site URL').nextElementSibling?.textContent;
    expect(siteUrl()).toBe(previewUrl);

    fireEvent.change(dialog.getByLabelText(/^Custom subdomain/), { target: { value: 'bakery' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Apply Customizations' }));

    const link = await dialog.findByRole('link', { name: moved });
    expect(link.getAttribute('href')).toBe(moved);
    expect(siteUrl()).toBe(moved);
    const modal = screen.getByRole('dialog', { name: 'Set up your site' });
    expect(modal.textContent).not.toContain('calm-river');
    expect([...modal.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([moved]);

    // A custom domain chosen afterwards is the site's address; the temporary one is the new one.
    chooseDomain(dialog, 'shop.example.com');
    expect(siteUrl()).toBe('https://shop.example.com');
    expect(dialog.getByRole('link', { name: moved })).toBeTruthy();
    expect(modal.textContent).not.toContain('calm-river');
  });

  it("goes to the dashboard with 'Go to Dashboard' and closes with 'Close'", async () => {
    const { dialog, onClose } = await renderModal();
    fireEvent.click(dialog.getAllByRole('button', { name: 'Close' }).at(-1)!);
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.click(dialog.getByRole('button', { name: 'Go to Dashboard' }));
    expect(onClose).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
  });

  it('says when there is no site yet', async () => {
    storeToken();
    server.setRoutes({
      'GET /auth/me': { body: { user: makeUser({ plan: 'pro' }) } },
      'GET /domains/clones': { body: [] },
    });
    renderWithProviders(<DnsSetupModal onClose={() => {}} />);
    expect(
      await screen.findByText(
        'You have no mirrored site yet. Mirror a website and it is served on your new plan.',
      ),
    ).toBeTruthy();
    expect(screen.queryByLabelText('AI instructions')).toBeNull();
  });
});
