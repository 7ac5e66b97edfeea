import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { CloneRecord } from '@mirror/contract';
import { makeClone } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { PreviewPanel } from './preview-panel';

const previewUrl = 'http://calm-river.localhost:8181/';

function renderPanel(clone: CloneRecord, isLoggedIn = false) {
  const onRegister = vi.fn();
  const onTryAgain = vi.fn();
  renderWithProviders(
    <PreviewPanel
      clone={clone}
      isLoggedIn={isLoggedIn}
      onRegister={onRegister}
      onTryAgain={onTryAgain}
    />,
  );
  return { onRegister, onTryAgain, panel: screen.getByRole('region', { name: 'Live preview' }) };
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
    expect(within(panel).getByRole('link', { name: previewUrl }).getAttribute('href')).toBe(
      previewUrl,
    );
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
    expect(within(panel).getByTestId('clone-status-line').textContent).toBe('mirror failed');
    expect(within(panel).getByRole('alert').textContent).toBe('DNS lookup failed');
    fireEvent.click(within(panel).getByRole('button', { name: 'Try again' }));
    expect(onTryAgain).toHaveBeenCalledTimes(1);
  });
});
