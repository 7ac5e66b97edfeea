import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { idleReal, waitForReal } from '../test/real-time';
import { notify } from './toast';

const shown = () => [...document.querySelectorAll('.Toastify__toast')].map((t) => t.textContent);

describe('toasts', () => {
  it('shows the same toast once while it is on screen', async () => {
    renderWithProviders(<p>page</p>);
    notify.success('Settings saved successfully!');
    notify.success('Settings saved successfully!');
    await waitForReal(() => shown().length > 0);
    notify.success('Settings saved successfully!');
    await idleReal();
    expect(shown()).toEqual(['Settings saved successfully!']);
  });

  it('shows different toasts, and the same text of another kind, side by side', async () => {
    renderWithProviders(<p>page</p>);
    notify.success('Saved');
    notify.error('Failed to save settings.');
    notify.info('Saved');
    await waitForReal(() => shown().length === 3);
    expect(shown().sort()).toEqual(['Failed to save settings.', 'Saved', 'Saved']);
  });
});
