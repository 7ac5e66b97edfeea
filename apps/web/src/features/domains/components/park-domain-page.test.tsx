import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ParkDomainBody } from '@mirror/contract';
import { makeUser, storeToken } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { startTestServer, type Routes, type TestServer } from '../../../test/test-server';
import { makeParked } from '../../../test/domain-fixtures';
import { ParkDomainPage } from './park-domain-page';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const toasts = () => document.querySelector('.Toastify')?.textContent ?? '';
const parkCalls = () =>
  server.requests.filter((r) => r.method === 'POST' && r.path === '/domains/park');

async function renderPark(routes: Routes = {}) {
  storeToken();
  server.setRoutes({ 'GET /auth/me': { body: { user: makeUser() } }, ...routes });
  renderWithProviders(<ParkDomainPage />, { route: '/park-domain' });
  await screen.findByRole('heading', { level: 1, name: 'Park a domain' });
  return {
    domain: screen.getByLabelText(/^Domain name/) as HTMLInputElement,
    submit: screen.getByRole('button', { name: 'Park Domain' }) as HTMLButtonElement,
  };
}

describe('park domain page', () => {
  it('validates the domain name on blur and change, with submit disabled while invalid', async () => {
    const { domain, submit } = await renderPark();
    expect(submit.disabled).toBe(true);
    // Nothing is said before the field is left.
    fireEvent.change(domain, { target: { value: 'nope' } });
    expect(screen.queryByText(/Invalid domain name format/)).toBeNull();

    fireEvent.change(domain, { target: { value: '' } });
    fireEvent.blur(domain);
    expect(screen.getByText('Domain name is required')).toBeTruthy();
    expect(domain.getAttribute('aria-invalid')).toBe('true');

    for (const bad of ['nope', '-bad.com', 'bad-.com', 'example.toolongtld', 'a_b.com']) {
      fireEvent.change(domain, { target: { value: bad } });
      expect(screen.getByText('Invalid domain name format (e.g., example.com)')).toBeTruthy();
      expect(submit.disabled).toBe(true);
    }
    fireEvent.change(domain, { target: { value: `${'a'.repeat(64)}.com` } });
    expect(screen.getByText('Invalid domain name format (e.g., example.com)')).toBeTruthy();

    fireEvent.change(domain, { target: { value: 'my-domain.co.uk' } });
    expect(screen.queryByText(/Invalid domain name format/)).toBeNull();
    expect(domain.getAttribute('aria-invalid')).toBeNull();
    expect(submit.disabled).toBe(false);
  });

  it('shows custom HTML only for the custom template and keeps ads and affiliate for later', async () => {
    const { domain, submit } = await renderPark();
    fireEvent.change(domain, { target: { value: 'example.com' } });
    expect(screen.queryByLabelText('Custom HTML')).toBeNull();

    fireEvent.click(screen.getByRole('radio', { name: /^Custom/ }));
    const html = screen.getByLabelText('Custom HTML');
    // The custom template needs its page.
    expect(submit.disabled).toBe(true);
    fireEvent.blur(html);
    expect(screen.getByText('Please provide the HTML of your custom parking page.')).toBeTruthy();
    fireEvent.change(html, { target: { value: '<h1>Soon</h1>' } });
    expect(submit.disabled).toBe(false);
    fireEvent.click(screen.getByRole('radio', { name: /^Minimalist/ }));
    expect(screen.queryByLabelText('Custom HTML')).toBeNull();

    const none = screen.getByRole('radio', { name: 'None' }) as HTMLInputElement;
    const ads = screen.getByRole('radio', { name: /^Ads/ }) as HTMLInputElement;
    const affiliate = screen.getByRole('radio', { name: /^Affiliate/ }) as HTMLInputElement;
    expect(none.checked).toBe(true);
    expect(ads.disabled).toBe(true);
    expect(affiliate.disabled).toBe(true);
    expect(ads.closest('label')?.textContent).toContain('Coming soon');
    expect(affiliate.closest('label')?.textContent).toContain('Coming soon');
  });

  it('parks a domain, shows the result card with the DNS records, and parks another', async () => {
    const { domain } = await renderPark({
      'POST /domains/park': ({ body }) => ({
        status: 201,
        body: makeParked({
          id: 'p7',
          domain: (body as ParkDomainBody).domain,
          template: (body as ParkDomainBody).template,
          content: (body as ParkDomainBody).content ?? null,
        }),
      }),
    });
    fireEvent.change(domain, { target: { value: '  My-Domain.COM ' } });
    fireEvent.blur(domain);
    fireEvent.click(screen.getByRole('radio', { name: /^Custom/ }));
    fireEvent.change(screen.getByLabelText('Custom HTML'), {
      target: { value: '<h1>Soon</h1>' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Park Domain' }));

    const card = within(await screen.findByRole('region', { name: 'Your domain is parked' }));
    expect(parkCalls().map((call) => call.body)).toEqual([
      {
        domain: 'my-domain.com',
        template: 'custom',
        content: '<h1>Soon</h1>',
        monetization: 'none',
      },
    ]);
    expect(parkCalls()[0]?.authorization).toBe('Bearer token-1');
    expect(card.getByText('my-domain.com')).toBeTruthy();
    expect(card.getByText('Pending')).toBeTruthy();
    expect(card.getByText('Custom')).toBeTruthy();
    expect(card.getByText('Next steps: update your DNS records')).toBeTruthy();
    const rows = card.getAllByTestId('dns-record');
    expect(rows.map((row) => row.querySelector('.dns-type')?.textContent)).toEqual([
      'A',
      'AAAA',
      'TXT',
    ]);
    expect(rows[0]!.textContent).toContain('203.0.113.7');
    expect(rows[2]!.textContent).toContain('mirror-verification=token-123');
    expect(card.getByRole('link', { name: 'Manage domain' }).getAttribute('href')).toBe(
      '/dashboard/domain/p7',
    );
    await waitFor(() => expect(toasts()).toContain('Domain my-domain.com parked successfully!'));

    fireEvent.click(card.getByRole('button', { name: 'Park Another Domain' }));
    const fresh = screen.getByLabelText(/^Domain name/) as HTMLInputElement;
    expect(fresh.value).toBe('');
    expect((screen.getByRole('radio', { name: /^Default/ }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect(screen.queryByText('Domain name is required')).toBeNull();
    expect(
      (screen.getByRole('button', { name: 'Park Domain' }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });

  it('shows what the server refused and keeps the form', async () => {
    const { domain } = await renderPark({
      'POST /domains/park': {
        status: 409,
        body: { message: 'This domain is already connected to another account.' },
      },
    });
    fireEvent.change(domain, { target: { value: 'taken.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Park Domain' }));
    const alert = await screen.findByText('This domain is already connected to another account.', {
      selector: '.alert',
    });
    expect(alert.getAttribute('role')).toBe('alert');
    expect(screen.queryByRole('region', { name: 'Your domain is parked' })).toBeNull();
    expect(domain.value).toBe('taken.com');
    expect(parkCalls()).toHaveLength(1);
  });

  it('asks visitors to log in', async () => {
    server.setRoutes({});
    renderWithProviders(<ParkDomainPage />, { route: '/park-domain' });
    await screen.findByRole('heading', { level: 1, name: 'Park a domain' });
    expect(screen.getByText('Log in or create a free account to park a domain.')).toBeTruthy();
    expect(screen.queryByLabelText(/^Domain name/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('dialog', { name: 'Log in to Mirror' })).toBeTruthy();
  });
});
