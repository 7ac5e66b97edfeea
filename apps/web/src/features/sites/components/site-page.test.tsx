import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnalyticsResponse, CloneRecord, PlanId, SiteVersion } from '@mirror/contract';
import {
  makeAnalytics,
  makeClone,
  makeStatus,
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
import { SitePage } from './site-page';

const previewUrl = 'http://calm-river.localhost:8181/';
/** The live version on its preview host, where the owner's looks are not counted. */
const ownerPreviewUrl = 'http://v-11111111111111111111111111111111.localhost:8181/';
let server: TestServer;
let site: CloneRecord;
let versions: SiteVersion[];

const analytics = (period: string, visits: number): AnalyticsResponse => ({
  period: period as AnalyticsResponse['period'],
  days: [
    {
      date: '2025-01-09',
      visits: visits - 4,
      pageViews: visits * 2 - 5,
      uniqueVisitors: visits - 5,
      bytes: 3 * 1024 * 1024,
    },
    { date: '2025-01-10', visits: 4, pageViews: 5, uniqueVisitors: 3, bytes: 512 * 1024 },
  ],
  totals: {
    visits,
    pageViews: visits * 2,
    uniqueVisitors: visits - 2,
    bytes: 3.5 * 1024 * 1024,
    botViews: 9,
  },
  topPages: [
    { path: '/', views: 15 },
    { path: '/pricing.html', views: 6 },
  ],
  topReferrers: [{ host: 'news.example', visits: 4 }],
});

function routes(plan: PlanId, extra: ServerRoutes = {}): ServerRoutes {
  return {
    'GET /auth/me': { body: { user: makeUser({ plan }) } },
    'GET /domains/clone/s1': () => ({ body: site }),
    'GET /domains/clone/s1/versions': () => ({ body: versions }),
    'GET /domains/s1/analytics?period=7d': { body: analytics('7d', 12) },
    'GET /domains/s1/analytics?period=30d': { body: analytics('30d', 345) },
    ...extra,
  };
}

beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(() => server.close());
beforeEach(() => {
  site = makeClone({
    id: 's1',
    status: 'completed',
    currentStatus: 'mirror created successfully',
    progress: 1,
    liveVersionId: 'v1',
    ownerPreviewUrl,
    sourceUrl: 'https://example.com/shop',
  });
  versions = [makeVersion({ id: 'v1', number: 1, isLive: true })];
});
afterEach(() => {
  server.requests.length = 0;
});

async function renderSite(plan: PlanId = 'free', extra: ServerRoutes = {}) {
  storeToken();
  server.setRoutes(routes(plan, extra));
  renderWithProviders(
    <Routes>
      <Route path="/dashboard/site/:id" element={<SitePage />} />
      <Route path="/dashboard" element={<p>Dashboard here</p>} />
    </Routes>,
    { route: '/dashboard/site/s1' },
  );
  await screen.findByRole('heading', { level: 1, name: 'example.com/shop' });
}

const calls = (method: string, path: string) =>
  server.requests.filter((r) => r.method === method && r.path === path);
const versionRows = () => screen.getAllByTestId('version-row');
const liveRow = () => versionRows().find((row) => within(row).queryByText('Live'));

describe('site page', () => {
  it('shows the source, status, sandboxed live preview, address and versions', async () => {
    await renderSite();
    expect(screen.getByRole('link', { name: 'https://example.com/shop' })).toBeTruthy();
    expect(screen.getAllByText('Completed')[0]!.className).toContain('status-completed');
    expect(screen.getByRole('link', { name: 'Open preview' }).getAttribute('href')).toBe(
      previewUrl,
    );
    // The frame shows the public address but loads the live version from its preview host, so
    // the owner looking at the site page is not counted as a visitor.
    const frame = document.querySelector('iframe')!;
    expect(frame.getAttribute('src')).toBe(ownerPreviewUrl);
    expect(document.querySelector('.site-frame-url')?.textContent).toBe(previewUrl);
    expect(frame.getAttribute('sandbox')).toBe(
      'allow-scripts allow-same-origin allow-forms allow-popups',
    );
    expect(
      (screen.getByRole('textbox', { name: 'Preview address' }) as HTMLInputElement).value,
    ).toBe(previewUrl);
    await waitFor(() => expect(versionRows()).toHaveLength(1));
    expect(within(liveRow()!).getByText('Version 1')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Publish version/ })).toBeNull();
    expect((await screen.findByTestId('analytics-visits')).textContent).toBe('12');
  });

  it("is headed by the home page's title, with the host beneath, also in the tab", async () => {
    site = { ...site, title: 'Clean Blog', sourceUrl: 'http://127.0.0.1:8392/' };
    storeToken();
    server.setRoutes(routes('free'));
    renderWithProviders(
      <Routes>
        <Route path="/dashboard/site/:id" element={<SitePage />} />
      </Routes>,
      { route: '/dashboard/site/s1' },
    );
    const heading = await screen.findByRole('heading', { level: 1, name: 'Clean Blog' });
    expect(heading.nextElementSibling?.textContent).toBe('127.0.0.1:8392');
    await waitFor(() => expect(document.title).toBe('Site Clean Blog | Mirror'));
  });

  it('copies the preview address', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await renderSite();
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(previewUrl);
    expect(await screen.findByText('Preview address copied to clipboard!')).toBeTruthy();
  });

  it('re-mirrors, follows the run and lists the new live version', async () => {
    await renderSite('free', {
      'POST /domains/clone/s1/remirror': () => {
        site = {
          ...site,
          status: 'pending',
          currentStatus: 'starting mirror process',
          progress: 0,
        };
        versions = [
          makeVersion({ id: 'v2', number: 2, status: 'pending', isLive: false }),
          ...versions,
        ];
        return { status: 202, body: site };
      },
      'GET /domains/clone/s1/status': () => {
        site = { ...site, status: 'completed', progress: 1, liveVersionId: 'v2' };
        versions = [
          makeVersion({ id: 'v2', number: 2, isLive: true }),
          makeVersion({ id: 'v1', number: 1, isLive: false }),
        ];
        return { body: makeStatus('completed', { id: 's1' }) };
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Re-mirror' }));
    expect(await screen.findByText('Re-mirror started.')).toBeTruthy();
    expect(calls('POST', '/domains/clone/s1/remirror')).toHaveLength(1);
    // While the run goes on, its status shows and a second re-mirror cannot start.
    await waitFor(() =>
      expect(
        (screen.getByRole('button', { name: 'Re-mirror' }) as HTMLButtonElement).disabled,
      ).toBe(true),
    );

    await waitFor(() => expect(within(liveRow()!).getByText('Version 2')).toBeTruthy());
    expect(versionRows()).toHaveLength(2);
    expect(calls('GET', '/domains/clone/s1/status')).toHaveLength(1);
    expect(await screen.findByText('Mirror created successfully')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Re-mirror' }) as HTMLButtonElement).disabled).toBe(
      false,
    );
    expect(screen.getByRole('button', { name: 'Publish version 1' })).toBeTruthy();
  });

  it('marks only the version the site record names as live, even from a list fetched earlier', async () => {
    site = { ...site, liveVersionId: 'v2' };
    // The list still says version 1 is live: it was read before the publish.
    versions = [
      makeVersion({ id: 'v2', number: 2, isLive: false }),
      makeVersion({ id: 'v1', number: 1, isLive: true }),
    ];
    await renderSite();
    await waitFor(() => expect(versionRows()).toHaveLength(2));
    const live = versionRows().filter((row) => within(row).queryByText('Live'));
    expect(live.map((row) => row.getAttribute('aria-label'))).toEqual(['Version 2']);
  });

  it('says once, in the run panel, why the last run failed; older failures stay in their rows', async () => {
    site = {
      ...site,
      status: 'failed',
      currentStatus: 'mirror failed',
      error:
        'Nothing could be fetched from https://example.com/shop: the server did not answer in time.',
      errorKind: 'timeout',
      errorDetail: 'https://example.com/shop\nUND_ERR_HEADERS_TIMEOUT: Headers Timeout Error',
    };
    versions = [
      makeVersion({
        id: 'v3',
        number: 3,
        status: 'failed',
        isLive: false,
        createdAt: '2025-01-12T10:00:00.000Z',
        error: site.error,
        errorKind: 'timeout',
      }),
      makeVersion({
        id: 'v2',
        number: 2,
        status: 'failed',
        isLive: false,
        createdAt: '2025-01-11T10:00:00.000Z',
        error: 'Nothing could be fetched from https://example.com/shop: HTTP 503.',
        errorKind: 'http-server',
      }),
      ...versions,
    ];
    await renderSite();
    const plain =
      'The website took too long to answer. It may be slow or overloaded; please try again later.';
    expect(await screen.findByText(plain)).toBeTruthy();
    expect(screen.getAllByText(plain)).toHaveLength(1);
    expect(screen.queryByText(/Headers Timeout Error/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Details' }));
    expect(screen.getByText(/Headers Timeout Error/).textContent).toBe(site.errorDetail);
    // The older failure, in its own row, in plain words too.
    await waitFor(() => expect(versionRows()).toHaveLength(3));
    const older = versionRows().find((row) => row.getAttribute('aria-label') === 'Version 2')!;
    expect(within(older).getByText(/server had an error/)).toBeTruthy();
    expect(within(older).queryByText(/HTTP 503/)).toBeNull();
  });

  it('publishes an older version: the live badge moves', async () => {
    site = { ...site, liveVersionId: 'v2' };
    versions = [
      makeVersion({ id: 'v2', number: 2, isLive: true }),
      makeVersion({
        id: 'v1',
        number: 1,
        isLive: false,
        previewUrl: 'http://v-0123456789abcdef0123456789abcdef.localhost:8181/',
      }),
      makeVersion({ id: 'v0', number: 0, status: 'failed', isLive: false, error: 'Timed out' }),
    ];
    await renderSite('free', {
      'POST /domains/clone/s1/versions/v1/publish': () => {
        site = { ...site, liveVersionId: 'v1' };
        versions = versions.map((v) => ({ ...v, isLive: v.id === 'v1' }));
        return { body: site };
      },
    });
    await waitFor(() => expect(within(liveRow()!).getByText('Version 2')).toBeTruthy());
    // A failed version cannot be published.
    expect(screen.queryByRole('button', { name: 'Publish version 0' })).toBeNull();
    // An older version can be looked at on its own preview address before it is published.
    const preview = screen.getByRole('link', { name: 'Preview version 1' });
    expect(preview.getAttribute('href')).toBe(
      'http://v-0123456789abcdef0123456789abcdef.localhost:8181/',
    );
    expect(preview.getAttribute('target')).toBe('_blank');
    fireEvent.click(screen.getByRole('button', { name: 'Publish version 1' }));
    expect(await screen.findByText('Version 1 is now live.')).toBeTruthy();
    await waitFor(() => expect(within(liveRow()!).getByText('Version 1')).toBeTruthy());
    expect(screen.getByRole('button', { name: 'Publish version 2' })).toBeTruthy();
    expect(calls('POST', '/domains/clone/s1/versions/v1/publish')).toHaveLength(1);
  });

  it('deletes only after confirming, then goes back to the dashboard', async () => {
    await renderSite('free', {
      'DELETE /domains/clone/s1': { body: { success: true, message: 'Site deleted.' } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Delete site' }));
    let dialog = screen.getByRole('alertdialog', { name: 'Delete this site?' });
    expect(dialog.textContent).toContain(
      'example.com/shop and all its versions will be deleted. This cannot be undone.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls('DELETE', '/domains/clone/s1')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Delete site' }));
    dialog = screen.getByRole('alertdialog', { name: 'Delete this site?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete site' }));
    expect(await screen.findByText('Dashboard here', {}, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/dashboard');
    expect(calls('DELETE', '/domains/clone/s1')).toHaveLength(1);
  });

  it('keeps sync schedules for paid plans and saves a change', async () => {
    await renderSite('free');
    const select = screen.getByLabelText('Automatic re-mirror') as HTMLSelectElement;
    await waitFor(() => expect(server.requests.some((r) => r.path === '/auth/me')).toBe(true));
    expect(select.disabled).toBe(true);
    expect(screen.getByText(/Automatic sync schedules are available on paid plans/)).toBeTruthy();
  });

  it('lets a paid plan pick a sync schedule', async () => {
    await renderSite('pro', {
      'PUT /domains/clone/s1': ({ body }) => ({
        body: { ...site, ...(body as object) },
      }),
    });
    const select = screen.getByLabelText('Automatic re-mirror') as HTMLSelectElement;
    await waitFor(() => expect(select.disabled).toBe(false));
    fireEvent.change(select, { target: { value: 'weekly' } });
    expect(await screen.findByText('Sync schedule saved.')).toBeTruthy();
    expect(calls('PUT', '/domains/clone/s1')[0]?.body).toEqual({ syncSchedule: 'weekly' });
    expect(select.value).toBe('weekly');
    // Hourly is Mirror Agency's: shown with the plan's name, not to be picked on Pro.
    const hourly = [...select.options].find((o) => o.value === 'hourly')!;
    expect([hourly.textContent, hourly.disabled]).toEqual(['Hourly (Mirror Agency)', true]);
  });

  it('lets Mirror Agency sync hourly', async () => {
    await renderSite('agency', {
      'PUT /domains/clone/s1': ({ body }) => ({
        body: { ...site, ...(body as object) },
      }),
    });
    const select = screen.getByLabelText('Automatic re-mirror') as HTMLSelectElement;
    await waitFor(() => expect(select.disabled).toBe(false));
    expect([...select.options].map((o) => [o.textContent, o.disabled])).toEqual([
      ['Off', false],
      ['Hourly', false],
      ['Daily', false],
      ['Weekly', false],
    ]);
    fireEvent.change(select, { target: { value: 'hourly' } });
    expect(await screen.findByText('Sync schedule saved.')).toBeTruthy();
    expect(calls('PUT', '/domains/clone/s1')[0]?.body).toEqual({ syncSchedule: 'hourly' });
  });

  it('downloads the zip with the session token', async () => {
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:site-zip');
    const revokeObjectURL = vi.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await renderSite('free', { 'GET /domains/clone/s1/export.zip': { body: 'PK-zip-bytes' } });
    fireEvent.click(screen.getByRole('button', { name: 'Download zip' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe('site-s1.zip');
    expect(link.href).toBe('blob:site-zip');
    // The body the server sent, as a blob (Node's Blob, not jsdom's).
    expect(createObjectURL.mock.calls[0]).toEqual([expect.objectContaining({ size: 14 })]);
    expect(calls('GET', '/domains/clone/s1/export.zip')[0]?.authorization).toBe('Bearer token-1');
    click.mockRestore();
  });

  it('loads the visits of another period', async () => {
    await renderSite();
    expect((await screen.findByTestId('analytics-visits')).textContent).toBe('12');
    fireEvent.click(screen.getByRole('button', { name: '30 days' }));
    await waitFor(() => expect(screen.getByTestId('analytics-visits').textContent).toBe('345'));
    expect(screen.getByRole('button', { name: '30 days' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    // The numbers behind the chart are readable as a table.
    expect(screen.getByRole('table', { name: 'Visitors and page views per day' })).toBeTruthy();
  });

  it('shows visitors, page views, data served, top pages and referrers', async () => {
    await renderSite();
    expect((await screen.findByTestId('analytics-visitors')).textContent).toBe('10');
    expect(screen.getByTestId('analytics-page-views').textContent).toBe('24');
    expect(screen.getByTestId('analytics-bytes').textContent).toBe('3.5 MB');
    const pages = within(screen.getByTestId('analytics-top-pages'));
    expect(pages.getByRole('heading', { name: 'Top pages' })).toBeTruthy();
    expect(pages.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '/15',
      '/pricing.html6',
    ]);
    const referrers = within(screen.getByTestId('analytics-top-referrers'));
    expect(referrers.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'news.example4',
    ]);
    expect(screen.getByText('Bot page loads (not counted): 9')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Visitors and page views per day' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Date', 'Visitors', 'Visits', 'Page views', 'Data served']);
    expect(within(table).getByRole('row', { name: /2025-01-10/ }).textContent).toBe(
      '2025-01-10345512 kB',
    );
  });

  it('says so when nothing was viewed and nobody came from another site', async () => {
    await renderSite('free', {
      'GET /domains/s1/analytics?period=7d': { body: makeAnalytics() },
    });
    expect((await screen.findByTestId('analytics-bytes')).textContent).toBe('0 bytes');
    // What a visit is, and that data served counts bots too (issue 31).
    expect(screen.getByTestId('analytics-note').textContent).toMatch(/half an hour.*bots/);
    expect(screen.getByText('No page views in this period.')).toBeTruthy();
    expect(screen.getByText('No visits from other sites in this period.')).toBeTruthy();
    expect(screen.queryByText(/Bot page loads/)).toBeNull();
  });

  it('shows a friendly state for a site that is not there', async () => {
    storeToken();
    server.setRoutes({
      ...routes('free'),
      'GET /domains/clone/s1': { status: 404, body: { message: 'Site not found.' } },
    });
    renderWithProviders(
      <Routes>
        <Route path="/dashboard/site/:id" element={<SitePage />} />
      </Routes>,
      { route: '/dashboard/site/s1' },
    );
    expect(await screen.findByRole('heading', { name: 'Site not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to dashboard' }).getAttribute('href')).toBe(
      '/dashboard',
    );
  });
});
