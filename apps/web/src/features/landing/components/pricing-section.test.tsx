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

  it('sells no AI rewrite where no AI model is connected (issue 31)', async () => {
    server.setRoutes({
      'GET /auth/me': { body: { user: makeUser() } },
      'GET /domains/ai-rewrite-pricing': {
        body: { amount: 200, currency: 'usd', available: false },
      },
    });
    renderWithProviders(<PricingSection />);
    await waitFor(() =>
      expect(server.requests.some((r) => r.path === '/domains/ai-rewrite-pricing')).toBe(true),
    );
    const pro = screen.getByRole('listitem', { name: 'Mirror Pro' });
    expect(pro.textContent).toContain('Included:2 custom domains');
    for (const name of ['Reflection', 'Mirror Pro', 'Mirror Agency']) {
      expect(screen.getByRole('listitem', { name }).textContent).not.toMatch(/rewrite/i);
    }
  });

  it('lists AI rewrites, at the server’s price, where a model is connected', async () => {
    server.setRoutes({
      'GET /auth/me': { body: { user: makeUser() } },
      'GET /domains/ai-rewrite-pricing': {
        body: { amount: 350, currency: 'usd', available: true },
      },
    });
    renderWithProviders(<PricingSection />);
    const free = screen.getByRole('listitem', { name: 'Reflection' });
    await waitFor(() =>
      expect(free.textContent).toContain('Included:AI rewrite for a one-time $3.50'),
    );
    expect(screen.getByRole('listitem', { name: 'Mirror Pro' }).textContent).toContain(
      'Included:Free AI rewrites',
    );
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
