import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FIDELITY_MESSAGES,
  type CloneRecord,
  type FidelityReportResponse,
  type SiteVersion,
} from '@mirror/contract';
import {
  makeClone,
  makeFidelityPage,
  makeFidelityReport,
  makeUser,
  makeVersion,
  storeToken,
} from '../../../test/fixtures';
import { waitForReal } from '../../../test/real-time';
import { renderWithProviders } from '../../../test/render';
import {
  startTestServer,
  type Routes as ServerRoutes,
  type TestServer,
} from '../../../test/test-server';
import { FIDELITY_POLL_LIMIT_MS, FIDELITY_POLL_MS } from '../hooks/use-fidelity';
import { SitePage } from './site-page';

let server: TestServer;
let site: CloneRecord;
let versions: SiteVersion[];

/** `/about` fell short on desktop: its content differs and files are missing from the copy. */
function shortReport(overrides: Partial<FidelityReportResponse> = {}): FidelityReportResponse {
  return makeFidelityReport({
    score: 97.25,
    pagesChecked: 2,
    belowThreshold: 1,
    pages: [
      makeFidelityPage({ path: '/' }),
      makeFidelityPage({ path: '/', viewport: 'mobile' }),
      makeFidelityPage({
        path: '/about',
        diffPercent: 4.2,
        noisePercent: 0.3,
        belowThreshold: true,
        reasons: ['pixels', 'failed-requests'],
        failedRequests: [
          { url: 'https://example.com/img/team.jpg', reason: 'HTTP 404', inOriginal: false },
          { url: 'https://example.com/broken.js', reason: 'HTTP 404', inOriginal: true },
          { url: 'https://example.com/css/about.css', reason: 'HTTP 404', inOriginal: false },
          { url: 'https://example.com/fonts/a.woff2', reason: 'HTTP 404', inOriginal: false },
          { url: 'https://example.com/fonts/b.woff2', reason: 'HTTP 404', inOriginal: false },
        ],
      }),
      makeFidelityPage({ path: '/about', viewport: 'mobile', diffPercent: 0.5 }),
    ],
    ...overrides,
  });
}

function routes(extra: ServerRoutes = {}): ServerRoutes {
  return {
    'GET /auth/me': { body: { user: makeUser() } },
    'GET /domains/clone/s1': () => ({ body: site }),
    'GET /domains/clone/s1/versions': () => ({ body: versions }),
    'GET /domains/s1/analytics?period=7d': { status: 500, body: { message: 'Not here' } },
    'GET /domains/clone/s1/fidelity': {
      status: 404,
      body: { message: FIDELITY_MESSAGES.notChecked },
    },
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
    sourceUrl: 'https://example.com/',
  });
  versions = [makeVersion({ id: 'v1', number: 1, isLive: true })];
});
afterEach(() => {
  vi.useRealTimers();
  server.requests.length = 0;
});

async function renderSite(extra: ServerRoutes = {}) {
  storeToken();
  server.setRoutes(routes(extra));
  renderWithProviders(
    <Routes>
      <Route path="/dashboard/site/:id" element={<SitePage />} />
    </Routes>,
    { route: '/dashboard/site/s1' },
  );
  await screen.findByRole('heading', { level: 1, name: 'example.com' });
}

const calls = (method: string, path: string) =>
  server.requests.filter((r) => r.method === method && r.path === path);
const fidelityPanel = () => screen.getByRole('region', { name: 'Fidelity' });
const toasts = () => document.querySelector('.Toastify')?.textContent ?? '';
const header = () => document.querySelector('.site-page-header') as HTMLElement;

