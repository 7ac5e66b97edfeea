import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { TrustedBy } from './trusted-by';

describe('Landing strip', () => {
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
