import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { Footer } from './footer';

describe('Footer', () => {
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
});
