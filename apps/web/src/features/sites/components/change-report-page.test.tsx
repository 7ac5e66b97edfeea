import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeReport, VersionChanges } from '@mirror/contract';
import { makeClone, makeVersion, storeToken } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { startTestServer, type TestServer } from '../../../test/test-server';
import { ChangeReportPage } from './change-report-page';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const EMPTY: ChangeReport = {
  summary: 'No changes',
  unchanged: true,
  pages: { added: [], removed: [], changed: [] },
  assets: { added: [], removed: [], changed: [] },
  noiseOnly: 0,
};

const REPORT: ChangeReport = {
  summary: '1 page changed, 1 added, 1 removed: /pricing (Pro now $12), /blog/new-post, /old',
  unchanged: false,
  pages: {
    added: [{ path: '/blog/new-post', title: 'A new post' }],
    removed: [{ path: '/old', title: 'Old page' }],
    changed: [
      {
        path: '/pricing',
        title: 'Pricing',
        wordsAdded: 2,
        wordsRemoved: 1,
        hunks: [
          [
            { op: 'same', text: 'The Pro plan costs' },
            { op: 'removed', text: '$10' },
            { op: 'added', text: '$12 monthly' },
            { op: 'same', text: 'for teams.' },
          ],
        ],
        moreHunks: true,
        head: [
          { field: 'title', before: 'Pricing – Old', after: 'Pricing' },
          { field: 'description', before: null, after: 'Plans for everyone' },
        ],
        linksAdded: ['https://example.com/signup'],
        linksRemoved: [],
        mediaAdded: [],
        mediaRemoved: ['https://example.com/img/old-banner.png'],
      },
    ],
  },
  assets: {
    added: [{ path: '/img/new.png', contentType: 'image/png', sizeBefore: null, sizeAfter: 2048 }],
    removed: [],
    changed: [{ path: '/app.css', contentType: 'text/css', sizeBefore: 1024, sizeAfter: 1536 }],
  },
  noiseOnly: 4,
};

function renderReport(
  changes: VersionChanges | { status: number; message: string },
  routes: Record<string, { status?: number; body?: unknown }> = {},
) {
  storeToken();
  server.setRoutes({
    'GET /domains/clone/s1': {
      body: makeClone({
        id: 's1',
        status: 'completed',
        liveVersionId: 'v3',
        previewUrl: 'http://calm-river.localhost:8181/',
      }),
    },
    'GET /domains/clone/s1/versions': {
      body: [
        makeVersion({ id: 'v3', number: 3, isLive: true }),
        makeVersion({ id: 'v2', number: 2, isLive: false }),
      ],
    },
    'GET /domains/clone/s1/versions/v3/changes':
      'status' in changes
        ? { status: changes.status, body: { message: changes.message } }
        : { body: changes },
    ...routes,
  });
  renderWithProviders(
    <Routes>
      <Route path="/dashboard/site/:id/changes/:versionId" element={<ChangeReportPage />} />
      <Route path="/dashboard/site/:id" element={<h1>The site page</h1>} />
    </Routes>,
    { route: '/dashboard/site/s1/changes/v3' },
  );
}

