import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, storeToken } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { startTestServer, type TestServer } from '../../../test/test-server';
import { PricingSection } from './pricing-section';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ 'GET /auth/me': { body: { user: makeUser() } } });
});
afterAll(() => server.close());

const location = () => screen.getByTestId('location').textContent;

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

  it('sends a signed-in user to the checkout for Pro on the billing screen', async () => {
    storeToken();
    renderWithProviders(<PricingSection />);
    fireEvent.click(screen.getByRole('button', { name: 'Upgrade to Pro' }));
    await waitFor(() => expect(location()).toBe('/billing?plan=pro'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sends a signed-in user to the dashboard for Reflection', async () => {
    storeToken();
    renderWithProviders(<PricingSection />);
    fireEvent.click(screen.getByRole('button', { name: 'Get started free' }));
    await waitFor(() => expect(location()).toBe('/dashboard'));
  });
});
