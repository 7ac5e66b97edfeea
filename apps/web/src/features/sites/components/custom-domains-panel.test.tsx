import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CustomDomain, DeployBody, PlanId } from '@mirror/contract';
import {
  makeAnalytics,
  makeClone,
  makeUser,
  makeVersion,
  storeToken,
} from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import {
  startTestServer,
  type Routes as ServerRoutes,
  type TestServer,
} from '../../../test/test-server';
import { activeAnswer, makeCustom, overviewOf } from '../../../test/domain-fixtures';
import { SitePage } from './site-page';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const toasts = () => document.querySelector('.Toastify')?.textContent ?? '';
const calls = (method: string, path: string) =>
  server.requests.filter((r) => r.method === method && r.path === path);

async function renderPanel(plan: PlanId, domains: CustomDomain[], extra: ServerRoutes = {}) {
  storeToken();
  server.setRoutes({
    'GET /auth/me': { body: { user: makeUser({ plan }) } },
    'GET /domains/clone/s1': {
      body: makeClone({
        id: 's1',
        status: 'completed',
        progress: 1,
        liveVersionId: 'v1',
        sourceUrl: 'https://example.com/shop',
      }),
    },
    'GET /domains/clone/s1/versions': { body: [makeVersion()] },
    'GET /domains/s1/analytics?period=7d': { body: makeAnalytics() },
    'GET /domains': { body: overviewOf({ custom: domains }) },
    ...extra,
  });
  renderWithProviders(
    <Routes>
      <Route path="/dashboard/site/:id" element={<SitePage />} />
    </Routes>,
    { route: '/dashboard/site/s1' },
  );
  await screen.findByRole('heading', { level: 1, name: 'example.com/shop' });
  const panel = within(screen.getByRole('region', { name: 'Custom domains' }));
  await waitFor(() => expect(panel.getByLabelText(/^Domain/)).toBeTruthy());
  return panel;
}

describe('custom domains on the site page', () => {
  it('connects a domain and shows the records to create, then checks it into Active', async () => {
    let attached: CustomDomain | null = null;
    const panel = await renderPanel('pro', [makeCustom({ id: 'other', siteId: 's2' })], {
      'POST /domains/deploy': ({ body }) => {
        attached = makeCustom({ id: 'c9', domain: (body as DeployBody).domain });
        return { status: 201, body: attached };
      },
      'GET /domains/check/shop.example.com': () => ({ body: activeAnswer(attached!) }),
    });
    // Only this site's domains are listed.
    expect(panel.queryAllByTestId('site-domain')).toHaveLength(0);

    const input = panel.getByLabelText(/^Domain/);
    fireEvent.change(input, { target: { value: 'shop' } });
    fireEvent.blur(input);
    expect(panel.getByText('Invalid domain name format (e.g., example.com)')).toBeTruthy();
    fireEvent.click(panel.getByRole('button', { name: 'Connect domain' }));
    expect(calls('POST', '/domains/deploy')).toHaveLength(0);

    fireEvent.change(input, { target: { value: 'Shop.Example.com' } });
    fireEvent.click(panel.getByRole('button', { name: 'Connect domain' }));
    const item = within(await panel.findByTestId('site-domain'));
    expect(calls('POST', '/domains/deploy').map((call) => call.body)).toEqual([
      { siteId: 's1', domain: 'shop.example.com', setupSSL: true },
    ]);
    await waitFor(() =>
      expect(toasts()).toContain(
        'shop.example.com connected. Create the DNS records shown to activate it.',
      ),
    );
    expect((input as HTMLInputElement).value).toBe('');
    expect(item.getByRole('link', { name: 'shop.example.com' }).getAttribute('href')).toBe(
      '/dashboard/domain/c9',
    );
    const rows = item.getAllByTestId('dns-record');
    expect(rows.map((row) => row.querySelector('.dns-type')?.textContent)).toEqual([
      'CNAME',
      'TXT',
    ]);
    expect(rows[0]!.textContent).toContain('sites.mirror.test');
    expect(item.getByRole('status').textContent).toBe('DNS Status: Pending');

    fireEvent.click(item.getByRole('button', { name: 'Check Now' }));
    await waitFor(() => expect(item.getByRole('status').textContent).toBe('DNS Status: Active'));
    expect(rows.map((row) => row.getAttribute('data-status'))).toEqual(['ok', 'ok']);
    expect(item.getByRole('link', { name: 'https://shop.example.com/' })).toBeTruthy();
  });

  it('shows the plan limit the server answers and adds nothing', async () => {
    const limit =
      'Custom domains are available on Mirror Pro (2 domains) and Mirror Agency (15 domains). Upgrade to connect your own domain.';
    const panel = await renderPanel('free', [], {
      'POST /domains/deploy': { status: 403, body: { message: limit } },
    });
    expect(
      panel.getByText(/Mirror Pro: 2 custom domains · Mirror Agency: 15 custom domains/),
    ).toBeTruthy();
    fireEvent.change(panel.getByLabelText(/^Domain/), { target: { value: 'shop.example.com' } });
    fireEvent.click(panel.getByRole('button', { name: 'Connect domain' }));
    const alert = await panel.findByRole('alert');
    expect(alert.textContent).toBe(limit);
    expect(panel.queryAllByTestId('site-domain')).toHaveLength(0);
    expect((panel.getByLabelText(/^Domain/) as HTMLInputElement).value).toBe('shop.example.com');
  });

  it('removes a domain after confirming', async () => {
    const panel = await renderPanel('pro', [makeCustom()], {
      'DELETE /domains/domain/c1': { body: { success: true, message: 'Domain removed.' } },
    });
    expect(panel.getAllByTestId('site-domain')).toHaveLength(1);
    fireEvent.click(panel.getByRole('button', { name: 'Remove shop.example.com' }));
    fireEvent.click(
      within(screen.getByRole('alertdialog', { name: 'Delete this domain?' })).getByRole('button', {
        name: 'Delete domain',
      }),
    );
    await waitFor(() => expect(panel.queryAllByTestId('site-domain')).toHaveLength(0));
    expect(calls('DELETE', '/domains/domain/c1')).toHaveLength(1);
    await waitFor(() => expect(toasts()).toContain('shop.example.com deleted.'));
  });
});
