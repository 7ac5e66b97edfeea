import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  activeAnswer,
  makeCustom,
  makeRecord,
  overviewOf,
  txtRecord,
} from '../../test/domain-fixtures';
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

async function renderModal(routes: Routes = {}, plan: 'free' | 'pro' = 'pro') {
  storeToken();
  server.setRoutes({
    'GET /auth/me': { body: { user: makeUser({ plan }) } },
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
    'GET /domains': { body: overviewOf() },
    ...routes,
  });
  const onClose = vi.fn();
  renderWithProviders(<DnsSetupModal onClose={onClose} />, { route: '/billing' });
  const dialog = within(await screen.findByRole('dialog', { name: 'Set up your site' }));
  await dialog.findByRole('link', { name: previewUrl });
  return { dialog, onClose };
}

const siteUrl = (dialog: ReturnType<typeof within>) =>
  dialog.getByText('Site URL').nextElementSibling?.textContent;

async function connect(dialog: ReturnType<typeof within>, domain: string) {
  fireEvent.change(await dialog.findByLabelText('Custom domain (optional)'), {
    target: { value: domain },
  });
  fireEvent.click(dialog.getByRole('button', { name: 'Connect domain' }));
}

/** What the server answers for shop.samsbakery.com: a CNAME named `shop`, and the TXT proof. */
const bakery = makeCustom({
  domain: 'shop.samsbakery.com',
  siteId: 's1',
  records: [
    makeRecord({ name: 'shop', host: 'shop.samsbakery.com', value: 'localhost' }),
    txtRecord('shop.samsbakery.com'),
  ],
});

describe('DNS setup modal', () => {
  it('shows one address until a domain is connected, never the same address twice', async () => {
    const { dialog } = await renderModal();
    expect(siteUrl(dialog)).toBe(previewUrl);
    expect(dialog.queryByText('Temporary URL')).toBeNull();
    expect(dialog.getAllByText(previewUrl)).toHaveLength(1);
    // Nothing is saved until "Connect domain" is pressed, and the field says so.
    expect(
      (await dialog.findByText(/Nothing is saved until you press “Connect domain”/)).textContent,
    ).toContain('shop.example.com');
    expect(dialog.queryByText('CNAME')).toBeNull();
  });

  it('connects the typed domain and shows the records the site page shows: no CNAME at @', async () => {
    const { dialog } = await renderModal({
      'POST /domains/deploy': { status: 201, body: bakery },
    });
    await connect(dialog, ' Shop.SamsBakery.com ');
    const records = await dialog.findAllByTestId('dns-record');
    expect(calls('POST', '/domains/deploy').map((c) => c.body)).toEqual([
      { siteId: 's1', domain: 'shop.samsbakery.com', setupSSL: true },
    ]);
    const rows = records.map((row) => [
      row.querySelector('.dns-type')?.textContent,
      row.querySelector('.dns-name')?.textContent,
      row.querySelector('.dns-value')?.textContent,
    ]);
    expect(rows).toEqual([
      ['CNAME', 'shop', 'localhost'],
      ['TXT', '_mirror-challenge.shop', 'mirror-verification=token-123'],
    ]);
    expect(dialog.queryByText('@')).toBeNull();
    // Now the domain is the site's address, the temporary one beside it.
    expect(siteUrl(dialog)).toBe('https://shop.samsbakery.com/ Pending');
    expect(dialog.getByText('Temporary URL')).toBeTruthy();
    expect(dialog.getByRole('link', { name: previewUrl })).toBeTruthy();
    await waitFor(() =>
      expect(toasts()).toContain(
        'shop.samsbakery.com connected. Create the DNS records shown to activate it.',
      ),
    );
  });

  it('shows A/AAAA records for a root domain, as the site page does', async () => {
    const apex = makeCustom({
      domain: 'samsbakery.com',
      siteId: 's1',
      isApex: true,
      records: [
        makeRecord({ type: 'A', name: '@', host: 'samsbakery.com', value: '203.0.113.7' }),
        makeRecord({ type: 'AAAA', name: '@', host: 'samsbakery.com', value: '2001:db8::7' }),
        txtRecord('samsbakery.com'),
      ],
    });
    const { dialog } = await renderModal({ 'POST /domains/deploy': { status: 201, body: apex } });
    await connect(dialog, 'samsbakery.com');
    const types = (await dialog.findAllByTestId('dns-record')).map(
      (row) => row.querySelector('.dns-type')?.textContent,
    );
    expect(types).toEqual(['A', 'AAAA', 'TXT']);
    expect(dialog.queryByText('CNAME')).toBeNull();
  });

  it('says clearly that nothing was saved when the server refuses the domain', async () => {
    const { dialog } = await renderModal({
      'POST /domains/deploy': {
        status: 409,
        body: { message: 'This domain is already connected to a site.' },
      },
    });
    await connect(dialog, 'shop.samsbakery.com');
    expect((await dialog.findByRole('alert')).textContent).toBe(
      'This domain is already connected to a site. The domain was not saved.',
    );
    expect(siteUrl(dialog)).toBe(previewUrl);
    expect(dialog.queryByTestId('dns-record')).toBeNull();
  });

  it('shows a domain already connected to the site, and checks it with the real call', async () => {
    const { dialog } = await renderModal({
      'GET /domains': { body: overviewOf({ custom: [bakery] }) },
      'GET /domains/check/shop.samsbakery.com': { body: activeAnswer(bakery) },
    });
    expect(await dialog.findAllByTestId('dns-record')).toHaveLength(2);
    expect(dialog.queryByLabelText('Custom domain (optional)')).toBeNull();
    fireEvent.click(dialog.getByRole('button', { name: 'Check Now' }));
    await waitFor(() => expect(siteUrl(dialog)).toBe('https://shop.samsbakery.com/ Active'));
    expect(calls('GET', '/domains/check/shop.samsbakery.com')).toHaveLength(1);
  });

  it('on the free plan, says custom domains need an upgrade before any domain is typed', async () => {
    const { dialog } = await renderModal({}, 'free');
    expect(dialog.getByTestId('dns-upgrade').textContent).toContain(
      'Custom domains need Mirror Pro or Mirror Agency',
    );
    expect(dialog.getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).toBe(
      '/billing',
    );
    expect(dialog.queryByLabelText('Custom domain (optional)')).toBeNull();
    expect(calls('GET', '/domains')).toHaveLength(0);
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
    expect(siteUrl(dialog)).toBe(previewUrl);

    fireEvent.change(dialog.getByLabelText(/^Custom subdomain/), { target: { value: 'bakery' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Apply Customizations' }));

    const link = await dialog.findByRole('link', { name: moved });
    expect(link.getAttribute('href')).toBe(moved);
    expect(siteUrl(dialog)).toBe(moved);
    const modal = screen.getByRole('dialog', { name: 'Set up your site' });
    expect(modal.textContent).not.toContain('calm-river');
    expect([...modal.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([moved]);

    // A custom domain connected afterwards is the site's address; the temporary one is the new one.
    server.setRoutes({
      'GET /auth/me': { body: { user: makeUser({ plan: 'pro' }) } },
      'POST /domains/deploy': { status: 201, body: makeCustom({ siteId: 's1' }) },
    });
    await connect(dialog, 'shop.example.com');
    await waitFor(() => expect(siteUrl(dialog)).toBe('https://shop.example.com/ Pending'));
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
