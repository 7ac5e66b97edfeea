import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { DraftReview, type DraftReviewProps } from './draft-review';

const LIVE = 'http://calm-river.localhost:8181/';
const DRAFT = 'http://v-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.localhost:8181/';

function renderReview(props: Partial<DraftReviewProps> = {}) {
  const handlers = { onPublish: vi.fn(), onDiscard: vi.fn(), onUndo: vi.fn() };
  renderWithProviders(
    <DraftReview
      liveUrl={LIVE}
      draftUrl={DRAFT}
      edits={[
        { index: 0, description: 'Replaces "Acme" with "Globex"' },
        { index: 1, description: 'Hides the newsletter popup' },
      ]}
      {...handlers}
      {...props}
    />,
  );
  return { review: within(screen.getByTestId('draft-review')), ...handlers };
}

const frames = () => [...document.querySelectorAll<HTMLIFrameElement>('.draft-frame-iframe')];

describe('DraftReview', () => {
  it('shows the draft beside the live site at desktop width, sandboxed', () => {
    renderReview();
    expect(frames().map((f) => f.getAttribute('src'))).toEqual([DRAFT, LIVE]);
    expect(frames().map((f) => f.title)).toEqual([`Draft: ${DRAFT}`, `Live site: ${LIVE}`]);
    for (const frame of frames()) {
      expect(frame.getAttribute('sandbox')).toContain('allow-scripts');
      expect(frame.style.inlineSize).toBe('1280px');
    }
    expect(screen.getByRole('button', { name: 'Side by side' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(document.querySelector('.draft-compare')?.getAttribute('data-width')).toBe('1280');
  });

  it('switches between desktop (1280) and mobile (390) widths', () => {
    renderReview();
    fireEvent.click(screen.getByRole('button', { name: 'Mobile' }));
    expect(screen.getByRole('button', { name: 'Mobile' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(document.querySelector('.draft-compare')?.getAttribute('data-width')).toBe('390');
    expect(frames().map((f) => f.style.inlineSize)).toEqual(['390px', '390px']);
    fireEvent.click(screen.getByRole('button', { name: 'Desktop' }));
    expect(frames().map((f) => f.style.inlineSize)).toEqual(['1280px', '1280px']);
  });

  it('has a slider that reveals the draft over the live site', () => {
    renderReview();
    fireEvent.click(screen.getByRole('button', { name: 'Slider' }));
    expect(screen.getByTestId('draft-slider')).toBeTruthy();
    const slider = screen.getByRole('slider', {
      name: 'Drag to compare the draft with the live site',
    });
    expect((slider as HTMLInputElement).value).toBe('50');
    const top = document.querySelector<HTMLElement>('.draft-layer-top')!;
    expect(top.style.clipPath).toBe('inset(0 50% 0 0)');
    fireEvent.change(slider, { target: { value: '80' } });
    expect(top.style.clipPath).toBe('inset(0 20% 0 0)');
    expect(slider.getAttribute('aria-valuetext')).toBe('80% draft');
    // Both pages are there, the draft on top.
    expect(frames().map((f) => f.getAttribute('src'))).toEqual([LIVE, DRAFT]);
  });

  it('lists each edit in plain words with its own undo, and publishes or discards', () => {
    const { review, onUndo, onPublish, onDiscard } = renderReview();
    expect(review.getByText('Replaces "Acme" with "Globex"')).toBeTruthy();
    fireEvent.click(review.getByRole('button', { name: 'Undo: Hides the newsletter popup' }));
    expect(onUndo).toHaveBeenCalledWith(1);
    fireEvent.click(review.getByRole('button', { name: 'Publish' }));
    expect(onPublish).toHaveBeenCalledTimes(1);
    fireEvent.click(review.getByRole('button', { name: 'Discard' }));
    expect(onDiscard).toHaveBeenCalledTimes(1);
  });

  it('waits while an action runs', () => {
    renderReview({ pending: 'undo', undoing: 0 });
    for (const name of ['Publish', 'Discard', 'Undo: Hides the newsletter popup']) {
      expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(true);
    }
  });

  it('shows the summary of a draft that has no edit list (a rewrite), without undo', () => {
    renderReview({ edits: [], changes: ['Main heading rewritten'], onUndo: undefined });
    expect(screen.getByRole('list', { name: 'What changed' }).textContent).toBe(
      'Main heading rewritten',
    );
    expect(screen.queryByRole('button', { name: /^Undo/ })).toBeNull();
  });
});
