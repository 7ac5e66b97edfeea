import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CloneRecord, SiteVersion } from '@mirror/contract';
import { makeClone, makeStatus, makeUser, makeVersion, storeToken } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import {
  startTestServer,
  type Routes as ServerRoutes,
  type TestServer,
} from '../../../test/test-server';
import { SitePage } from './site-page';

let server: TestServer;
let site: CloneRecord;
let versions: SiteVersion[];

const customized = makeVersion({
  id: 'v2',
  number: 2,
  isLive: true,
  kind: 'customize',
  changes: ['Replaced "Acme" with "Globex" (3 places)', 'Primary color set to #00aa77'],
  unparsed: ['make it pop'],
  instructions: "replace 'Acme' with 'Globex', change the primary color to #0a7, make it pop",
  createdAt: '2025-01-11T09:00:00.000Z',
});

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
    sourceUrl: 'https://example.com/shop',
  });
  versions = [makeVersion({ id: 'v1', number: 1, isLive: true })];
});
afterEach(() => {
  server.requests.length = 0;
});

async function renderSite(extra: ServerRoutes = {}) {
  storeToken();
  server.setRoutes({
    'GET /auth/me': { body: { user: makeUser({ plan: 'free' }) } },
    'GET /domains/clone/s1': () => ({ body: site }),
    'GET /domains/clone/s1/versions': () => ({ body: versions }),
    'GET /domains/s1/analytics?period=7d': {
      body: { period: '7d', days: [], totals: { visits: 0, pageViews: 0 } },
    },
    ...extra,
  });
  renderWithProviders(
    <Routes>
      <Route path="/dashboard/site/:id" element={<SitePage />} />
    </Routes>,
    { route: '/dashboard/site/s1' },
  );
  await screen.findByRole('heading', { level: 1, name: 'example.com/shop' });
  // Apply waits for the version list: its result is the first version after the newest one.
  await screen.findAllByTestId('version-row');
  return within(screen.getByRole('region', { name: 'AI customization' }));
}

const toasts = () => document.querySelector('.Toastify')?.textContent ?? '';
const calls = (method: string, path: string) =>
  server.requests.filter((r) => r.method === method && r.path === path);

describe('AI customization on the site page', () => {
  it('requires instructions', async () => {
    const panel = await renderSite();
    fireEvent.click(panel.getByRole('button', { name: 'Apply Customizations' }));
    expect(panel.getByText('Please describe the changes you want.')).toBeTruthy();
    expect(panel.getByText('No customizations yet.')).toBeTruthy();
    expect(calls('PUT', '/domains/clone/s1/customize')).toEqual([]);
  });

  it('applies instructions as a new version and shows what changed and what was not understood', async () => {
    const panel = await renderSite({
      'PUT /domains/clone/s1/customize': () => {
        site = {
          ...site,
          status: 'pending',
          currentStatus: 'preparing customization',
          progress: 0,
        };
        return {
          status: 202,
          body: makeStatus('pending', {
            id: 's1',
            currentStatus: 'preparing customization',
          }),
        };
      },
      'GET /domains/clone/s1/status': () => {
        site = { ...site, status: 'completed', liveVersionId: 'v2', progress: 1 };
        versions = [customized, { ...versions[0]!, isLive: false }];
        return {
          body: makeStatus('completed', { id: 's1', currentStatus: 'customization applied' }),
        };
      },
    });
    const text = "replace 'Acme' with 'Globex', change the primary color to #0a7, make it pop";
    fireEvent.change(panel.getByLabelText('Instructions'), { target: { value: ` ${text} ` } });
    fireEvent.click(panel.getByRole('button', { name: 'Apply Customizations' }));

    await panel.findByText('preparing customization');
    expect(calls('PUT', '/domains/clone/s1/customize')[0]?.body).toEqual({
      customizations: { instructions: text },
      regenerate: true,
    });

    const result = within(await screen.findByTestId('customize-result', {}, { timeout: 10_000 }));
    expect(
      within(result.getByRole('list', { name: 'What changed' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(customized.changes);
    expect(result.getByRole('note').textContent).toBe('I did not understand: make it pop');
    await waitFor(() => expect(toasts()).toContain('Customizations applied successfully!'));
    expect(toasts()).not.toContain('mirror created successfully');

    // The history lists the applied plan, live, with its instructions.
    const row = within(panel.getByTestId('plan-row'));
    expect(row.getByText('Customization')).toBeTruthy();
    expect(row.getByText('Live')).toBeTruthy();
    expect(row.getByText(`Instructions: ${text}`)).toBeTruthy();
  });

  it('says so when the customization fails', async () => {
    const panel = await renderSite({
      'PUT /domains/clone/s1/customize': {
        status: 409,
        body: { message: 'This site is busy with another run. Please wait for it to finish.' },
      },
    });
    fireEvent.change(panel.getByLabelText('Instructions'), {
      target: { value: 'set the title to Globex' },
    });
    fireEvent.click(panel.getByRole('button', { name: 'Apply Customizations' }));
    await waitFor(() =>
      expect(toasts()).toContain(
        'This site is busy with another run. Please wait for it to finish.',
      ),
    );
  });

  it('rolls a live customization back to the version before it', async () => {
    site = { ...site, liveVersionId: 'v2' };
    versions = [customized, makeVersion({ id: 'v1', number: 1, isLive: false })];
    const panel = await renderSite({
      'POST /domains/clone/s1/versions/v1/publish': () => {
        site = { ...site, liveVersionId: 'v1' };
        versions = [
          { ...customized, isLive: false },
          makeVersion({ id: 'v1', number: 1, isLive: true }),
        ];
        return { body: site };
      },
    });
    fireEvent.click(await panel.findByRole('button', { name: 'Roll back version 2' }));
    await waitFor(() => expect(toasts()).toContain('Version 1 is now live.'));
    expect(calls('POST', '/domains/clone/s1/versions/v1/publish')).toHaveLength(1);
    await waitFor(() =>
      expect(panel.queryByRole('button', { name: 'Roll back version 2' })).toBeNull(),
    );
  });

  it('lets the owner discard a draft from the version history', async () => {
    versions = [
      makeVersion({
        id: 'v2',
        number: 2,
        isLive: false,
        kind: 'rewrite',
        draft: true,
        changes: ['Main heading rewritten'],
      }),
      makeVersion({ id: 'v1', number: 1, isLive: true }),
    ];
    await renderSite({
      'DELETE /domains/clone/s1/versions/v2': () => {
        versions = [makeVersion({ id: 'v1', number: 1, isLive: true })];
        return { status: 204 };
      },
    });
    const history = within(screen.getByRole('region', { name: 'Version history' }));
    const draftRow = within(history.getAllByTestId('version-row')[0]!);
    expect(draftRow.getByText('Draft')).toBeTruthy();
    expect(draftRow.getByText('AI rewrite')).toBeTruthy();
    expect(draftRow.getByText('Main heading rewritten')).toBeTruthy();
    fireEvent.click(draftRow.getByRole('button', { name: 'Discard version 2' }));
    await waitFor(() => expect(history.getAllByTestId('version-row')).toHaveLength(1));
    expect(calls('DELETE', '/domains/clone/s1/versions/v2')).toHaveLength(1);
  });
});
