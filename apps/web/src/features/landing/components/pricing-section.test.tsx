import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { PricingSection } from './pricing-section';

describe('pricing section', () => {
  it('lists the three plans with prices and readable included/excluded marks', () => {
    renderWithProviders(<PricingSection />);
    const pro = screen.getByRole('listitem', { name: 'Mirror Pro' });
    expect(within(pro).getByText('$7')).toBeTruthy();
    expect(within(pro).getByText('Most popular')).toBeTruthy();
    expect(pro.textContent).toContain('Included:Automatic sync schedules');
    expect(pro.textContent).toContain('Included:2 custom domains');
    const free = screen.getByRole('listitem', { name: 'Reflection' });
    expect(free.textContent).toContain('$0');
    expect(free.textContent).toContain('Not included:Custom domains');
    expect(screen.getByRole('listitem', { name: 'Mirror Agency' }).textContent).toContain('$29');
  });

  it('opens the login dialog when a logged-out visitor picks a plan', async () => {
    renderWithProviders(<PricingSection />);
    fireEvent.click(screen.getByRole('button', { name: 'Upgrade to Pro' }));
    expect(await screen.findByRole('dialog', { name: 'Log in to Mirror' })).toBeTruthy();
  });
});
