import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DomainListItem, DowngradePreview, PlanId } from '@mirror/contract';
import { makeClone, makeUser, storeToken } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import {
  startTestServer,
  type Reply,
  type Routes,
  type TestServer,
} from '../../../test/test-server';
import { DashboardPage } from './dashboard-page';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const now = new Date();
const thisMonth = new Date(now.getFullYear(), now.getMonth(), 1, 12).toISOString();
const sites = [
  makeClone({
    id: 'a',
    status: 'completed',
    sourceUrl: 'https://alpha.example',
    createdAt: '2024-03-01T10:00:00.000Z',
    updatedAt: '2024-03-01T10:02:00.000Z',
  }),
  makeClone({
    id: 'b',
    status: 'completed',
    sourceUrl: 'https://beta.example/shop',
    previewUrl: 'http://beta.localhost:8181/',
    thumbnailUrl: `/api/screenshots/${'b'.repeat(64)}.jpg`,
    createdAt: thisMonth,
    updatedAt: thisMonth,
  }),
  makeClone({
    id: 'c',
    status: 'processing',
    sourceUrl: 'https://gamma.example',
    previewUrl: null,
    createdAt: '2024-02-01T10:00:00.000Z',
    updatedAt: '2024-02-01T10:00:30.000Z',
  }),
];

function serve(plan: PlanId, overview: unknown, isReply = false, extra: Routes = {}) {
  storeToken();
  server.setRoutes({
    'GET /auth/me': { body: { user: makeUser({ plan }) } },
    'GET /domains': isReply ? (overview as Reply) : { body: overview },
    ...extra,
  });
  renderWithProviders(<DashboardPage />, { route: '/dashboard' });
}

const stat = (key: string) => screen.getByTestId(`stat-${key}`);

function domainItem(overrides: Partial<DomainListItem>): DomainListItem {
  return {
    id: 'd1',
    kind: 'parked',
    domain: 'example.com',
    status: 'pending',
    siteId: null,
    createdAt: '2025-01-10T10:00:00.000Z',
    ...overrides,
  };
}

/** What GET /payments/downgrade-preview answers for the current plan. */
function limitsOf(overrides: Partial<DowngradePreview> = {}): DowngradePreview {
  return {
    plan: 'free',
    effectiveAt: '2026-02-01T00:00:00.000Z',
    sites: { count: 3, limit: 1, readOnly: [] },
    syncsStopping: [],
    customDomains: { count: 0, limit: 0, detaching: [] },
    customSubdomain: false,
    chosenSubdomains: 0,
    graceDays: 14,
    ...overrides,
  };
}

