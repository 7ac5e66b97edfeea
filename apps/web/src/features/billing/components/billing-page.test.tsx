import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  PAYMENT_MESSAGES,
  type BillingView,
  type DowngradePreview,
  type Invoice,
  type PaymentMethod,
  type PlanId,
  type Subscription,
  type Usage,
} from '@mirror/contract';
import en from '../../../locales/en.json';
import { makeClone, makeUser, storeToken } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import {
  startTestServer,
  type Routes as ServerRoutes,
  type TestServer,
} from '../../../test/test-server';
import { BillingPage } from './billing-page';

const PERIOD_START = 1_767_225_600; // 2026-01-01
const PERIOD_END = 1_769_904_000; // 2026-02-01

function makeSubscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    id: 'sub_1',
    status: 'active',
    plan: 'pro',
    current_period_start: PERIOD_START,
    current_period_end: PERIOD_END,
    cancel_at_period_end: false,
    trial_end: null,
    ...overrides,
  };
}

function viewOf(subscription: Subscription | null): BillingView {
  const live = subscription !== null && ['active', 'trialing'].includes(subscription.status);
  return {
    currentPlan: live ? subscription.plan : 'free',
    isSubscribed: live && subscription.status === 'active',
    isTrialing: live && subscription.status === 'trialing',
    trialEndsAt: subscription?.trial_end ?? null,
    cancel_at_period_end: subscription?.cancel_at_period_end ?? false,
    subscription,
    mode: 'test',
    publishableKey: null,
  };
}

const usage: Usage = {
  plan: 'pro',
  periodStart: PERIOD_START,
  periodEnd: PERIOD_END,
  mirrors: { used: 2, limit: 5 },
  customDomains: { used: 0, waiting: 0, limit: 2 },
  pageViews: 1234,
  visitors: 321,
  bandwidthBytes: 1_572_864,
  parked: { visitors: 12, pageViews: 40 },
  storage: { usedBytes: 1_610_612_736, limitBytes: 21_474_836_480 },
};

/** A cancellation that changes nothing for the sites (one site, no domains, no syncs). */
const nothingChanges: DowngradePreview = {
  plan: 'free',
  effectiveAt: '2026-02-01T00:00:00.000Z',
  sites: { count: 1, limit: 1, readOnly: [] },
  syncsStopping: [],
  customDomains: { count: 0, limit: 0, detaching: [] },
  customSubdomain: false,
  chosenSubdomains: 0,
  graceDays: 14,
};

const invoice: Invoice = {
  id: 'in_1',
  number: 'MIRROR-0001',
  created: PERIOD_START,
  total: 700,
  currency: 'usd',
  status: 'paid',
  description: 'Mirror Pro',
};

const visa: PaymentMethod = {
  id: 'pm_1',
  brand: 'visa',
  last4: '4242',
  expMonth: 12,
  expYear: 2034,
  isDefault: true,
};

let server: TestServer;
/** The server's state: what the billing calls answer now. */
let subscription: Subscription | null;
let methods: PaymentMethod[];

beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
  vi.restoreAllMocks();
});

function routes(extra: ServerRoutes = {}): ServerRoutes {
  return {
    'GET /auth/me': () => ({
      body: { user: makeUser({ plan: (viewOf(subscription).currentPlan as PlanId) ?? 'free' }) },
    }),
    'GET /payments/subscription': () => ({ body: viewOf(subscription) }),
    'GET /payments/usage': { body: usage },
    'GET /payments/payment-methods': () => ({ body: methods }),
    'GET /payments/invoices': () => ({ body: subscription ? [invoice] : [] }),
    'GET /domains/clones': { body: [makeClone({ id: 's1', status: 'completed' })] },
    'GET /payments/downgrade-preview?plan=free&at=period_end': { body: nothingChanges },
    ...extra,
  };
}

async function renderBilling(
  start: Subscription | null,
  extra: ServerRoutes = {},
  route = '/billing',
  cards: PaymentMethod[] = start ? [visa] : [],
) {
  subscription = start;
  methods = cards;
  storeToken();
  server.setRoutes(routes(extra));
  renderWithProviders(<BillingPage />, { route });
  await screen.findByTestId('current-plan');
}

const calls = (method: string, path: string) =>
  server.requests.filter((r) => r.method === method && r.path === path);
