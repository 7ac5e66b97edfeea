import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CustomDomain, DomainCheckResponse, ParkedDomain } from '@mirror/contract';
import { makeUser, storeToken } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import {
  startTestServer,
  type Routes as ServerRoutes,
  type TestServer,
} from '../../../test/test-server';
import {
  activeAnswer,
  makeCustom,
  makeMessage,
  makeParked,
  overviewOf,
} from '../../../test/domain-fixtures';
import { DomainPage } from './domain-page';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const toasts = () => document.querySelector('.Toastify')?.textContent ?? '';
const calls = (method: string, path: string) =>
  server.requests.filter((r) => r.method === method && r.path === path);
const recordRows = () => screen.getAllByTestId('dns-record');
const dnsStatus = () =>
  within(screen.getByTestId('domain-verification')).getByRole('status').textContent;

async function renderDomain(
  record: ParkedDomain | CustomDomain,
  extra: ServerRoutes = {},
): Promise<void> {
  storeToken();
  server.setRoutes({
    'GET /auth/me': { body: { user: makeUser({ plan: 'pro' }) } },
    'GET /domains':
      record.kind === 'parked'
        ? { body: overviewOf({ parked: [record] }) }
        : { body: overviewOf({ custom: [record] }) },
    [`GET /domains/parked/${record.id}/messages`]: { body: [] },
    ...extra,
  });
  renderWithProviders(
    <Routes>
      <Route path="/dashboard/domain/:id" element={<DomainPage />} />
      <Route path="/dashboard" element={<p>Dashboard here</p>} />
    </Routes>,
    { route: `/dashboard/domain/${record.id}` },
  );
  await screen.findByRole('heading', { level: 1, name: record.domain });
}