describe('dashboard', () => {
  it('says what is over the plan after a downgrade: read-only sites and the detach date', async () => {
    serve('free', { sites, domains: [] }, false, {
      'GET /payments/downgrade-preview': {
        body: limitsOf({
          sites: {
            count: 3,
            limit: 1,
            readOnly: [
              { id: 'a', sourceUrl: 'https://alpha.example' },
              { id: 'c', sourceUrl: 'https://gamma.example' },
            ],
          },
          customDomains: {
            count: 1,
            limit: 0,
            detaching: [
              { id: 'd1', domain: 'shop.example.com', detachAt: '2026-02-15T12:00:00.000Z' },
            ],
          },
        }),
      },
    });
    const notice = await screen.findByTestId('over-limit');
    expect(within(notice).getByRole('heading').textContent).toBe(
      "Your account is over its plan's limits",
    );
    expect(
      within(notice)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '2 of your 3 sites are read-only because your plan includes 1: alpha.example, gamma.example. They stay online; delete sites or upgrade to re-mirror or customize them.',
      'Custom domains detached on Feb 15, 2026: shop.example.com. Upgrade before then to keep them.',
    ]);
    expect(
      within(notice).getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href'),
    ).toBe('/billing');
  });

  it('shows no notice when the account is within its plan', async () => {
    serve('pro', { sites, domains: [] }, false, {
      'GET /payments/downgrade-preview': { body: limitsOf({ plan: 'pro' }) },
    });
    await screen.findAllByTestId('site-row');
    await waitFor(() =>
      expect(server.requests.some((r) => r.path === '/payments/downgrade-preview')).toBe(true),
    );
    expect(screen.queryByTestId('over-limit')).toBeNull();
  });

  it('counts sites, domains and the plan from the server', async () => {
    serve('pro', {
      sites,
      domains: [
        domainItem({ id: 'd1', domain: 'shop.example.com', kind: 'custom', status: 'active' }),
        domainItem({ id: 'd2', domain: 'parked-one.com', status: 'pending' }),
        domainItem({ id: 'd3', domain: 'parked-two.com', status: 'active' }),
      ],
    });
    await waitFor(() => expect(within(stat('sites')).getByText('3')).toBeTruthy());
    expect(within(stat('parked')).getByText('2')).toBeTruthy();
    expect(within(stat('active')).getByText('2')).toBeTruthy();
    await waitFor(() => expect(within(stat('plan')).getByText('Mirror Pro')).toBeTruthy());
    expect(screen.getByTestId('plan-usage').textContent).toBe('Usage: 3 / 5');
    expect(screen.getByText('Active mirrors: 2')).toBeTruthy();
    expect(screen.getByText('This month: +1')).toBeTruthy();
    expect(screen.getByText('Current plan: Mirror Pro')).toBeTruthy();
    expect(screen.getByText('Revenue: $0.00')).toBeTruthy();
    expect(server.requests.filter((r) => r.path === '/domains')).toHaveLength(1);

    const links = ['Mirror a website', 'Park a domain', 'Manage billing'].map((name) =>
      screen.getByRole('link', { name }).getAttribute('href'),
    );
    expect(links).toEqual(['/', '/park-domain', '/billing']);
  });

  it('lists each site with its status, source, preview and manage links', async () => {
    serve('free', { sites, domains: [] });
    const rows = await screen.findAllByTestId('site-row');
    // Newest first.
    expect(rows.map((row) => row.querySelector('.site-row-name')?.textContent)).toEqual([
      'beta.example/shop',
      'alpha.example',
      'gamma.example',
    ]);
    const beta = rows[0]!;
    // Without a title, the host is the name, shown once.
    expect(beta.querySelector('.site-row-host')).toBeNull();
    expect(within(beta).getByText('Completed').className).toContain('status-completed');
    expect(within(beta).getByText('https://beta.example/shop')).toBeTruthy();
    expect(
      within(beta).getByRole('link', { name: 'Preview beta.example/shop' }).getAttribute('href'),
    ).toBe('http://beta.localhost:8181/');
    expect(
      within(beta).getByRole('link', { name: 'Manage beta.example/shop' }).getAttribute('href'),
    ).toBe('/dashboard/site/b');
    // The live version's thumbnail, once one has been made; none before that.
    expect(
      within(beta).getByRole('img', { name: 'Thumbnail of beta.example/shop' }).getAttribute('src'),
    ).toBe(`/api/screenshots/${'b'.repeat(64)}.jpg`);
    const gamma = rows[2]!;
    expect(within(gamma).getByText('Processing').className).toContain('status-processing');
    expect(within(gamma).queryByRole('link', { name: /^Preview/ })).toBeNull();
    expect(within(gamma).queryByRole('img')).toBeNull();
  });

  it('says when a sync last found the site changed, and which pages (issue 33)', async () => {
    const digest = {
      summary: '3 pages changed: /pricing (Pro now $12), /about, /blog, …',
      unchanged: false,
      pagesChanged: 4,
      pagesAdded: 0,
      pagesRemoved: 0,
      filesChanged: 0,
      paths: ['/pricing', '/about', '/blog'],
    };
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const yesterday = new Date(Date.now() - 26 * 3_600_000).toISOString();
    serve('pro', {
      sites: [
        makeClone({
          id: 'a',
          sourceUrl: 'https://a.example/',
          lastChange: { at: twoHoursAgo, digest },
        }),
        makeClone({
          id: 'b',
          sourceUrl: 'https://b.example/',
          createdAt: '2024-01-01T00:00:00.000Z',
          lastChange: {
            at: yesterday,
            digest: {
              ...digest,
              pagesChanged: 0,
              filesChanged: 3,
              paths: [],
              summary: '3 files changed',
            },
          },
        }),
        makeClone({
          id: 'c',
          sourceUrl: 'https://c.example/',
          createdAt: '2023-01-01T00:00:00.000Z',
        }),
      ],
      domains: [],
    });
    const rows = await screen.findAllByTestId('site-row');
    const change = (row: HTMLElement) => row.querySelector('.site-row-change')?.textContent;
    expect(rows.map(change)).toEqual([
      'Changed 2 hours ago: /pricing, /about, /blog, …',
      'Changed yesterday: Files changed: 3',
      undefined,
    ]);
  });

  it("names a site by its home page's title, with the host beneath", async () => {
    const titled = [
      makeClone({
        id: 't',
        status: 'completed',
        title: 'Clean Blog',
        sourceUrl: 'http://127.0.0.1:8392/',
        thumbnailUrl: `/api/screenshots/${'t'.repeat(64)}.jpg`,
      }),
    ];
    serve('free', { sites: titled, domains: [] });
    const [row] = await screen.findAllByTestId('site-row');
    expect(row!.querySelector('.site-row-name')?.textContent).toBe('Clean Blog');
    expect(row!.querySelector('.site-row-host')?.textContent).toBe('127.0.0.1:8392');
    expect(within(row!).getByRole('link', { name: 'Manage Clean Blog' })).toBeTruthy();
    expect(within(row!).getByRole('img', { name: 'Thumbnail of Clean Blog' })).toBeTruthy();
    const panel = screen.getByRole('region', { name: 'Recent Activity' });
    expect(within(panel).getByText('Mirror of Clean Blog started')).toBeTruthy();
  });

  it('builds the recent activity from the sites, newest first', async () => {
    serve('free', { sites, domains: [] });
    const panel = await screen.findByRole('region', { name: 'Recent Activity' });
    await waitFor(() => expect(within(panel).getAllByRole('listitem').length).toBeGreaterThan(0));
    const items = within(panel)
      .getAllByRole('listitem')
      .map((item) => item.querySelector('.activity-text')?.textContent);
    expect(items).toEqual([
      'Mirror of beta.example/shop started',
      'Mirror of alpha.example completed',
      'Mirror of alpha.example started',
      'Mirror of gamma.example in progress',
      'Mirror of gamma.example started',
    ]);
  });

  it('shows zeros, the free plan usage and no activity for a new account', async () => {
    serve('free', { sites: [], domains: [] });
    expect(await screen.findByText('No recent activity')).toBeTruthy();
    for (const key of ['sites', 'parked', 'active'])
      expect(within(stat(key)).getByText('0')).toBeTruthy();
    await waitFor(() => expect(within(stat('plan')).getByText('Reflection')).toBeTruthy());
    expect(screen.getByTestId('plan-usage').textContent).toBe('Usage: 0 / 1');
    expect(screen.getByText('You have not mirrored a website yet.')).toBeTruthy();
  });

  it('shows unlimited usage for the agency plan', async () => {
    serve('agency', { sites: sites.slice(0, 1), domains: [] });
    await waitFor(() =>
      expect(screen.getByTestId('plan-usage').textContent).toBe('Usage: 1 / unlimited'),
    );
  });

  it('lists the domains split into active and pending, each linking to its page', async () => {
    serve('pro', {
      sites: [],
      domains: [
        domainItem({ id: 'd1', domain: 'shop.example.com', kind: 'custom', status: 'active' }),
        domainItem({ id: 'd2', domain: 'parked-one.com', status: 'pending' }),
        domainItem({
          id: 'd3',
          domain: 'broken.example.org',
          kind: 'custom',
          status: 'misconfigured',
          createdAt: '2025-02-01T10:00:00.000Z',
        }),
      ],
    });
    const active = within(await screen.findByTestId('domains-active'));
    const pending = within(screen.getByTestId('domains-pending'));
    expect(active.getByRole('heading', { name: 'Active (1)' })).toBeTruthy();
    expect(active.getByRole('link', { name: 'shop.example.com' }).getAttribute('href')).toBe(
      '/dashboard/domain/d1',
    );
    expect(active.getByText('Custom domain')).toBeTruthy();
    expect(pending.getByRole('heading', { name: 'Pending (2)' })).toBeTruthy();
    // Newest first; a misconfigured domain is not active yet and says why it waits.
    expect(
      pending.getAllByTestId('domain-row').map((row) => row.querySelector('a')?.textContent),
    ).toEqual(['broken.example.org', 'parked-one.com']);
    expect(pending.getByText('Misconfigured')).toBeTruthy();
    expect(pending.getByText('Parked domain')).toBeTruthy();
  });

  it('invites to park a domain when there is none', async () => {
    serve('free', { sites: [], domains: [] });
    expect(await screen.findByText('You have no domains yet.')).toBeTruthy();
  });

  it('says when the list cannot be loaded and retries', async () => {
    serve('free', { status: 500, body: { message: 'Failed to fetch domains' } }, true);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to fetch domains');
    server.setRoutes({
      'GET /auth/me': { body: { user: makeUser() } },
      'GET /domains': { body: { sites, domains: [] } },
    });
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(within(stat('sites')).getByText('3')).toBeTruthy());
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
