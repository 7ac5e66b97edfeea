import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CloneRecord, SiteVersion } from '@mirror/contract';
import {
  makeAnalytics,
  makeClone,
  makeFidelityReport,
  makeUser,
  makeVersion,
  storeToken,
} from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { startTestServer, type TestServer } from '../../../test/test-server';
import { NARROW_QUERY } from './site-sections';
import { SitePage } from './site-page';

let server: TestServer;
let site: CloneRecord;
let versions: SiteVersion[];
const realMatchMedia = window.matchMedia;

/** A phone: the page's media query for narrow screens matches. */
function usePhone() {
  window.matchMedia = (query: string) =>
    ({
      matches: query === NARROW_QUERY,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
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
    liveVersionId: 'v2',
    previewUrl: 'http://calm-river.localhost:8181/',
    ownerPreviewUrl: 'http://v-11111111111111111111111111111111.localhost:8181/',
    sourceUrl: 'https://example.com/shop',
    fidelity: { state: 'completed', score: 99.62, pagesChecked: 1 },
  });
  versions = [
    makeVersion({ id: 'v2', number: 2, isLive: true }),
    makeVersion({ id: 'v1', number: 1, isLive: false }),
  ];
  storeToken();
  server.setRoutes({
    'GET /auth/me': { body: { user: makeUser() } },
    'GET /domains/clone/s1': () => ({ body: site }),
    'GET /domains/clone/s1/versions': () => ({ body: versions }),
    'GET /domains/clone/s1/fidelity': { body: makeFidelityReport({ versionId: 'v2' }) },
    'GET /domains/s1/analytics?period=7d': { body: makeAnalytics() },
  });
});
afterEach(() => {
  window.matchMedia = realMatchMedia;
  server.requests.length = 0;
});

async function renderSite(route = '/dashboard/site/s1') {
  renderWithProviders(
    <Routes>
      <Route path="/dashboard/site/:id" element={<SitePage />} />
    </Routes>,
    { route },
  );
  await screen.findByRole('heading', { level: 1, name: 'example.com/shop' });
}

const SECTION_TITLES = [
  'Live preview',
  'Fidelity',
  'AI customization',
  'Version history',
  'Watches',
  'Forms',
  'Custom domains',
  'Visits',
  'Sync schedule',
];
const toggle = (title: string) => screen.getByRole('button', { name: title, expanded: undefined });
const expanded = () =>
  SECTION_TITLES.filter((title) => toggle(title).getAttribute('aria-expanded') === 'true');
const location = () => screen.getByTestId('location').textContent;

describe('the site page on a phone (issue 31)', () => {
  it('puts the address, status and main actions first, and every section closed after them', async () => {
    usePhone();
    await renderSite();
    const controls = screen.getByRole('region', { name: 'Address, status and actions' });
    const c = within(controls);
    expect((c.getByRole('textbox', { name: 'Preview address' }) as HTMLInputElement).value).toBe(
      site.previewUrl,
    );
    expect(c.getByText('Completed')).toBeTruthy();
    for (const action of ['Re-mirror', 'Download zip', 'Delete site'])
      expect(c.getByRole('button', { name: action })).toBeTruthy();
    expect(c.getByRole('link', { name: 'Open preview' })).toBeTruthy();

    // The sections, each a title to open, after the controls.
    const toggles = SECTION_TITLES.map(toggle);
    for (const button of toggles) {
      expect(button.getAttribute('aria-expanded')).toBe('false');
      expect(
        controls.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING,
      ).toBeTruthy();
      const body = document.getElementById(button.getAttribute('aria-controls')!)!;
      expect(body.hidden).toBe(true);
    }
    // Closed sections show nothing of their content.
    expect(screen.queryByRole('slider')).toBeNull();
    expect(screen.queryAllByTestId('version-row')).toHaveLength(0);
    expect(screen.queryByText('Automatic re-mirror')).toBeNull();
    // Nothing was written into the address just by opening the page.
    expect(location()).toBe('/dashboard/site/s1');
  });

  it('keeps the open sections in the address, so a reload shows them open', async () => {
    usePhone();
    await renderSite();
    fireEvent.click(toggle('Version history'));
    await waitFor(() => expect(location()).toBe('/dashboard/site/s1?open=versions'));
    expect(expanded()).toEqual(['Version history']);
    await waitFor(() => expect(screen.getAllByTestId('version-row')).toHaveLength(2));
    fireEvent.click(toggle('Visits'));
    await waitFor(() => expect(location()).toBe('/dashboard/site/s1?open=versions,analytics'));

    // A reload: the same address, a new page.
    const address = location()!;
    cleanup();
    await renderSite(address);
    expect(expanded()).toEqual(['Version history', 'Visits']);
    expect(await screen.findByTestId('analytics-visits')).toBeTruthy();

    fireEvent.click(toggle('Version history'));
    await waitFor(() => expect(location()).toBe('/dashboard/site/s1?open=analytics'));
    expect(expanded()).toEqual(['Visits']);
    fireEvent.click(toggle('Visits'));
    await waitFor(() => expect(location()).toBe('/dashboard/site/s1?open='));
    expect(expanded()).toEqual([]);
  });

  it('opens the fidelity section from the score in the header, and shows it', async () => {
    usePhone();
    await renderSite();
    const line = await screen.findByRole('button', { name: 'Fidelity 99.6% · 1 page checked' });
    const anchor = document.getElementById('site-fidelity')!;
    const scrollIntoView = vi.fn();
    anchor.scrollIntoView = scrollIntoView;
    fireEvent.click(line);
    await waitFor(() => expect(scrollIntoView).toHaveBeenCalledTimes(1));
    expect(expanded()).toEqual(['Fidelity']);
    expect(location()).toBe('/dashboard/site/s1?open=fidelity');
    expect(document.activeElement).toBe(anchor);
  });

  it('opens every section on a wide screen, and follows the address there too', async () => {
    await renderSite();
    expect(expanded()).toEqual(SECTION_TITLES);
    await waitFor(() => expect(screen.getAllByTestId('version-row')).toHaveLength(2));
    fireEvent.click(toggle('Live preview'));
    await waitFor(() =>
      expect(location()).toBe(
        '/dashboard/site/s1?open=fidelity,edits,versions,watches,forms,domains,analytics,settings',
      ),
    );
    const body = document.getElementById(toggle('Live preview').getAttribute('aria-controls')!)!;
    expect(body.hidden).toBe(true);
  });
});