describe('domain page', () => {
  it('shows a pending domain with its records, copies one, and checks now until it is active', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const parked = makeParked();
    await renderDomain(parked, {
      'GET /domains/check/parked-example.com': { body: activeAnswer(parked) },
    });
    const dns = within(screen.getByTestId('domain-verification'));
    expect(dnsStatus()).toBe('DNS Status: Pending');
    expect(screen.getByTestId('domain-problem').textContent).toContain(
      'The DNS records are not visible yet.',
    );
    expect(screen.getByTestId('domain-problem').textContent).toContain(
      'No A record for parked-example.com yet.',
    );
    expect(recordRows().map((row) => row.getAttribute('data-status'))).toEqual([
      'missing',
      'missing',
      'missing',
    ]);
    expect(recordRows()[0]!.textContent).toContain('Not found yet');
    expect(screen.getByText(/a CNAME record is not allowed here/)).toBeTruthy();
    expect(screen.getByText(/DNS changes may take up to 24 hours to propagate\./)).toBeTruthy();

    fireEvent.click(
      screen.getByRole('button', {
        name: 'Copy value of the TXT _mirror-challenge.parked-example.com record',
      }),
    );
    expect(writeText).toHaveBeenCalledWith('mirror-verification=token-123');
    await waitFor(() => expect(toasts()).toContain('DNS record copied to clipboard!'));

    fireEvent.click(dns.getByRole('button', { name: 'Check Now' }));
    await waitFor(() => expect(dnsStatus()).toBe('DNS Status: Active'));
    expect(recordRows().map((row) => row.getAttribute('data-status'))).toEqual(['ok', 'ok', 'ok']);
    expect(recordRows()[0]!.textContent).toContain('Found');
    expect(screen.queryByTestId('domain-problem')).toBeNull();
    expect(calls('GET', '/domains/check/parked-example.com')).toHaveLength(1);
    await waitFor(() => expect(toasts()).toContain('parked-example.com is active.'));
  });

  it('names what is wrong when a check finds a misconfigured domain', async () => {
    const parked = makeParked();
    const misconfigured: DomainCheckResponse = {
      ...activeAnswer(parked),
      status: 'misconfigured',
      problem: 'wrong_target',
      reason: 'parked-example.com has A 198.51.100.1; point it at 203.0.113.7.',
      verifiedAt: null,
      records: parked.records.map((record) =>
        record.type === 'A' ? { ...record, status: 'wrong', found: ['198.51.100.1'] } : record,
      ),
    };
    await renderDomain(parked, {
      'GET /domains/check/parked-example.com': { body: misconfigured },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Check Now' }));
    await waitFor(() =>
      expect(screen.getByTestId('domain-problem').textContent).toContain(
        'The domain points somewhere else.',
      ),
    );
    expect(screen.getByTestId('domain-problem').textContent).toContain(
      'parked-example.com has A 198.51.100.1; point it at 203.0.113.7.',
    );
    expect(dnsStatus()).toBe('DNS Status: Misconfigured');
    const aRecord = recordRows()[0]!;
    expect(aRecord.getAttribute('data-status')).toBe('wrong');
    expect(aRecord.textContent).toContain('Wrong value');
    expect(aRecord.textContent).toContain('Found: 198.51.100.1');
  });

  it('says when the check fails and keeps the last known state', async () => {
    await renderDomain(makeParked(), {
      'GET /domains/check/parked-example.com': {
        status: 429,
        body: { message: 'Too many DNS checks. Please wait a minute and try again.' },
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Check Now' }));
    expect(
      await screen.findByText('Too many DNS checks. Please wait a minute and try again.', {
        selector: '.alert',
      }),
    ).toBeTruthy();
    await waitFor(() => expect(toasts()).toContain('Failed to check DNS status'));
    expect(dnsStatus()).toBe('DNS Status: Pending');
  });

  it('edits the parking page: template, message and the for-sale offer', async () => {
    let saved = makeParked();
    await renderDomain(saved, {
      'PUT /domains/park/p1': ({ body }) => {
        saved = {
          ...saved,
          ...(body as Partial<ParkedDomain>),
          updatedAt: '2025-01-12T00:00:00.000Z',
        };
        return { body: saved };
      },
    });
    const panel = within(screen.getByRole('region', { name: 'Parking page' }));
    fireEvent.click(panel.getByRole('radio', { name: /^Contact form/ }));
    fireEvent.change(panel.getByLabelText('Short message'), {
      target: { value: ' Make me an offer. ' },
    });
    fireEvent.change(panel.getByLabelText('Page language'), { target: { value: 'es' } });
    fireEvent.click(panel.getByRole('switch', { name: 'This domain is for sale' }));
    const price = panel.getByLabelText('Asking price (USD)');
    fireEvent.blur(price);
    expect(
      panel.getByText('Please give an asking price for a domain that is for sale.'),
    ).toBeTruthy();
    const save = panel.getByRole('button', { name: 'Save changes' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.change(price, { target: { value: '2500' } });
    expect(save.disabled).toBe(false);
    fireEvent.click(save);

    await waitFor(() => expect(toasts()).toContain('Parking page saved.'));
    expect(calls('PUT', '/domains/park/p1').map((call) => call.body)).toEqual([
      {
        template: 'contact-form',
        content: null,
        language: 'es',
        message: 'Make me an offer.',
        monetization: 'none',
        forSale: true,
        askingPrice: 2500,
      },
    ]);
    expect((panel.getByLabelText('Short message') as HTMLInputElement).value).toBe(
      'Make me an offer.',
    );
  });

  it('previews every template in a sandboxed frame before choosing one', async () => {
    const page = (template: string) => ({
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><title>parked-example.com</title><h1>${template} page</h1>`,
    });
    await renderDomain(makeParked({ template: 'default', content: null }), {
      'GET /domains/parked/p1/preview?template=default': page('default'),
      'GET /domains/parked/p1/preview?template=minimalist': page('minimalist'),
      'GET /domains/parked/p1/preview?template=contact-form': { status: 500, body: {} },
    });
    const panel = within(screen.getByRole('region', { name: 'Parking page' }));
    const open = panel.getByRole('button', { name: 'Preview templates' });
    expect(open.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(open);

    const gallery = within(panel.getByRole('region', { name: 'Parking page previews' }));
    const frame = await gallery.findByTitle('Minimalist preview of parked-example.com');
    expect(frame.tagName).toBe('IFRAME');
    // Sandboxed with nothing allowed: no script, no form, an opaque origin.
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toContain('<h1>minimalist page</h1>');
    expect(
      (await gallery.findByTitle('Default preview of parked-example.com')).getAttribute('srcdoc'),
    ).toContain('<h1>default page</h1>');
    expect(await gallery.findByText('Could not load this preview.')).toBeTruthy();
    // Custom HTML has nothing to preview until it is saved.
    expect(gallery.getAllByRole('heading').map((h) => h.textContent)).toEqual([
      'Parking page previews',
      'Default',
      'Minimalist',
      'Contact form',
    ]);
    expect(calls('GET', '/domains/parked/p1/preview?template=custom')).toEqual([]);

    const chosen = gallery.getByRole('button', { name: 'Chosen' }) as HTMLButtonElement;
    expect(chosen.disabled).toBe(true);
    expect(gallery.getAllByRole('button', { name: 'Use this template' })).toHaveLength(2);
    fireEvent.click(
      within(gallery.getByText('Minimalist').closest('li')!).getByRole('button', {
        name: 'Use this template',
      }),
    );
    expect((panel.getByRole('radio', { name: /^Minimalist/ }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect(
      within(gallery.getByText('Minimalist').closest('li')!).getByRole('button', {
        name: 'Chosen',
      }),
    ).toBeTruthy();
    // Choosing is not saving: nothing was sent.
    expect(calls('PUT', '/domains/park/p1')).toEqual([]);
  });

  it('lists the messages and offers sent from the parking page', async () => {
    await renderDomain(makeParked({ messageCount: 2 }), {
      'GET /domains/parked/p1/messages': {
        body: [
          makeMessage(),
          makeMessage({
            id: 'm2',
            kind: 'offer',
            name: 'Alan Turing',
            email: 'alan@example.org',
            message: 'I would like to buy it.',
            amount: 1200,
            createdAt: '2025-01-12T09:00:00.000Z',
          }),
        ],
      },
    });
    const panel = within(screen.getByRole('region', { name: 'Messages and offers' }));
    await waitFor(() => expect(panel.getAllByTestId('parked-message')).toHaveLength(2));
    const [offer, contact] = panel.getAllByTestId('parked-message');
    expect(offer!.textContent).toContain('Offer');
    expect(offer!.textContent).toContain('$1,200.00');
    expect(offer!.textContent).toContain('I would like to buy it.');
    expect(contact!.textContent).toContain('Grace Hopper');
    expect(
      within(contact!).getByRole('link', { name: 'grace@example.org' }).getAttribute('href'),
    ).toBe('mailto:grace@example.org');
  });

  it('shows who visited the parking page lately', async () => {
    await renderDomain(makeParked({ visits: { visitors: 1234, pageViews: 2345 } }), {
      'GET /domains/parked/p1/messages': { body: [] },
    });
    const panel = within(screen.getByRole('region', { name: 'Visits' }));
    expect(
      panel.getByText(
        'People who opened your parking page in the last 30 days. Bots are not counted.',
      ),
    ).toBeTruthy();
    expect(panel.getByTestId('parked-visitors').textContent).toBe('1,234');
    expect(panel.getByTestId('parked-page-views').textContent).toBe('2,345');
  });

  it('deletes a parked domain only after confirming', async () => {
    await renderDomain(makeParked(), {
      'DELETE /domains/parked/p1': { body: { success: true, message: 'Domain removed.' } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Delete domain parked-example.com' }));
    let dialog = screen.getByRole('alertdialog', { name: 'Delete this domain?' });
    expect(dialog.textContent).toContain(
      'parked-example.com and its parking page will be deleted. This cannot be undone.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls('DELETE', '/domains/parked/p1')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Delete domain parked-example.com' }));
    dialog = screen.getByRole('alertdialog', { name: 'Delete this domain?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete domain' }));
    expect(await screen.findByText('Dashboard here')).toBeTruthy();
    expect(calls('DELETE', '/domains/parked/p1')).toHaveLength(1);
  });

  it('shows a custom domain with its site, www redirect and delete call', async () => {
    const custom = makeCustom({ id: 'c1', domain: 'example.org', isApex: true });
    await renderDomain(custom, {
      'PUT /domains/domain/c1': ({ body }) => ({ body: { ...custom, ...(body as object) } }),
      'DELETE /domains/domain/c1': { body: { success: true, message: 'Domain removed.' } },
    });
    expect(screen.getByText('Custom domain')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Manage the site' }).getAttribute('href')).toBe(
      '/dashboard/site/s1',
    );
    expect(screen.queryByRole('region', { name: 'Parking page' })).toBeNull();
    const redirect = screen.getByLabelText('www redirect') as HTMLSelectElement;
    fireEvent.change(redirect, { target: { value: 'apex-to-www' } });
    await waitFor(() => expect(toasts()).toContain('Domain settings saved.'));
    expect(calls('PUT', '/domains/domain/c1')[0]?.body).toEqual({ wwwRedirect: 'apex-to-www' });
    expect(redirect.value).toBe('apex-to-www');

    fireEvent.click(screen.getByRole('button', { name: 'Delete domain example.org' }));
    fireEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete domain' }),
    );
    expect(await screen.findByText('Dashboard here')).toBeTruthy();
    expect(calls('DELETE', '/domains/domain/c1')).toHaveLength(1);
  });

  it('says so when the domain is not the user’s', async () => {
    storeToken();
    server.setRoutes({
      'GET /auth/me': { body: { user: makeUser() } },
      'GET /domains': { body: overviewOf() },
    });
    renderWithProviders(
      <Routes>
        <Route path="/dashboard/domain/:id" element={<DomainPage />} />
      </Routes>,
      { route: '/dashboard/domain/zzz' },
    );
    expect(await screen.findByRole('heading', { name: 'Domain not found' })).toBeTruthy();
  });
});