const toasts = () => document.querySelector('.Toastify')?.textContent ?? '';
const plan = () => screen.getByTestId('current-plan').textContent;

/** Fills the test-mode card form of the open checkout and submits it. */
function payWith(dialog: HTMLElement, number: string, submit: string) {
  const form = within(dialog);
  fireEvent.change(form.getByLabelText('Card number'), { target: { value: number } });
  fireEvent.change(form.getByLabelText('Expiry date'), { target: { value: '12/34' } });
  fireEvent.change(form.getByLabelText('CVC'), { target: { value: '123' } });
  fireEvent.click(form.getByRole('button', { name: submit }));
}

describe('billing screen', () => {
  it('shows a free user the plan name, the upgrade link, the plans and the usage', async () => {
    await renderBilling(null);
    expect(plan()).toBe('Reflection');
    expect(screen.getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).toBe(
      '/#pricing',
    );
    expect(screen.getByRole('button', { name: 'Subscribe to Mirror Pro' })).toBeTruthy();
    // Agency goes through sales (SPEC §2 pricing rule).
    expect(screen.getByRole('link', { name: 'Contact sales' }).getAttribute('href')).toBe(
      'mailto:sales@mirror.dev?subject=Mirror%20Agency%20Plan%20Inquiry',
    );
    expect(screen.queryByRole('button', { name: 'Cancel subscription' })).toBeNull();
    expect(screen.getByRole('note').textContent).toContain('4242 4242 4242 4242');
    expect(await screen.findByText('2 of 5')).toBeTruthy();
    expect(screen.getByText('0 of 2')).toBeTruthy();
    expect(screen.getByText('Storage')).toBeTruthy();
    expect(screen.getByText('1.5 GB of 20 GB')).toBeTruthy();
    expect(screen.getByTestId('usage-page-views').textContent).toBe('1,234');
    // The sites' audience this period, and the parked pages'.
    expect(screen.getByTestId('usage-visitors').textContent).toBe('321');
    expect(screen.getByTestId('usage-bandwidth').textContent).toBe('1.5 MB');
    expect(screen.getByTestId('usage-parked-visits').textContent).toBe(
      'Visitors: 12, page views: 40',
    );
    expect(await screen.findByText('No invoices yet.')).toBeTruthy();
    expect(await screen.findByText('No payment method yet.')).toBeTruthy();
  });

  it('does not promise free AI rewrites where no AI model is connected (issue 31)', async () => {
    await renderBilling(null, {
      'GET /domains/ai-rewrite-pricing': {
        body: { amount: 200, currency: 'usd', available: false },
      },
    });
    await waitFor(() => expect(calls('GET', '/domains/ai-rewrite-pricing')).toHaveLength(1));
    expect(
      screen.getByText('You are not subscribed. Upgrade for more mirrors and custom domains.'),
    ).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/AI rewrite/i);
  });

  it('says plainly when the server takes no payments, and shows no test card', async () => {
    await renderBilling(null, {
      'GET /payments/subscription': () => ({ body: { ...viewOf(null), mode: 'off' } }),
    });
    const note = screen.getByRole('note');
    expect(note.textContent).toBe(
      'Payments are not configured on this server: plans cannot be bought or changed here.',
    );
    expect(document.body.textContent).not.toContain('4242');
  });

  it('cancels at period end only after the SPEC confirmation, then offers Reactivate', async () => {
    await renderBilling(makeSubscription(), {
      'POST /payments/cancel': () => {
        subscription = makeSubscription({ cancel_at_period_end: true });
        return { body: subscription };
      },
      'POST /payments/reactivate': () => {
        subscription = makeSubscription();
        return { body: subscription };
      },
    });
    expect(plan()).toBe('Mirror Pro');
    expect(screen.getByText('Active')).toBeTruthy();
    expect(screen.getByText(/^Renews on /)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Upgrade your plan' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel subscription' }));
    let dialog = screen.getByRole('alertdialog', { name: 'Cancel your subscription?' });
    expect(dialog.textContent).toContain(PAYMENT_MESSAGES.cancelConfirm);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep subscription' }));
    expect(calls('POST', '/payments/cancel')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Cancel subscription' }));
    dialog = screen.getByRole('alertdialog', { name: 'Cancel your subscription?' });
    // Confirming waits for what the cancellation changes.
    await within(dialog).findByTestId('downgrade-consequences');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));
    const reactivate = await screen.findByRole('button', { name: 'Reactivate' });
    expect(calls('POST', '/payments/cancel')[0]?.body).toEqual({ immediately: false });
    await waitFor(() => expect(toasts()).toContain('Subscription scheduled for cancellation.'));
    expect(screen.getByText(/^Cancels at the end of the billing period/)).toBeTruthy();
    expect(plan()).toBe('Mirror Pro');
    expect(screen.queryByRole('button', { name: 'Cancel subscription' })).toBeNull();

    fireEvent.click(reactivate);
    await screen.findByRole('button', { name: 'Cancel subscription' });
    expect(calls('POST', '/payments/reactivate')).toHaveLength(1);
    await waitFor(() => expect(toasts()).toContain('Subscription reactivated successfully!'));
  });

  it('lists what a cancellation does to the sites and domains before the user confirms', async () => {
    const ref = (id: string) => ({ id, sourceUrl: `https://${id}.example` });
    await renderBilling(makeSubscription(), {
      'GET /payments/downgrade-preview?plan=free&at=period_end': {
        body: {
          ...nothingChanges,
          sites: { count: 4, limit: 1, readOnly: [ref('a'), ref('b'), ref('c')] },
          syncsStopping: [
            { ...ref('a'), schedule: 'daily' },
            { ...ref('d'), schedule: 'weekly' },
          ],
          customDomains: {
            count: 2,
            limit: 0,
            detaching: [
              { id: 'd1', domain: 'shop.example.com', detachAt: '2026-02-15T12:00:00.000Z' },
              { id: 'd2', domain: 'blog.example.com', detachAt: '2026-02-15T12:00:00.000Z' },
            ],
          },
          chosenSubdomains: 1,
        } satisfies DowngradePreview,
      },
      'POST /payments/cancel': () => {
        subscription = makeSubscription({ cancel_at_period_end: true });
        return { body: subscription };
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel subscription' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Cancel your subscription?' });
    expect(dialog.textContent).toContain('Checking what changes for your sites and domains…');
    const confirm = within(dialog).getByRole('button', { name: 'Cancel subscription' });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);

    const list = await within(dialog).findByTestId('downgrade-consequences');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '3 of your 4 sites will become read-only: still online, but no re-mirror, customization or AI rewrite.',
      'Scheduled sync will stop on 2 of your sites.',
      'Custom domains detached on Feb 15, 2026: shop.example.com, blog.example.com. Until then they keep serving your sites.',
      'Subdomains you chose keep working, but can only be changed back to a random one.',
    ]);
    expect(dialog.textContent).toContain('What changes for your sites and domains:');
    expect(calls('POST', '/payments/cancel')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));
    await screen.findByRole('button', { name: 'Reactivate' });
    expect(calls('POST', '/payments/cancel')[0]?.body).toEqual({ immediately: false });
  });

  it('does not mention chosen subdomains in the cancel dialog when none was chosen', async () => {
    await renderBilling(makeSubscription());
    fireEvent.click(screen.getByRole('button', { name: 'Cancel subscription' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Cancel your subscription?' });
    const list = await within(dialog).findByTestId('downgrade-consequences');
    expect(list.textContent).toBe('Your sites and domains stay as they are.');
    expect(dialog.textContent).not.toContain('Subdomains you chose');
  });

  it('upgrades Pro to Agency from Manage subscription, prorated, after a confirmation', async () => {
    await renderBilling(makeSubscription(), {
      'PUT /payments/subscription': () => {
        subscription = makeSubscription({ plan: 'agency' });
        return { body: subscription };
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Manage subscription' }));
    expect(screen.getByText(/prorated on your next invoice/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Switch to Mirror Agency' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Switch to Mirror Agency?' });
    expect(dialog.textContent).toContain('Mirror Agency costs $29 per month.');
    expect(dialog.textContent).toContain('prorated on your next invoice');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep Mirror Pro' }));
    expect(calls('PUT', '/payments/subscription')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Switch to Mirror Agency' }));
    const again = screen.getByRole('alertdialog', { name: 'Switch to Mirror Agency?' });
    fireEvent.click(within(again).getByRole('button', { name: 'Switch to Mirror Agency' }));
    await waitFor(() => expect(plan()).toBe('Mirror Agency'));
    expect(calls('PUT', '/payments/subscription')[0]?.body).toEqual({ planId: 'agency' });
    await waitFor(() => expect(toasts()).toContain('Your plan is now Mirror Agency.'));
  });

  it('counts a custom domain waiting for DNS in usage, and says so', async () => {
    await renderBilling(makeSubscription(), {
      'GET /payments/usage': {
        body: { ...usage, customDomains: { used: 1, waiting: 1, limit: 2 } },
      },
    });
    const label = await screen.findByText('Custom domains attached');
    const item = label.closest('.usage-item') as HTMLElement;
    expect(item.textContent).toContain('1 of 2');
    expect(item.textContent).toContain('Including 1 waiting for DNS');
  });

  it('explains that data served counts bots and files, beside a count of people', async () => {
    await renderBilling(null, {
      'GET /payments/usage': { body: { ...usage, visitors: 0, pageViews: 0 } },
    });
    expect((await screen.findByTestId('usage-visitors')).textContent).toBe('0');
    expect(screen.getByTestId('usage-bandwidth-note').textContent).toMatch(/bots/);
  });

  it('asks before switching Agency to Pro, listing what Pro leaves out', async () => {
    await renderBilling(makeSubscription({ plan: 'agency' }), {
      'GET /payments/downgrade-preview?plan=pro&at=now': {
        body: {
          ...nothingChanges,
          plan: 'pro',
          sites: {
            count: 6,
            limit: 5,
            readOnly: [{ id: 'old', sourceUrl: 'https://old.example' }],
          },
          customDomains: {
            count: 3,
            limit: 2,
            detaching: [
              { id: 'd3', domain: 'c.example.com', detachAt: '2026-03-01T12:00:00.000Z' },
            ],
          },
          customSubdomain: true,
        } satisfies DowngradePreview,
      },
      'PUT /payments/subscription': () => {
        subscription = makeSubscription({ plan: 'pro' });
        return { body: subscription };
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Manage subscription' }));
    fireEvent.click(screen.getByRole('button', { name: 'Switch to Mirror Pro' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Switch to Mirror Pro?' });
    const list = await within(dialog).findByTestId('downgrade-consequences');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '1 of your 6 sites will become read-only: still online, but no re-mirror, customization or AI rewrite.',
      'Custom domains detached on Mar 1, 2026: c.example.com. Until then they keep serving your sites.',
    ]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep Mirror Agency' }));
    expect(calls('PUT', '/payments/subscription')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Switch to Mirror Pro' }));
    const again = screen.getByRole('alertdialog', { name: 'Switch to Mirror Pro?' });
    await within(again).findByTestId('downgrade-consequences');
    fireEvent.click(within(again).getByRole('button', { name: 'Switch to Mirror Pro' }));
    await waitFor(() => expect(plan()).toBe('Mirror Pro'));
    expect(calls('PUT', '/payments/subscription')[0]?.body).toEqual({ planId: 'pro' });
  });

  it('shows a trial with its end date', async () => {
    await renderBilling(makeSubscription({ status: 'trialing', trial_end: PERIOD_END }));
    expect(screen.getByText('Trial')).toBeTruthy();
    expect(screen.getByText(/^Trial ends on /)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel subscription' })).toBeTruthy();
  });

  it('keeps the subscription and says why when cancelling fails', async () => {
    await renderBilling(makeSubscription(), {
      'POST /payments/cancel': {
        status: 400,
        body: { message: PAYMENT_MESSAGES.notSubscribed },
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel subscription' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Cancel your subscription?' });
    await within(dialog).findByTestId('downgrade-consequences');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));
    await waitFor(() => expect(toasts()).toContain(PAYMENT_MESSAGES.notSubscribed));
    expect(screen.getByRole('button', { name: 'Cancel subscription' })).toBeTruthy();
  });

  it("says 'Failed to load billing information.' when the billing view cannot be loaded", async () => {
    storeToken();
    server.setRoutes(
      routes({ 'GET /payments/subscription': { status: 500, body: { message: 'Boom' } } }),
    );
    renderWithProviders(<BillingPage />, { route: '/billing' });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to load billing information.');
    expect(alert.textContent).toContain('Could not load subscription details: Boom');
    subscription = null;
    server.setRoutes(routes());
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByTestId('current-plan');
  });

  it('lists invoices with date, total in dollars and status, and downloads the PDF', async () => {
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:invoice');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await renderBilling(makeSubscription(), {
      'GET /payments/invoices/in_1/download': { body: '%PDF-1.7 fake' },
    });
    const row = await screen.findByTestId('invoice-row');
    expect(row.textContent).toContain('Jan 1, 2026');
    expect(row.textContent).toContain('MIRROR-0001');
    expect(row.textContent).toContain('$7.00');
    expect(row.textContent).toContain('Paid');
    // On a phone the row is a card and each cell a line labelled with its column (issue 20).
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.dataset.label),
    ).toEqual(['Date', 'Invoice', 'Amount', 'Status', undefined]);
    fireEvent.click(within(row).getByRole('button', { name: 'Download invoice MIRROR-0001' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe('invoice-in_1.pdf');
    expect(calls('GET', '/payments/invoices/in_1/download')[0]?.authorization).toBe(
      'Bearer token-1',
    );
  });

  it('says so when an invoice cannot be downloaded', async () => {
    await renderBilling(makeSubscription(), {
      'GET /payments/invoices/in_1/download': {
        status: 404,
        body: { message: PAYMENT_MESSAGES.invoiceNotFound },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Download invoice MIRROR-0001' }));
    await waitFor(() => expect(toasts()).toContain(PAYMENT_MESSAGES.invoiceNotFound));
  });

  it('makes a card the default, removes one and adds one', async () => {
    const mastercard: PaymentMethod = {
      ...visa,
      id: 'pm_2',
      brand: 'mastercard',
      last4: '4444',
      isDefault: false,
    };
    const setDefault = ({ body }: { body: unknown }) => {
      const id = (body as { paymentMethodId: string }).paymentMethodId;
      if (!methods.some((m) => m.id === id)) methods.push({ ...visa, id, last4: '1881' });
      methods = methods.map((m) => ({ ...m, isDefault: m.id === id }));
      return { body: { success: true } };
    };
    await renderBilling(
      makeSubscription(),
      {
        'PUT /payments/default-payment-method': setDefault,
        'DELETE /payments/payment-methods/pm_1': () => {
          methods = methods.filter((m) => m.id !== 'pm_1');
          return { body: { success: true } };
        },
        'POST /payments/test/payment-methods': {
          body: { id: 'pm_3', brand: 'visa', last4: '1881' },
        },
      },
      '/billing',
      [visa, mastercard],
    );
    const rows = () => screen.getAllByTestId('payment-method');
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(rows()[0]!.textContent).toContain('Visa ending in 4242');
    expect(within(rows()[0]!).getByText('Default')).toBeTruthy();
    // Nothing but brand, last4 and expiry is shown.
    expect(rows()[0]!.textContent).toContain('Expires 12/34');

    fireEvent.click(
      screen.getByRole('button', { name: 'Make Mastercard ending in 4444 the default' }),
    );
    await waitFor(() => expect(within(rows()[1]!).queryByText('Default')).toBeTruthy());
    expect(calls('PUT', '/payments/default-payment-method')[0]?.body).toEqual({
      paymentMethodId: 'pm_2',
    });
    await waitFor(() => expect(toasts()).toContain('Default payment method updated.'));

    fireEvent.click(screen.getByRole('button', { name: 'Remove Visa ending in 4242' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]!.textContent).toContain('Mastercard ending in 4444');

    fireEvent.click(screen.getByRole('button', { name: 'Add card' }));
    const dialog = screen.getByRole('dialog', { name: 'Add a card' });
    payWith(dialog, '4242424242424242', 'Save card');
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(calls('PUT', '/payments/default-payment-method')[1]?.body).toEqual({
      paymentMethodId: 'pm_3',
    });
    expect(screen.queryByRole('dialog', { name: 'Add a card' })).toBeNull();
    await waitFor(() => expect(toasts()).toContain('Card added.'));
  });

  it('says so when the billing portal cannot be opened', async () => {
    await renderBilling(makeSubscription(), {
      'POST /payments/portal-session': { status: 500, body: {} },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Open billing portal' }));
    await waitFor(() => expect(toasts()).toContain('Server error. Please try again later.'));
    expect(calls('POST', '/payments/portal-session')).toHaveLength(1);
  });

  it('subscribes to Pro from /billing?plan=pro with the test card, then shows the DNS setup modal', async () => {
    await renderBilling(
      null,
      {
        'POST /payments/test/payment-methods': {
          body: { id: 'pm_new', brand: 'visa', last4: '4242' },
        },
        'POST /payments/subscribe': () => {
          subscription = makeSubscription();
          return { body: { subscription, clientSecret: null } };
        },
      },
      '/billing?plan=pro',
    );
    const dialog = await screen.findByRole('dialog', { name: 'Subscribe to Mirror Pro' });
    expect(within(dialog).getByText('Test mode — use 4242 4242 4242 4242')).toBeTruthy();
    expect(dialog.textContent).toContain('4000 0000 0000 0002');
    expect(dialog.textContent).toContain('4000 0025 0000 3155');
    payWith(dialog, '4242 4242 4242 4242', 'Subscribe');

    await screen.findByRole('dialog', { name: 'Set up your site' });
    expect(calls('POST', '/payments/test/payment-methods')[0]?.body).toEqual({
      number: '4242424242424242',
      expMonth: 12,
      expYear: 2034,
      cvc: '123',
    });
    expect(calls('POST', '/payments/subscribe')[0]?.body).toEqual({
      planId: 'pro',
      paymentMethodId: 'pm_new',
    });
    await waitFor(() => expect(plan()).toBe('Mirror Pro'));
    await waitFor(() => expect(toasts()).toContain('You are now on Mirror Pro.'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/billing'));
    expect(screen.queryByRole('dialog', { name: 'Subscribe to Mirror Pro' })).toBeNull();
  });

  it("shows 'Payment failed' for a declined card and changes nothing", async () => {
    await renderBilling(null, {
      'POST /payments/test/payment-methods': {
        body: { id: 'pm_declined', brand: 'visa', last4: '0002' },
      },
      'POST /payments/subscribe': {
        status: 402,
        body: { message: PAYMENT_MESSAGES.cardDeclined },
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe to Mirror Pro' }));
    const dialog = screen.getByRole('dialog', { name: 'Subscribe to Mirror Pro' });
    payWith(dialog, '4000 0000 0000 0002', 'Subscribe');
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('Payment failed');
    expect(alert.textContent).toContain(PAYMENT_MESSAGES.cardDeclined);
    expect(plan()).toBe('Reflection');
    expect(screen.queryByRole('dialog', { name: 'Set up your site' })).toBeNull();
    // The form can be used again.
    expect(
      (within(dialog).getByRole('button', { name: 'Subscribe' }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });

  it('asks for 3-D Secure confirmation and fails the payment when the card holder fails it', async () => {
    await renderBilling(null, {
      'POST /payments/test/payment-methods': {
        body: { id: 'pm_3ds', brand: 'visa', last4: '3155' },
      },
      'POST /payments/subscribe': {
        body: {
          subscription: makeSubscription({ status: 'incomplete' }),
          clientSecret: 'sub_1_secret_abc',
        },
      },
      'POST /payments/test/confirm': {
        status: 402,
        body: { message: PAYMENT_MESSAGES.authenticationFailed },
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe to Mirror Pro' }));
    const checkout = screen.getByRole('dialog', { name: 'Subscribe to Mirror Pro' });
    payWith(checkout, '4000 0025 0000 3155', 'Subscribe');
    const confirm = await screen.findByRole('alertdialog', { name: 'Confirm payment' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Fail' }));
    const alert = await within(checkout).findByRole('alert');
    expect(alert.textContent).toContain('Payment failed');
    expect(alert.textContent).toContain(PAYMENT_MESSAGES.authenticationFailed);
    expect(calls('POST', '/payments/test/confirm')[0]?.body).toEqual({
      clientSecret: 'sub_1_secret_abc',
      approve: false,
    });
    expect(screen.queryByRole('alertdialog', { name: 'Confirm payment' })).toBeNull();
    expect(plan()).toBe('Reflection');
  });

  it('completes a payment confirmed in the 3-D Secure dialog', async () => {
    await renderBilling(null, {
      'POST /payments/test/payment-methods': {
        body: { id: 'pm_3ds', brand: 'visa', last4: '3155' },
      },
      'POST /payments/subscribe': {
        body: {
          subscription: makeSubscription({ status: 'incomplete' }),
          clientSecret: 'sub_1_secret_abc',
        },
      },
      'POST /payments/test/confirm': () => {
        subscription = makeSubscription();
        return { body: { status: 'succeeded' } };
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe to Mirror Pro' }));
    payWith(
      screen.getByRole('dialog', { name: 'Subscribe to Mirror Pro' }),
      '4000002500003155',
      'Subscribe',
    );
    const confirm = await screen.findByRole('alertdialog', { name: 'Confirm payment' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Complete' }));
    await screen.findByRole('dialog', { name: 'Set up your site' });
    expect(calls('POST', '/payments/test/confirm')[0]?.body).toEqual({
      clientSecret: 'sub_1_secret_abc',
      approve: true,
    });
    await waitFor(() => expect(plan()).toBe('Mirror Pro'));
  });

  it('formats the expiry as MM/YY while the user types 1229, and pays with it', async () => {
    await renderBilling(null, {
      'POST /payments/test/payment-methods': {
        body: { id: 'pm_new', brand: 'visa', last4: '4242' },
      },
      'POST /payments/subscribe': () => {
        subscription = makeSubscription();
        return { body: { subscription, clientSecret: null } };
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe to Mirror Pro' }));
    const dialog = screen.getByRole('dialog', { name: 'Subscribe to Mirror Pro' });
    const form = within(dialog);
    const expiry = form.getByLabelText('Expiry date') as HTMLInputElement;
    // Each key adds to what the field shows, as typing does.
    const shown = ['1', '2', '2', '9'].map((key) => {
      fireEvent.change(expiry, { target: { value: expiry.value + key } });
      return expiry.value;
    });
    expect(shown).toEqual(['1', '12', '12/2', '12/29']);
    // Backspace over the year's first digit leaves the month, and typing goes on from there.
    fireEvent.change(expiry, { target: { value: '12/' } });
    expect(expiry.value).toBe('12');
    fireEvent.change(expiry, { target: { value: '1229' } });
    expect(expiry.value).toBe('12/29');
    fireEvent.change(form.getByLabelText('Card number'), {
      target: { value: '4242424242424242' },
    });
    fireEvent.change(form.getByLabelText('CVC'), { target: { value: '123' } });
    fireEvent.click(form.getByRole('button', { name: 'Subscribe' }));
    await screen.findByRole('dialog', { name: 'Set up your site' });
    expect(calls('POST', '/payments/test/payment-methods')[0]?.body).toMatchObject({
      expMonth: 12,
      expYear: 2029,
    });
  });

  it('checks the card form before any call', async () => {
    await renderBilling(null);
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe to Mirror Pro' }));
    const dialog = screen.getByRole('dialog', { name: 'Subscribe to Mirror Pro' });
    const form = within(dialog);
    fireEvent.change(form.getByLabelText('Card number'), { target: { value: '4242' } });
    fireEvent.change(form.getByLabelText('Expiry date'), { target: { value: '01/20' } });
    fireEvent.click(form.getByRole('button', { name: 'Subscribe' }));
    expect(await form.findByText('Your card number is invalid.')).toBeTruthy();
    expect(form.getByText('Your card has expired.')).toBeTruthy();
    expect(form.getByText('CVC is required.')).toBeTruthy();
    expect(calls('POST', '/payments/test/payment-methods')).toHaveLength(0);
    fireEvent.click(form.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'Subscribe to Mirror Pro' })).toBeNull();
  });
});

describe('billing texts', () => {
  it('are the SPEC §8 texts in English', () => {
    expect(en.billing.loadFailed).toBe(PAYMENT_MESSAGES.loadBillingFailed);
    expect(en.billing.plan.cancelConfirm).toBe(PAYMENT_MESSAGES.cancelConfirm);
    expect(en.billing.plan.cancelled).toBe(PAYMENT_MESSAGES.cancelScheduled);
    expect(en.billing.plan.reactivated).toBe(PAYMENT_MESSAGES.reactivated);
    expect(en.payments.checkout.failed).toBe(PAYMENT_MESSAGES.paymentFailed);
    expect(en.payments.initFailed).toBe(PAYMENT_MESSAGES.initFailed);
    expect(en.billing.methods.addFailed).toBe(PAYMENT_MESSAGES.addMethodFailed);
  });
});