describe('fidelity summary line', () => {
  it("says the live version's score and pages, and leads to the report", async () => {
    site = { ...site, fidelity: { state: 'completed', score: 99.62, pagesChecked: 12 } };
    await renderSite();
    const line = within(header()).getByRole('button', {
      name: 'Fidelity 99.6% · 12 pages checked',
    });
    const scrollIntoView = vi.fn();
    const anchor = document.getElementById('site-fidelity')!;
    anchor.scrollIntoView = scrollIntoView;
    fireEvent.click(line);
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    expect(document.activeElement).toBe(anchor);
    expect(anchor.contains(fidelityPanel())).toBe(true);
    // Not checked yet (404): the panel says so.
    expect(await within(fidelityPanel()).findByText('This version has not been checked yet.'));
  });

  it('follows the report once it is read, over the site record', async () => {
    site = { ...site, fidelity: { state: 'queued', score: null, pagesChecked: 0 } };
    await renderSite({ 'GET /domains/clone/s1/fidelity': { body: shortReport() } });
    expect(
      await within(header()).findByRole('button', { name: 'Fidelity 97.3% · 2 pages checked' }),
    ).toBeTruthy();
  });

  it.each([
    [{ state: 'queued', score: null, pagesChecked: 0 } as const, 'Checking fidelity…'],
    [{ state: 'running', score: null, pagesChecked: 0 } as const, 'Checking fidelity…'],
    [{ state: 'failed', score: null, pagesChecked: 0 } as const, 'Fidelity check failed'],
  ])('says %o as "%s"', async (fidelity, text) => {
    site = { ...site, fidelity };
    await renderSite();
    expect(within(header()).getByRole('button', { name: text })).toBeTruthy();
  });

  it('says nothing for a version never checked', async () => {
    site = { ...site, fidelity: null };
    await renderSite();
    await within(fidelityPanel()).findByText('This version has not been checked yet.');
    expect(header().textContent).not.toMatch(/Fidelity|Checking/);
  });
});