describe('the change report of a version (issue 33)', () => {
  it('shows pages added, removed and changed, with the text diff, the head and the files', async () => {
    renderReport({ versionId: 'v3', baseVersionId: 'v2', baseNumber: 2, report: REPORT });
    expect(await screen.findByRole('heading', { level: 1, name: 'Change report' })).toBeTruthy();
    expect(screen.getByText('Version 3 compared with version 2')).toBeTruthy();
    expect(screen.getByText(REPORT.summary)).toBeTruthy();
    expect(screen.getByRole('link', { name: /Back to the site/ }).getAttribute('href')).toBe(
      '/dashboard/site/s1',
    );
    expect(screen.queryByText('Nothing a visitor would notice changed.')).toBeNull();

    // Pages of the live version open on its address; a removed page is only named.
    const added = within(screen.getByRole('region', { name: 'Pages added (1)' }));
    expect(added.getByRole('link', { name: '/blog/new-post' }).getAttribute('href')).toBe(
      'http://calm-river.localhost:8181/blog/new-post',
    );
    expect(added.getByText('A new post')).toBeTruthy();
    const removed = within(screen.getByRole('region', { name: 'Pages removed (1)' }));
    expect(removed.getByText('/old')).toBeTruthy();
    expect(removed.getByText('Old page')).toBeTruthy();
    expect(removed.queryByRole('link')).toBeNull();

    const page = within(screen.getByTestId('changed-page'));
    expect(page.getByRole('link', { name: '/pricing' }).getAttribute('href')).toBe(
      'http://calm-river.localhost:8181/pricing',
    );
    expect(page.getByText('+2 words, −1 words')).toBeTruthy();
    const hunk = document.querySelector('.change-hunk')!;
    const ins = hunk.querySelector('ins')!;
    const del = hunk.querySelector('del')!;
    expect(ins.lastChild?.textContent).toBe('$12 monthly');
    expect(del.lastChild?.textContent).toBe('$10');
    // Screen readers are told which is which.
    expect(ins.textContent).toBe('Added: $12 monthly');
    expect(del.textContent).toBe('Removed: $10');
    // Runs of words as the engine gives them, spaced apart outside the marks.
    expect(hunk.textContent).toBe('The Pro plan costs Removed: $10 Added: $12 monthly for teams.');
    expect(page.getByText('More changes on this page are not shown.')).toBeTruthy();

    const head = page.getByText('title').closest('.head-change')!;
    expect(head.textContent).toBe('titlePricing – Old → Pricing');
    expect(page.getByText('description').closest('.head-change')!.textContent).toBe(
      'description(none) → Plans for everyone',
    );
    const links = page.getByText('Links added (1)').closest('details')!;
    expect(links.open).toBe(false);
    expect(within(links).getByText('https://example.com/signup')).toBeTruthy();
    expect(page.getByText('Media removed (1)')).toBeTruthy();
    expect(page.queryByText(/Links removed/)).toBeNull();

    const filesAdded = within(screen.getByRole('region', { name: 'Files added (1)' }));
    expect(filesAdded.getByText('/img/new.png')).toBeTruthy();
    expect(filesAdded.getByText('image/png · 2 kB')).toBeTruthy();
    const filesChanged = within(screen.getByRole('region', { name: 'Files changed (1)' }));
    expect(filesChanged.getByText('text/css · 1 kB → 1.5 kB')).toBeTruthy();
    expect(screen.queryByRole('region', { name: /Files removed/ })).toBeNull();
    expect(
      screen.getByText(
        'Pages whose only differences were noise (dates, counters, rotating parts): 4',
      ),
    ).toBeTruthy();
  });

  it('says when nothing a visitor would notice changed, against a deleted version', async () => {
    renderReport({ versionId: 'v3', baseVersionId: 'v1', baseNumber: null, report: EMPTY });
    expect(await screen.findByText('Nothing a visitor would notice changed.')).toBeTruthy();
    expect(screen.getByText('Version 3 compared with a deleted version')).toBeTruthy();
    expect(document.querySelector('.change-section')).toBeNull();
  });

  it('says when the version has no report', async () => {
    renderReport({ status: 404, message: 'Not found' });
    expect(await screen.findByText('This version has no change report.')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Back to the site/ }).getAttribute('href')).toBe(
      '/dashboard/site/s1',
    );
  });

  it('offers to try again when the report cannot be loaded', async () => {
    renderReport({ status: 500, message: 'Database unavailable' });
    expect((await screen.findByRole('alert')).textContent).toBe('Database unavailable');
    expect(screen.getByRole('heading', { name: 'Could not load the change report' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('restores a changed or removed page into a draft and goes to the site page', async () => {
    renderReport(
      { versionId: 'v3', baseVersionId: 'v2', baseNumber: 2, report: REPORT },
      {
        'POST /domains/clone/s1/versions/v3/changes/restore': {
          status: 202,
          body: {
            id: 's1',
            status: 'pending',
            currentStatus: 'preparing customization',
            progress: 0,
            estimatedTime: null,
            previewUrl: 'http://calm-river.localhost:8181/',
            error: null,
          },
        },
      },
    );
    const restore = 'Restore this page from the previous version';
    const removed = within(await screen.findByRole('region', { name: 'Pages removed (1)' }));
    expect(removed.getByRole('button', { name: restore })).toBeTruthy();
    // Added pages were not in the previous version.
    const added = within(screen.getByRole('region', { name: 'Pages added (1)' }));
    expect(added.queryByRole('button')).toBeNull();

    within(screen.getByTestId('changed-page')).getByRole('button', { name: restore }).click();
    expect(await screen.findByRole('heading', { name: 'The site page' })).toBeTruthy();
    const posted = server.requests.find((r) => r.method === 'POST');
    expect(posted).toMatchObject({
      path: '/domains/clone/s1/versions/v3/changes/restore',
      body: { path: '/pricing' },
    });
  });

  it('shows why a page could not be restored, and stays on the report', async () => {
    renderReport(
      { versionId: 'v3', baseVersionId: 'v2', baseNumber: 2, report: REPORT },
      {
        'POST /domains/clone/s1/versions/v3/changes/restore': {
          status: 409,
          body: { message: 'This site is busy with another run. Please wait for it to finish.' },
        },
      },
    );
    const removed = within(await screen.findByRole('region', { name: 'Pages removed (1)' }));
    removed.getByRole('button', { name: 'Restore this page from the previous version' }).click();
    expect((await removed.findByRole('alert')).textContent).toBe(
      'This site is busy with another run. Please wait for it to finish.',
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Change report' })).toBeTruthy();
  });

  it('offers no restore once the previous version is deleted', async () => {
    renderReport({ versionId: 'v3', baseVersionId: 'v1', baseNumber: null, report: REPORT });
    expect(await screen.findByRole('region', { name: 'Pages removed (1)' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Restore this page/ })).toBeNull();
  });
});
