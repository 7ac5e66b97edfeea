import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CloneRecord } from '@mirror/contract';
import { makeClone, makeUser, storeToken } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { startTestServer, type TestServer } from '../../../test/test-server';
import { PreviewPanel } from './preview-panel';

const previewUrl = 'http://calm-river.localhost:8181/';

function renderPanel(clone: CloneRecord, isLoggedIn = false) {
  const onRegister = vi.fn();
  const onTryAgain = vi.fn();
  const onNewAddress = vi.fn();
  renderWithProviders(
    <PreviewPanel
      clone={clone}
      isLoggedIn={isLoggedIn}
      onRegister={onRegister}
      onTryAgain={onTryAgain}
      onNewAddress={onNewAddress}
    />,
  );
  return {
    onRegister,
    onTryAgain,
    onNewAddress,
    panel: screen.getByRole('region', { name: 'Live preview' }),
  };
}

describe('live preview panel', () => {
  it('shows a running mirror: URL, yellow status, progress, status line and time left', () => {
    const { panel } = renderPanel(
      makeClone({
        status: 'processing',
        currentStatus: 'cloning website',
        progress: 0.42,
        estimatedTime: 17,
      }),
    );
    // The address is named, but not a link until there is a copy behind it (issue 31, item 7).
    expect(within(panel).getByText(previewUrl)).toBeTruthy();
    expect(within(panel).queryByRole('link', { name: previewUrl })).toBeNull();
    const badge = within(panel).getByText('Processing');
    expect(badge.className).toContain('status-processing');
    const bar = within(panel).getByRole('progressbar', { name: 'Mirror progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('42');
    expect(bar.getAttribute('aria-valuemax')).toBe('100');
    expect(within(panel).getByTestId('clone-status-line').textContent).toBe('cloning website');
    expect(within(panel).getByText('Estimated time: 17 s')).toBeTruthy();
    // Nothing to open before the mirror is done.
    expect(within(panel).queryByRole('button', { name: 'Live Preview' })).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('colours each status', () => {
    const classes = (['pending', 'completing', 'completed', 'failed'] as const).map((status) => {
      const { panel } = renderPanel(makeClone({ status }));
      const className = panel.querySelector('.status-badge')!.className;
      cleanup();
      return [status, className];
    });
    expect(classes).toEqual([
      ['pending', 'status-badge status-pending'],
      ['completing', 'status-badge status-completing'],
      ['completed', 'status-badge status-completed'],
      ['failed', 'status-badge status-failed'],
    ]);
  });

  it('toggles the sandboxed live preview once completed', () => {
    const { panel } = renderPanel(
      makeClone({ status: 'completed', currentStatus: 'mirror created successfully', progress: 1 }),
    );
    expect(within(panel).getByText('Completed').className).toContain('status-completed');
    expect(within(panel).queryByText(/Estimated time/)).toBeNull();
    expect(panel.querySelector('iframe')).toBeNull();

    fireEvent.click(within(panel).getByRole('button', { name: 'Live Preview' }));
    const frame = panel.querySelector('iframe')!;
    expect(frame.getAttribute('src')).toBe(previewUrl);
    expect(frame.getAttribute('sandbox')).toBe(
      'allow-scripts allow-same-origin allow-forms allow-popups',
    );
    expect(frame.getAttribute('title')).toBe(`Live preview of ${previewUrl}`);

    fireEvent.click(within(panel).getByRole('button', { name: 'Close Preview' }));
    expect(panel.querySelector('iframe')).toBeNull();

    const open = within(panel).getByRole('link', { name: 'Open in new tab' });
    expect(open.getAttribute('href')).toBe(previewUrl);
    expect(open.getAttribute('target')).toBe('_blank');
  });

  it('asks guests to register and opens the register dialog', async () => {
    const { panel, onRegister } = renderPanel(makeClone({ status: 'completed', progress: 1 }));
    expect(within(panel).queryByRole('link', { name: 'Manage and deploy' })).toBeNull();
    fireEvent.click(within(panel).getByRole('button', { name: 'Register to customize' }));
    expect(onRegister).toHaveBeenCalledTimes(1);
  });

  it('links signed-in users to the site page', () => {
    const { panel } = renderPanel(makeClone({ status: 'completed', progress: 1 }), true);
    expect(
      within(panel).getByRole('link', { name: 'Manage and deploy' }).getAttribute('href'),
    ).toBe('/dashboard/site/site-1');
    expect(within(panel).queryByRole('button', { name: 'Register to customize' })).toBeNull();
  });

  it('shows a failed mirror in red with its error and a way to try again', () => {
    const { panel, onTryAgain } = renderPanel(
      makeClone({ status: 'failed', currentStatus: 'mirror failed', error: 'DNS lookup failed' }),
    );
    expect(within(panel).getByText('Failed').className).toContain('status-failed');
    // The label says it failed; no status line says it again, and no link leads to "No site here".
    expect(within(panel).getByTestId('clone-status-line').textContent).toBe('');
    expect(panel.textContent).not.toMatch(/mirror failed/i);
    expect(within(panel).queryByText(previewUrl)).toBeNull();
    expect(within(panel).queryAllByRole('link')).toHaveLength(0);
    expect(within(panel).getByRole('alert').textContent).toBe('DNS lookup failed');
    // An older server's sentence has no technical detail apart.
    expect(within(panel).queryByRole('button', { name: 'Details' })).toBeNull();
    fireEvent.click(within(panel).getByRole('button', { name: 'Try again' }));
    expect(onTryAgain).toHaveBeenCalledTimes(1);
  });

  it('says a failure in plain words and shows the technical detail only on request', () => {
    const detail =
      'http://no-such-shop.example/\nENOTFOUND: getaddrinfo ENOTFOUND no-such-shop.example';
    const { panel } = renderPanel(
      makeClone({
        status: 'failed',
        currentStatus: 'mirror failed',
        error: 'Cannot reach no-such-shop.example: no such host.',
        errorKind: 'dns',
        errorDetail: detail,
      }),
    );
    const alert = within(panel).getByRole('alert');
    expect(within(alert).getByText(/address could not be found/).textContent).toBe(
      "This website's address could not be found. Check it for typos: the domain may not exist.",
    );
    expect(alert.textContent).not.toContain('getaddrinfo');
    const toggle = within(alert).getByRole('button', { name: 'Details' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const shown = document.getElementById(toggle.getAttribute('aria-controls')!);
    expect(shown?.textContent).toBe(detail);
    fireEvent.click(toggle);
    expect(alert.textContent).not.toContain('getaddrinfo');
  });

  it('counts pages and files, names the page being copied, and says how long is left', () => {
    const running = {
      status: 'processing' as const,
      currentStatus: 'cloning website',
      progress: 0.3,
      counts: { pages: { done: 3, found: 12 }, files: { done: 1050, found: 4000 } },
      currentUrl: 'https://shop.example/products/tea?page=2',
    };
    const { panel } = renderPanel(makeClone({ ...running, estimatedTime: null }));
    expect(within(panel).getByTestId('clone-counts').textContent).toBe(
      'Pages 3 of 12 · files 1,050 of 4,000',
    );
    expect(within(panel).getByTestId('clone-current').textContent).toBe(
      'Copying shop.example/products/tea?page=2',
    );
    expect(within(panel).getByTestId('clone-eta').textContent).toBe('Estimating time...');
    cleanup();

    const almost = renderPanel(makeClone({ ...running, estimatedTime: 0 })).panel;
    expect(within(almost).getByTestId('clone-eta').textContent).toBe('Almost done');
    cleanup();

    // Nothing found yet, or no run going on: no counts and no page.
    const starting = renderPanel(
      makeClone({
        ...running,
        counts: { pages: { done: 0, found: 0 }, files: { done: 0, found: 0 } },
        currentUrl: null,
      }),
    ).panel;
    expect(within(starting).queryByTestId('clone-counts')).toBeNull();
    expect(within(starting).queryByTestId('clone-current')).toBeNull();
    cleanup();
    const done = renderPanel(makeClone({ ...running, status: 'completed', progress: 1 })).panel;
    expect(within(done).queryByTestId('clone-counts')).toBeNull();
    expect(within(done).queryByTestId('clone-current')).toBeNull();
  });
});

describe('each outcome said once (issue 31, item 7)', () => {
  it('offers "Try again" only where another try may help', () => {
    const kinds = ['http-not-found', 'refused', 'blocked-address', 'dns', 'robots'] as const;
    for (const errorKind of kinds) {
      const { panel, onNewAddress } = renderPanel(
        makeClone({ status: 'failed', error: 'No.', errorKind }),
      );
      expect(within(panel).queryByRole('button', { name: 'Try again' }), errorKind).toBeNull();
      fireEvent.click(within(panel).getByRole('button', { name: 'Try another address' }));
      expect(onNewAddress).toHaveBeenCalledTimes(1);
      cleanup();
    }
    for (const errorKind of ['timeout', 'connection', 'http-server', 'time-limit'] as const) {
      const { panel, onTryAgain } = renderPanel(
        makeClone({ status: 'failed', error: 'Slow.', errorKind }),
      );
      fireEvent.click(within(panel).getByRole('button', { name: 'Try again' }));
      expect(onTryAgain, errorKind).toHaveBeenCalledTimes(1);
      expect(within(panel).queryByRole('button', { name: 'Try another address' })).toBeNull();
      cleanup();
    }
  });

  it('says "Completed" once, by the status label, with the address as a link', () => {
    const { panel } = renderPanel(
      makeClone({ status: 'completed', currentStatus: 'mirror created successfully', progress: 1 }),
    );
    expect(panel.textContent?.match(/completed/gi)).toEqual(['Completed']);
    expect(panel.textContent).not.toMatch(/created successfully/i);
    expect(within(panel).getByRole('link', { name: previewUrl }).getAttribute('href')).toBe(
      previewUrl,
    );
  });
});

describe('a demo after signing in (issue 31, item 1)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({});
  });
  afterAll(() => server.close());

  it("offers the site page only once the demo is the account's", async () => {
    storeToken();
    server.setRoutes({
      'GET /auth/me': { body: { user: makeUser() } },
      'GET /domains/clones': { body: [makeClone({ id: 'site-1', status: 'completed' })] },
    });
    const { panel } = renderPanel(
      makeClone({ id: 'site-1', status: 'completed', progress: 1, isDemo: true }),
      true,
    );
    const manage = await within(panel).findByRole('link', { name: 'Manage and deploy' });
    expect(manage.getAttribute('href')).toBe('/dashboard/site/site-1');
    expect(within(panel).queryByTestId('preview-not-claimed')).toBeNull();
  });

  it('says a demo the sign-up could not claim is not yours, with no way to manage it', async () => {
    storeToken();
    server.setRoutes({
      'GET /auth/me': { body: { user: makeUser() } },
      'GET /domains/clones': { body: [makeClone({ id: 'older-site', status: 'completed' })] },
    });
    const { panel } = renderPanel(
      makeClone({ id: 'site-1', status: 'completed', progress: 1, isDemo: true }),
      true,
    );
    expect((await within(panel).findByTestId('preview-not-claimed')).textContent).toContain(
      'This demo was not added to your account',
    );
    expect(within(panel).queryByRole('link', { name: 'Manage and deploy' })).toBeNull();
    expect(within(panel).getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe(
      '/billing',
    );
  });
});

describe('the fidelity check after the mirror (issue 31, item 10)', () => {
  const completed = (fidelity: CloneRecord['fidelity']) =>
    renderPanel(makeClone({ status: 'completed', progress: 1, fidelity })).panel;

  it('says how far the check got while it runs', () => {
    let panel = completed({ state: 'queued', score: null, pagesChecked: 0 });
    expect(within(panel).getByTestId('preview-fidelity').textContent).toBe(
      'Checking fidelity: waiting for a browser to compare the copy with the original…',
    );
    cleanup();
    panel = completed({ state: 'running', score: null, pagesChecked: 0 });
    expect(within(panel).getByTestId('preview-fidelity').textContent).toBe(
      'Checking fidelity: opening the original and the copy in a browser…',
    );
    cleanup();
    panel = completed({
      state: 'running',
      score: null,
      pagesChecked: 0,
      progress: { done: 3, total: 6 },
    });
    expect(within(panel).getByTestId('preview-fidelity').textContent).toBe(
      'Checking fidelity: 3 of 6 comparisons done (each page at desktop and at mobile width)',
    );
    const bar = within(panel).getByRole('progressbar', { name: 'Fidelity check progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
    cleanup();
    panel = completed({
      state: 'running',
      score: null,
      pagesChecked: 0,
      progress: { done: 6, total: 6 },
    });
    expect(within(panel).getByTestId('preview-fidelity').textContent).toBe(
      'Checking fidelity: finishing the report…',
    );
  });

  it('shows a loading indicator over the live preview until its page has loaded', () => {
    const panel = completed(null);
    fireEvent.click(within(panel).getByRole('button', { name: 'Live Preview' }));
    expect(within(panel).getByTestId('site-frame-loading').textContent?.trim()).toBe(
      'Loading the preview…',
    );
    fireEvent.load(panel.querySelector('iframe')!);
    expect(within(panel).queryByTestId('site-frame-loading')).toBeNull();
  });

  it('explains the score when it appears', () => {
    const panel = completed({ state: 'completed', score: 99.62, pagesChecked: 3 });
    expect(within(panel).getByTestId('preview-fidelity').textContent).toBe(
      'Fidelity 99.6% · 3 pages checked',
    );
    expect(
      within(panel).getByText(/^The share of the copy's pixels that look the same/),
    ).toBeTruthy();
  });
});

describe('scrolling the panel into view', () => {
  const scrolls: { element: Element; options: ScrollIntoViewOptions | undefined }[] = [];
  const original = Element.prototype.scrollIntoView;
  const originalMatchMedia = window.matchMedia;

  function recordScrolls() {
    // jsdom has no layout and no scrollIntoView: record what would have scrolled.
    Element.prototype.scrollIntoView = function (options?: boolean | ScrollIntoViewOptions) {
      scrolls.push({ element: this, options: options as ScrollIntoViewOptions | undefined });
    };
  }

  afterEach(() => {
    Element.prototype.scrollIntoView = original;
    window.matchMedia = originalMatchMedia;
    scrolls.length = 0;
  });

  /** The panel of a running mirror, with a button standing in for the status poll that completes it. */
  function Run() {
    const [clone, setClone] = useState(makeClone({ status: 'processing', progress: 0.5 }));
    return (
      <>
        <button
          type="button"
          onClick={() => setClone(makeClone({ status: 'completed', progress: 1 }))}
        >
          complete
        </button>
        <PreviewPanel
          clone={clone}
          isLoggedIn={false}
          onRegister={vi.fn()}
          onTryAgain={vi.fn()}
          onNewAddress={vi.fn()}
        />
      </>
    );
  }

  it('brings the preview into view, smoothly, when the mirror completes', () => {
    recordScrolls();
    renderWithProviders(<Run />);
    const panel = screen.getByRole('region', { name: 'Live preview' });
    expect(scrolls).toHaveLength(1);
    act(() => fireEvent.click(screen.getByRole('button', { name: 'complete' })));
    expect(scrolls).toHaveLength(2);
    expect(scrolls[1]!.element).toBe(panel);
    expect(scrolls[1]!.options?.behavior).toBe('smooth');
    expect(within(panel).getByRole('button', { name: 'Live Preview' })).toBeTruthy();
  });

  it('jumps instead of gliding for a reader who asked for less motion', () => {
    recordScrolls();
    window.matchMedia = (query: string) =>
      ({
        ...originalMatchMedia(query),
        matches: query === '(prefers-reduced-motion: reduce)',
      }) as MediaQueryList;
    renderWithProviders(<Run />);
    act(() => fireEvent.click(screen.getByRole('button', { name: 'complete' })));
    expect(scrolls.map((s) => s.options?.behavior)).toEqual(['auto', 'auto']);
  });
});
