import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { FaqSection } from './faq-section';

describe('FAQ', () => {
  it('shows five questions and keeps at most one answer open', () => {
    renderWithProviders(<FaqSection />);
    const buttons = screen.getAllByRole('button', { expanded: false });
    expect(buttons).toHaveLength(5);

    const legal = screen.getByRole('button', { name: 'Is it legal to mirror a website?' });
    const domain = screen.getByRole('button', { name: 'Can I use my own domain?' });

    fireEvent.click(legal);
    expect(legal.getAttribute('aria-expanded')).toBe('true');
    const legalPanel = document.getElementById(legal.getAttribute('aria-controls')!)!;
    expect(legalPanel.hidden).toBe(false);
    expect(legalPanel.textContent).toMatch(/only mirror websites that you own/);

    fireEvent.click(domain);
    expect(domain.getAttribute('aria-expanded')).toBe('true');
    expect(legal.getAttribute('aria-expanded')).toBe('false');
    expect(legalPanel.hidden).toBe(true);
    expect(screen.getByRole('region', { name: 'Can I use my own domain?' }).textContent).toMatch(
      /included in Mirror Pro and Mirror Agency, with automatic SSL and DNS setup/,
    );

    fireEvent.click(domain);
    expect(screen.queryAllByRole('button', { expanded: true })).toHaveLength(0);
  });
});