describe('fidelity panel', () => {
  it('lists the pages that fell short with their reasons, and re-captures one', async () => {
    let report = shortReport();
    await renderSite({
      'GET /domains/clone/s1/fidelity': () => ({ body: report }),
      'POST /domains/clone/s1/fidelity': {
        status: 429,
        body: { message: FIDELITY_MESSAGES.rateLimited },
      },
    });
    const panel = fidelityPanel();
    expect((await within(panel).findByTestId('fidelity-score')).textContent).toBe('97.3%');
    const short = within(panel).getByRole('region', { name: 'Pages that fell short' });
    const rows = within(short).getAllByRole('listitem', { name: /^\// });
    expect(rows.map((row) => row.getAttribute('aria-label'))).toEqual(['/about']);
    const about = within(rows[0]!);
    expect(about.getByText('Different content')).toBeTruthy();
    expect(about.getByText('Missing file')).toBeTruthy();
    // Only files the original has: at most three of them.
    expect(about.getByText('https://example.com/img/team.jpg')).toBeTruthy();
    expect(about.getByText('https://example.com/css/about.css')).toBeTruthy();
    expect(about.getByText('https://example.com/fonts/a.woff2')).toBeTruthy();
    expect(about.queryByText('https://example.com/fonts/b.woff2')).toBeNull();
    expect(about.queryByText('https://example.com/broken.js')).toBeNull();
    expect(rows[0]!.textContent).toContain('Desktop: 4.2% different · noise 0.3%');
    expect(rows[0]!.textContent).toContain('Mobile: 0.5% different · noise 0.1%');

    // Too many checks: the server's words, in a toast.
    const recapture = about.getByRole('button', { name: 'Re-capture this page: /about' });
    expect(recapture.textContent).toBe('Re-capture this page');
    fireEvent.click(recapture);
    await waitFor(() => expect(toasts()).toContain(FIDELITY_MESSAGES.rateLimited));
    expect(calls('POST', '/domains/clone/s1/fidelity')[0]?.body).toEqual({ paths: ['/about'] });

    // Accepted: queued, then followed every 3 s until it completes; it repaired the page into a
    // newer live version.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    report = { ...shortReport(), state: 'running', score: null };
    server.setRoutes(
      routes({
        'GET /domains/clone/s1/fidelity': () => ({ body: report }),
        'POST /domains/clone/s1/fidelity': () => ({
          status: 202,
          body: { ...shortReport(), state: 'queued', score: null },
        }),
      }),
    );
    fireEvent.click(within(fidelityPanel()).getByRole('button', { name: /^Re-capture/ }));
    await waitForReal(() => calls('POST', '/domains/clone/s1/fidelity').length === 2);
    expect(calls('POST', '/domains/clone/s1/fidelity')[1]?.body).toEqual({ paths: ['/about'] });
    await waitForReal(() => within(fidelityPanel()).queryByText('Checking fidelity…') !== null);
    expect(within(header()).getByRole('button', { name: 'Checking fidelity…' })).toBeTruthy();
    const reads = calls('GET', '/domains/clone/s1/fidelity').length;

    act(() => vi.advanceTimersByTime(FIDELITY_POLL_MS));
    await waitForReal(() => calls('GET', '/domains/clone/s1/fidelity').length === reads + 1);

    report = shortReport({
      score: 99.9,
      belowThreshold: 0,
      repairedCount: 1,
      repairedVersionId: 'v2',
      pages: [
        makeFidelityPage({ path: '/' }),
        makeFidelityPage({ path: '/', viewport: 'mobile' }),
        makeFidelityPage({
          path: '/about',
          diffPercent: 0.1,
          repaired: {
            diffPercent: 4.2,
            noisePercent: 0.3,
            textSimilarity: 0.9,
            failedRequests: [],
            externalRequests: [],
            scriptErrors: [],
            reasons: ['pixels'],
          },
        }),
        makeFidelityPage({ path: '/about', viewport: 'mobile' }),
      ],
    });
    site = { ...site, liveVersionId: 'v2' };
    versions = [
      makeVersion({ id: 'v2', number: 2, isLive: true }),
      makeVersion({ id: 'v1', number: 1, isLive: false }),
    ];
    act(() => vi.advanceTimersByTime(FIDELITY_POLL_MS));
    await waitForReal(
      () => within(fidelityPanel()).queryByTestId('fidelity-score')?.textContent === '99.9%',
    );
    expect(fidelityPanel().textContent).toContain('repaired: 4.2% → 0.1%');
    expect(
      within(fidelityPanel()).getByText('Repaired pages were published as a new live version.'),
    ).toBeTruthy();
    // The newer live version and its row are fetched again.
    await waitForReal(() => screen.queryAllByTestId('version-row').length === 2);
    await waitForReal(() => toasts().includes('Repaired pages were published'));
  });

  it('checks the whole sample again and stops asking after 3 minutes', async () => {
    await renderSite({ 'GET /domains/clone/s1/fidelity': { body: shortReport() } });
    const again = await within(fidelityPanel()).findByRole('button', { name: 'Check again' });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    server.setRoutes(
      routes({
        'GET /domains/clone/s1/fidelity': { body: { ...shortReport(), state: 'running' } },
        'POST /domains/clone/s1/fidelity': {
          status: 202,
          body: { ...shortReport(), state: 'queued', score: null },
        },
      }),
    );
    fireEvent.click(again);
    await waitForReal(() => calls('POST', '/domains/clone/s1/fidelity').length === 1);
    expect(calls('POST', '/domains/clone/s1/fidelity')[0]?.body).toEqual({});
    await waitForReal(() => toasts().includes('Fidelity check started.'));
    expect((again as HTMLButtonElement).disabled).toBe(true);
    const before = calls('GET', '/domains/clone/s1/fidelity').length;
    const polls = FIDELITY_POLL_LIMIT_MS / FIDELITY_POLL_MS;
    for (let poll = 1; poll <= polls; poll += 1) {
      act(() => vi.advanceTimersByTime(FIDELITY_POLL_MS));
      await waitForReal(() => calls('GET', '/domains/clone/s1/fidelity').length === before + poll);
    }
    act(() => vi.advanceTimersByTime(FIDELITY_POLL_MS * 3));
    await waitForReal(() => true);
    expect(calls('GET', '/domains/clone/s1/fidelity')).toHaveLength(before + polls);
  });

  it('shows one page at a width: the original over the copy with the slider above, or one picture', async () => {
    await renderSite({ 'GET /domains/clone/s1/fidelity': { body: shortReport() } });
    const viewer = await within(fidelityPanel()).findByRole('region', {
      name: 'Compare the original and the copy',
    });
    const v = within(viewer);
    // The first page that fell short, at desktop width.
    const select = v.getByLabelText('Page') as HTMLSelectElement;
    expect(select.value).toBe('/about');
    expect([...select.options].map((option) => option.value)).toEqual(['/', '/about']);
    const metrics = () => v.getByTestId('fidelity-metrics').textContent;
    expect(metrics()).toContain('Different pixels4.2%');
    expect(metrics()).toContain('Noise0.3%');

    // Issue 31: one picture at a time (not three small ones side by side), the slider first.
    const figure = v.getByRole('figure');
    const pictures = () =>
      [...figure.querySelectorAll('img')].map((img) => [
        img.getAttribute('alt'),
        img.getAttribute('src'),
      ]);
    expect(v.getAllByRole('figure')).toHaveLength(1);
    expect(figure.querySelector('figcaption')?.textContent).toBe('The original over the copy');
    expect(pictures()).toEqual([
      ['The copy: /about (Desktop)', '/api/domains/fidelity-shots/copy-desktop/about.png'],
      [
        'The original website: /about (Desktop)',
        '/api/domains/fidelity-shots/original-desktop/about.png',
      ],
    ]);
    const slider = v.getByRole('slider', { name: 'Reveal the original over the copy' });
    const stage = v.getByTestId('fidelity-stage');
    // The slider comes before the picture, which scrolls in its own box beneath it.
    expect(slider.compareDocumentPosition(stage) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const top = v.getByTestId('fidelity-slider-original');
    expect(top.style.clipPath).toBe('inset(0 50% 0 0)');
    expect(slider.getAttribute('aria-valuetext')).toBe('50% of the original shown');
    fireEvent.change(slider, { target: { value: '30' } });
    expect(top.style.clipPath).toBe('inset(0 70% 0 0)');
    expect(slider.getAttribute('aria-valuetext')).toBe('30% of the original shown');

    const show = (name: string) => {
      fireEvent.click(v.getByRole('button', { name }));
      expect(v.getByRole('button', { name }).getAttribute('aria-pressed')).toBe('true');
    };
    show('Difference');
    expect(pictures()).toEqual([
      [
        'Differences between the original and the copy: /about (Desktop)',
        '/api/domains/fidelity-shots/diff-desktop/about.png',
      ],
    ]);
    expect(v.queryByRole('slider')).toBeNull();
    show('Original');
    expect(pictures()).toEqual([
      [
        'The original website: /about (Desktop)',
        '/api/domains/fidelity-shots/original-desktop/about.png',
      ],
    ]);

    show('Mobile');
    expect(v.getByAltText('The original website: /about (Mobile)').getAttribute('src')).toBe(
      '/api/domains/fidelity-shots/original-mobile/about.png',
    );
    expect(metrics()).toContain('Different pixels0.5%');
    show('Copy');
    fireEvent.change(select, { target: { value: '/' } });
    expect(v.getByAltText('The copy: / (Mobile)').getAttribute('src')).toBe(
      '/api/domains/fidelity-shots/copy-mobile/.png',
    );
    expect(metrics()).toContain('Different pixels0.2%');
    expect(v.getByRole('figure').getAttribute('data-viewport')).toBe('mobile');
  });

  it('says when a page has no screenshot', async () => {
    await renderSite({
      'GET /domains/clone/s1/fidelity': {
        body: makeFidelityReport({
          pages: [makeFidelityPage({ path: '/', diffShot: null, copyShot: null })],
        }),
      },
    });
    const viewer = await within(fidelityPanel()).findByRole('region', {
      name: 'Compare the original and the copy',
    });
    const v = within(viewer);
    // Nothing to lay over: the original alone, and the slider cannot be chosen.
    expect(v.queryByRole('slider')).toBeNull();
    expect((v.getByRole('button', { name: 'Compare' }) as HTMLButtonElement).disabled).toBe(true);
    expect(v.getByAltText('The original website: / (Desktop)')).toBeTruthy();
    fireEvent.click(v.getByRole('button', { name: 'Copy' }));
    expect(v.getByText('No screenshot')).toBeTruthy();
    fireEvent.click(v.getByRole('button', { name: 'Difference' }));
    expect(v.getByText('No screenshot')).toBeTruthy();
    fireEvent.click(v.getByRole('button', { name: 'Mobile' }));
    expect(v.getByText('This page was not checked at this width.')).toBeTruthy();
    expect(
      within(fidelityPanel()).getByText('Every checked page matches the original.'),
    ).toBeTruthy();
  });
});

describe('what the fidelity report says (issue 31)', () => {
  it('says what the score means, and counts pages and widths in words', async () => {
    const pages = ['/', '/about', '/blog'].flatMap((path) => [
      makeFidelityPage({ path }),
      makeFidelityPage({ path, viewport: 'mobile' }),
    ]);
    pages[2] = { ...pages[2]!, diffPercent: 3.1, belowThreshold: true, reasons: ['pixels'] };
    pages[3] = { ...pages[3]!, diffPercent: 2.4, belowThreshold: true, reasons: ['pixels'] };
    await renderSite({
      'GET /domains/clone/s1/fidelity': {
        // Two measurements below the threshold: one page, at both widths.
        body: makeFidelityReport({ score: 98.9, pagesChecked: 3, belowThreshold: 2, pages }),
      },
    });
    const panel = within(fidelityPanel());
    expect((await panel.findByTestId('fidelity-score')).textContent).toBe('98.9%');
    expect(
      panel.getByText(
        'The share of each page that looks the same in the copy, averaged over every page and width checked. Below 99%, at least one page differs, misses a file or has a script error.',
      ),
    ).toBeTruthy();
    expect(panel.getByTestId('fidelity-stats').textContent).toBe(
      '3 pages checked at 2 widths · 1 page fell short',
    );
    expect(fidelityPanel().textContent).not.toMatch(/Below the threshold|Pages checked:/);
  });

  it('lists pages that only load files from another site apart, named, with what to do', async () => {
    const cdn = (n: number) => `https://cdn.example.net/lib/file-${n}.js`;
    const external = (path: string, files: string[]) =>
      (['desktop', 'mobile'] as const).map((viewport) =>
        makeFidelityPage({
          path,
          viewport,
          diffPercent: 0,
          belowThreshold: true,
          reasons: ['external-requests'],
          externalRequests: files,
        }),
      );
    await renderSite({
      'GET /domains/clone/s1/fidelity': {
        body: makeFidelityReport({
          score: 100,
          pagesChecked: 3,
          belowThreshold: 4,
          pages: [
            makeFidelityPage({ path: '/', diffPercent: 0 }),
            makeFidelityPage({ path: '/', viewport: 'mobile', diffPercent: 0 }),
            ...external('/about', ['https://fonts.example.org/inter.woff2']),
            ...external('/blog', [1, 2, 3, 4, 5, 6, 7].map(cdn)),
          ],
        }),
      },
      'POST /domains/clone/s1/fidelity': {
        status: 429,
        body: { message: FIDELITY_MESSAGES.rateLimited },
      },
    });
    const panel = within(fidelityPanel());
    // Nothing differs: the score says so, and no page "fell short".
    expect((await panel.findByTestId('fidelity-score')).textContent).toBe('100.0%');
    const short = within(panel.getByRole('region', { name: 'Pages that fell short' }));
    expect(short.getByText('Every checked page matches the original.')).toBeTruthy();
    expect(short.queryByText('Loads files from another site')).toBeNull();
    expect(panel.getByTestId('fidelity-stats').textContent).toBe(
      '3 pages checked at 2 widths · 2 pages load files from another site',
    );

    // A warning of its own, each page with the files it loads and a way to copy them in.
    const warning = within(panel.getByRole('region', { name: 'Files loaded from another site' }));
    const rows = warning.getAllByRole('listitem', { name: /^\// });
    expect(rows.map((row) => row.getAttribute('aria-label'))).toEqual(['/about', '/blog']);
    expect(within(rows[0]!).getByText('https://fonts.example.org/inter.woff2')).toBeTruthy();
    const blog = within(rows[1]!);
    for (const n of [1, 2, 3, 4, 5]) expect(blog.getByText(cdn(n))).toBeTruthy();
    expect(blog.queryByText(cdn(6))).toBeNull();
    expect(blog.getByText('and 2 more')).toBeTruthy();
    expect(warning.getByText(/Re-capture a page to copy its files into your site/)).toBeTruthy();
    expect(warning.getByText(/Files from a CDN you trust/)).toBeTruthy();
    fireEvent.click(blog.getByRole('button', { name: 'Re-capture this page: /blog' }));
    await waitFor(() => expect(calls('POST', '/domains/clone/s1/fidelity')).toHaveLength(1));
    expect(calls('POST', '/domains/clone/s1/fidelity')[0]?.body).toEqual({ paths: ['/blog'] });
  });
});

describe('version history', () => {
  it('shows the score of each checked version', async () => {
    site = { ...site, liveVersionId: 'v3' };
    versions = [
      makeVersion({
        id: 'v3',
        number: 3,
        fidelity: { state: 'running', score: null, pagesChecked: 0 },
      }),
      makeVersion({
        id: 'v2',
        number: 2,
        isLive: false,
        fidelity: { state: 'completed', score: 99.62, pagesChecked: 12 },
      }),
      makeVersion({ id: 'v1', number: 1, isLive: false, fidelity: null }),
    ];
    await renderSite();
    await waitFor(() => expect(screen.getAllByTestId('version-row')).toHaveLength(3));
    const row = (label: string) =>
      screen.getAllByTestId('version-row').find((r) => r.getAttribute('aria-label') === label)!;
    expect(within(row('Version 2')).getByText('Fidelity 99.6%')).toBeTruthy();
    expect(row('Version 3').textContent).not.toContain('Fidelity');
    expect(row('Version 1').textContent).not.toContain('Fidelity');
  });
});
