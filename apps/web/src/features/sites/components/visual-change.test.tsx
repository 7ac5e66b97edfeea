import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChangeReport, VersionChanges, VisualDiff } from '@mirror/contract';
import { makeClone, makeUser, makeVersion, storeToken } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { startTestServer, type TestServer } from '../../../test/test-server';
import { ChangeReportPage } from './change-report-page';

let server: TestServer;
/** The pictures the page made addresses for, by address: what each <img> shows. */
const shown = new Map<string, Blob>();
beforeAll(async () => {
  server = await startTestServer({});
  let made = 0;
  Object.assign(URL, {
    createObjectURL: vi.fn((blob: Blob) => {
      const url = `blob:shot-${++made}`;
      shown.set(url, blob);
      return url;
    }),
    revokeObjectURL: vi.fn(),
  });
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const REPORT: ChangeReport = {
  summary: '2 pages changed: /pricing (now costs $12), /news',
  unchanged: false,
  pages: {
    added: [],
    removed: [],
    changed: ['/pricing', '/news'].map((path) => ({
      path,
      title: path.slice(1),
      wordsAdded: 1,
      wordsRemoved: 1,
      hunks: [],
      moreHunks: false,
      head: [],
      linksAdded: [],
      linksRemoved: [],
      mediaAdded: [],
      mediaRemoved: [],
    })),
  },
  assets: { added: [], removed: [], changed: [] },
  noiseOnly: 0,
};

const SHOTS = '/api/domains/clone/s1/versions/v3/changes/shots';
const shot = (name: string) => `${SHOTS}/${name}.png`;

const VISUAL: VisualDiff = {
  state: 'completed',
  error: null,
  checkedAt: '2026-11-29T06:01:00.000Z',
  pages: [
    ...(['desktop', 'mobile'] as const).map((viewport) => ({
      path: '/pricing',
      viewport,
      diffPercent: viewport === 'desktop' ? 2.5 : 4,
      noisePercent: 0,
      unmeasured: null,
      beforeShot: shot(`before-${viewport}`),
      afterShot: shot(`after-${viewport}`),
      diffShot: shot(`diff-${viewport}`),
    })),
    ...(['desktop', 'mobile'] as const).map((viewport) => ({
      path: '/news',
      viewport,
      diffPercent: 0,
      noisePercent: 6.2,
      unmeasured: null,
      beforeShot: shot(`news-before-${viewport}`),
      afterShot: shot(`news-after-${viewport}`),
      diffShot: shot(`news-diff-${viewport}`),
    })),
  ],
};

function serveReport(visual: VisualDiff | null, report: ChangeReport = REPORT) {
  const changes: VersionChanges = {
    versionId: 'v3',
    baseVersionId: 'v2',
    baseNumber: 2,
    report,
    visual,
  };
  const pictures = Object.fromEntries(
    VISUAL.pages.flatMap((page) =>
      [page.beforeShot, page.afterShot, page.diffShot].map((url) => [
        `GET ${url.replace(/^\/api/, '')}`,
        // Each picture's bytes name it, so the test can tell which one an <img> shows.
        { contentType: 'image/png', body: url.split('/').at(-1) },
      ]),
    ),
  );
  server.setRoutes({
    // Signed in as the owner throughout (the pictures are asked for with the session).
    'GET /auth/me': { body: { user: makeUser({ plan: 'pro' }) } },
    'GET /domains/clone/s1': {
      body: makeClone({ id: 's1', status: 'completed', liveVersionId: 'v3' }),
    },
    'GET /domains/clone/s1/versions': {
      body: [
        makeVersion({ id: 'v3', number: 3, isLive: true }),
        makeVersion({ id: 'v2', number: 2, isLive: false }),
      ],
    },
    'GET /domains/clone/s1/versions/v3/changes': { body: changes },
    ...pictures,
  });
}

function renderReport() {
  storeToken();
  renderWithProviders(
    <Routes>
      <Route path="/dashboard/site/:id/changes/:versionId" element={<ChangeReportPage />} />
    </Routes>,
    { route: '/dashboard/site/s1/changes/v3' },
  );
}

/** The picture an <img> shows: the name its bytes carry. */
async function pictureOf(img: HTMLElement): Promise<string> {
  return shown.get(img.getAttribute('src')!)!.text();
}

const changedPage = async (path: string) =>
  within(
    (await screen.findAllByTestId('changed-page')).find((article) =>
      within(article).queryByText(path, { selector: '.change-path' }),
    )!,
  );

describe('the visual diff on the change report (issue 33)', () => {
  it('shows each changed page before | after | difference, at desktop and phone widths', async () => {
    serveReport(VISUAL);
    renderReport();
    const pricing = await changedPage('/pricing');
    const viewer = within(pricing.getByRole('region', { name: 'How it looks' }));
    expect(viewer.getByTestId('visual-metrics').textContent).toContain('Different pixels2.5%');

    // The previous version over the new one, with the slider, once the pictures are fetched.
    const after = await viewer.findByRole('img', { name: 'The new version: /pricing (Desktop)' });
    expect(await pictureOf(after)).toBe('after-desktop.png');
    const before = viewer.getByRole('img', { name: 'The previous version: /pricing (Desktop)' });
    expect(await pictureOf(before)).toBe('before-desktop.png');
    expect(
      viewer.getByRole('slider', { name: 'Reveal the previous version over the new one' }),
    ).toBeTruthy();
    // Owner only: every picture is asked for with the session.
    const asked = server.requests.filter((r) => r.path.includes('/changes/shots/'));
    expect(asked.length).toBeGreaterThanOrEqual(3);
    expect(asked.map((r) => `${r.path} ${r.authorization}`)).toEqual(
      asked.map((r) => `${r.path} Bearer token-1`),
    );

    fireEvent.click(viewer.getByRole('button', { name: 'Difference' }));
    const diff = viewer.getByRole('img', {
      name: 'Changes between the previous and the new version: /pricing (Desktop)',
    });
    expect(await pictureOf(diff)).toBe('diff-desktop.png');

    // At the phone's width: its own pictures and measures.
    fireEvent.click(viewer.getByRole('button', { name: 'Mobile' }));
    expect(viewer.getByTestId('visual-metrics').textContent).toContain('Different pixels4.0%');
    const phone = await viewer.findByRole('img', { name: 'The new version: /pricing (Mobile)' });
    expect(await pictureOf(phone)).toBe('after-mobile.png');
    expect(viewer.getByRole('figure').getAttribute('data-viewport')).toBe('mobile');
  });

  it('says when a page looks the same, its differences all noise', async () => {
    serveReport(VISUAL);
    renderReport();
    const news = await changedPage('/news');
    const viewer = within(news.getByRole('region', { name: 'How it looks' }));
    expect(viewer.getByTestId('visual-metrics').textContent).toContain('Noise6.2%');
    expect(
      viewer.getByText(
        'No visible change at this width: what changed does not show, or only moving parts differ.',
      ),
    ).toBeTruthy();
  });

  it('says the comparison is being made, and shows it when it is done', async () => {
    serveReport({ ...VISUAL, state: 'running', pages: [] });
    renderReport();
    expect(
      await screen.findByText('Comparing how the changed pages look before and after…'),
    ).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'How it looks' })).toBeNull();

    serveReport(VISUAL);
    await waitFor(
      () => expect(screen.getAllByRole('region', { name: 'How it looks' })).toHaveLength(2),
      { timeout: 8_000 },
    );
    expect(screen.queryByText('Comparing how the changed pages look before and after…')).toBeNull();
  });

  it('says why the comparison failed', async () => {
    serveReport({ ...VISUAL, state: 'failed', error: 'The comparison took too long.', pages: [] });
    renderReport();
    expect(
      await screen.findByText(
        'Could not compare how the pages look: The comparison took too long.',
      ),
    ).toBeTruthy();
  });

  it('shows pages whose text is the same but whose stylesheet changed, when they look different', async () => {
    // Only the stylesheet changed: the visual diff rendered the pages that use it.
    const restyled: ChangeReport = {
      ...REPORT,
      summary: '1 file changed',
      pages: { added: [], removed: [], changed: [] },
      assets: {
        added: [],
        removed: [],
        changed: [
          { path: '/css/site.css', contentType: 'text/css', sizeBefore: 900, sizeAfter: 950 },
        ],
      },
    };
    serveReport({ ...VISUAL, state: 'running', pages: [] }, restyled);
    renderReport();
    expect(
      await screen.findByText('Comparing how the changed pages look before and after…'),
    ).toBeTruthy();

    serveReport(VISUAL, restyled);
    // /pricing looks different; /news only by noise, so it is not listed.
    expect(await screen.findAllByTestId('restyled-page', {}, { timeout: 5_000 })).toHaveLength(1);
    const section = within(screen.getByRole('region', { name: /Pages that look different/ }));
    expect(section.getByText('/pricing', { selector: '.change-path' })).toBeTruthy();
    expect(section.queryByText('/news', { selector: '.change-path' })).toBeNull();
    expect(
      section.getByText(
        'Their text did not change: a stylesheet, an image or a font they use did.',
      ),
    ).toBeTruthy();
    const viewer = within(section.getByRole('region', { name: 'How it looks' }));
    expect(viewer.getByTestId('visual-metrics').textContent).toContain('Different pixels2.5%');
  });
});
