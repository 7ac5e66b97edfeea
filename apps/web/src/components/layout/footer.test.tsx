import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TrustedBy } from '../../features/landing/components/trusted-by';
import { renderWithProviders } from '../../test/render';
import { Footer } from './footer';

describe('Footer and landing strip', () => {
  it('has no link that leads nowhere', () => {
    renderWithProviders(<Footer />);
    const links = within(screen.getByRole('contentinfo')).getAllByRole('link');
    expect(links.length).toBeGreaterThan(5);
    for (const link of links) {
      const href = link.getAttribute('href') ?? '';
      expect(href, link.textContent ?? '').not.toMatch(/^(#?|javascript:.*)$/);
    }
    expect(screen.queryByText('Careers')).toBeNull();
    expect(screen.queryByRole('list', { name: 'Follow us' })).toBeNull();
  });

  it('shows the kinds of sites Mirror copies, not invented customers', () => {
    renderWithProviders(<TrustedBy />);
    const items = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Blogs',
      'Online shops',
      'Portfolios',
      'Documentation',
      'Landing pages',
      'Local businesses',
    ]);
    expect(
      screen.getByRole('heading', { name: 'Copies the kinds of sites people build' }),
    ).toBeTruthy();
  });
});
