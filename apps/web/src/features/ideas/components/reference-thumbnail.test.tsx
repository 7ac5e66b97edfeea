import type { ScreenshotStatusResponse } from '@mirror/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeReference, makeUser, storeToken } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { startTestServer, type Routes, type TestServer } from '../../../test/test-server';
import { toReferenceItem, type ReferenceItem } from '../utils/reference-item';
import { ReferenceThumbnail } from './reference-thumbnail';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const STATUS = `/domains/screenshot?url=${encodeURIComponent('https://crumb.example/')}`;
const TIMING = { pollMs: 30, waitMs: 400 };
const polls = () => server.requests.filter((r) => r.method === 'GET' && r.path === STATUS);

/** One card's thumbnail over its item, as the grid keeps it (screenshots arrive as patches). */
function Harness({ initial }: { initial: ReferenceItem }) {
  const [item, setItem] = useState(initial);
  return (
    <div className="reference-media">
      <ReferenceThumbnail
        item={item}
        timing={TIMING}
        onScreenshot={(screenshot) => setItem((i) => ({ ...i, screenshot }))}
      />
    </div>
  );
}

function renderThumbnail(overrides: Partial<ReferenceItem>, routes: Routes = {}) {
  storeToken();
  server.setRoutes({ 'GET /auth/me': { body: { user: makeUser() } }, ...routes });
  renderWithProviders(<Harness initial={{ ...toReferenceItem(makeReference()), ...overrides }} />);
}

function status(answer: Partial<ScreenshotStatusResponse>): { body: ScreenshotStatusResponse } {
  return { body: { status: 'pending', screenshot: null, frameable: false, ...answer } };
}

const shot = '/api/screenshots/crumb.jpg';

describe('reference thumbnail', () => {
  it('shows the screenshot the search answered, without polling or a live frame', async () => {
    renderThumbnail({ screenshot: shot, screenshotUrl: shot, frameable: false });
    const image = screen.getByRole('img', { name: 'Screenshot of Crumb & Co Bakery' });
    expect(image.getAttribute('src')).toBe(shot);
    expect(screen.queryByRole('button', { name: 'Live preview' })).toBeNull();
    expect(document.querySelector('iframe')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(polls()).toEqual([]);
  });

  it('offers the live frame only when the site allows framing', () => {
    renderThumbnail({ screenshot: shot, screenshotUrl: shot, frameable: true });
    const toggle = screen.getByRole('button', { name: 'Live preview' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    expect(document.querySelector('iframe')).toBeNull();
    fireEvent.click(toggle);
    const frame = screen.getByTitle('Preview of Crumb & Co Bakery');
    expect(frame.getAttribute('src')).toBe('https://crumb.example/');
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(screen.getByRole('button', { name: 'Live preview' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Live preview' }));
    expect(screen.getByRole('img', { name: 'Screenshot of Crumb & Co Bakery' })).toBeTruthy();
  });

  it('falls back from a broken screenshot to the live frame when the site allows it', () => {
    renderThumbnail({ screenshot: shot, screenshotUrl: shot, frameable: true });
    fireEvent.error(screen.getByRole('img', { name: 'Screenshot of Crumb & Co Bakery' }));
    expect(screen.getByTitle('Preview of Crumb & Co Bakery')).toBeTruthy();
  });

  it('shows No preview available for a broken screenshot of a site that refuses frames', () => {
    renderThumbnail({ screenshot: shot, screenshotUrl: shot, frameable: false });
    fireEvent.error(screen.getByRole('img', { name: 'Screenshot of Crumb & Co Bakery' }));
    expect(document.querySelector('iframe')).toBeNull();
    expect(screen.getByText('No preview available')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try to Get Screenshot' })).toBeTruthy();
  });

  it('polls while the server captures, then shows the picture and its live frame', async () => {
    let asked = 0;
    renderThumbnail(
      {},
      {
        [`GET ${STATUS}`]: () =>
          ++asked < 3 ? status({}) : status({ status: 'ready', screenshot: shot, frameable: true }),
      },
    );
    expect(screen.getByText('Preparing preview…')).toBeTruthy();
    expect(document.querySelector('iframe')).toBeNull();
    const image = await screen.findByRole('img', { name: 'Screenshot of Crumb & Co Bakery' });
    expect(image.getAttribute('src')).toBe(shot);
    expect(polls()).toHaveLength(3);
    expect(screen.getByRole('button', { name: 'Live preview' })).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(polls()).toHaveLength(3);
  });

  it('gives up after its wait with the site icon, its address and Try to Get Screenshot', async () => {
    renderThumbnail({}, { [`GET ${STATUS}`]: status({}) });
    await screen.findByText('No preview available', undefined, { timeout: 3_000 });
    const asked = polls().length;
    expect(asked).toBeGreaterThan(3);
    expect(asked).toBeLessThanOrEqual(Math.ceil(TIMING.waitMs / TIMING.pollMs) + 1);
    expect(screen.queryByText('Preparing preview…')).toBeNull();
    expect(screen.getByText('crumb.example')).toBeTruthy();
    const icon = document.querySelector('.reference-placeholder-icon');
    expect(icon?.getAttribute('src')).toBe('https://crumb.example/favicon.ico');
    expect(screen.getByRole('button', { name: 'Try to Get Screenshot' })).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(polls()).toHaveLength(asked);
  });

  it('stops at once when the server reports a failed capture; Try to Get Screenshot still works', async () => {
    renderThumbnail(
      {},
      {
        [`GET ${STATUS}`]: status({ status: 'failed' }),
        'POST /domains/screenshot': { body: { success: true, screenshot: shot } },
      },
    );
    await screen.findByText('No preview available');
    expect(polls()).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Try to Get Screenshot' }));
    await waitFor(() =>
      expect(
        screen.getByRole('img', { name: 'Screenshot of Crumb & Co Bakery' }).getAttribute('src'),
      ).toBe(shot),
    );
  });
});
