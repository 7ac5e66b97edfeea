import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PlanId } from '@mirror/contract';
import {
  makeClone,
  makeReference,
  makeStatus,
  makeUser,
  makeVersion,
  storeToken,
} from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { startTestServer, type Routes, type TestServer } from '../../../test/test-server';
import { toReferenceItem, type ReferenceItem } from '../utils/reference-item';
import { IdeaResults } from './idea-results';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(() => server.close());
afterEach(() => {
  vi.useRealTimers();
  server.requests.length = 0;
});

const IDEA = 'A neighborhood bakery with online ordering';
const bakery = makeReference();
const loaf = makeReference({
  title: 'Loaf Lab',
  url: 'https://loaf.example/',
  previewUrl: 'https://loaf.example/',
  screenshot: '/api/screenshots/loaf.jpg',
});

/** The grid over the results list state, as idea mode keeps it. */
function Harness({ initial }: { initial: ReferenceItem[] }) {
  const [items, setItems] = useState(initial);
  return (
    <IdeaResults
      idea={IDEA}
      references={items}
      onUpdate={(url, patch) =>
        setItems((current) => current.map((i) => (i.url === url ? { ...i, ...patch } : i)))
      }
      onNewSearch={() => setItems([])}
    />
  );
}

function renderGrid(plan: PlanId, routes: Routes, initial = [bakery, loaf].map(toReferenceItem)) {
  storeToken();
  server.setRoutes({
    'GET /auth/me': { body: { user: makeUser({ plan }) } },
    'GET /domains/ai-rewrite-pricing': { body: { amount: 200, currency: 'usd', available: true } },
    ...routes,
  });
  renderWithProviders(
    <>
      <Harness initial={initial} />
      <StateProbe />
    </>,
  );
}

/** What a link handed to the page it opens (the router's location state). */
function StateProbe() {
  const { state } = useLocation();
  return <output data-testid="location-state">{JSON.stringify(state ?? null)}</output>;
}

const card = (title: string) => within(screen.getByRole('article', { name: title }));
const toasts = () => document.querySelector('.Toastify')?.textContent ?? '';
const calls = (method: string, path: string) =>
  server.requests.filter((r) => r.method === method && r.path === path);

describe('reference grid', () => {
  it('clones a selected reference under an overlay until Ready, then offers the AI Rewrite', async () => {
    renderGrid('pro', {
      'POST /domains/clone': { status: 201, body: makeClone({ id: 'ref-1' }) },
      'GET /domains/clone/ref-1/status': { body: makeStatus('completed', { id: 'ref-1' }) },
    });
    fireEvent.click(card('Crumb & Co Bakery').getByRole('button', { name: 'Select Reference' }));
    const overlay = await card('Crumb & Co Bakery').findByRole('status');
    expect(overlay.textContent).toContain('cloning website');
    expect(
      (
        card('Crumb & Co Bakery').getByRole('button', {
          name: 'Select Reference',
        }) as HTMLButtonElement
      ).disabled,
    ).toBe(true);
    await waitFor(() =>
      expect(calls('POST', '/domains/clone')[0]?.body).toEqual({
        sourceUrl: 'https://crumb.example/',
        isDemo: false,
      }),
    );
    await card('Crumb & Co Bakery').findByText('Ready');
    expect(card('Crumb & Co Bakery').queryByRole('status')).toBeNull();
    expect(
      card('Crumb & Co Bakery').queryByRole('button', { name: 'Select Reference' }),
    ).toBeNull();
    const rewrite = card('Crumb & Co Bakery').getByRole('button', { name: 'AI Rewrite' });
    expect((rewrite as HTMLButtonElement).disabled).toBe(false);
    expect(
      card('Crumb & Co Bakery')
        .getByRole('link', { name: 'Manage and deploy' })
        .getAttribute('href'),
    ).toBe('/dashboard/site/ref-1');
    // Paid plans never see a price (they only learn whether rewrites are available).
    expect(card('Crumb & Co Bakery').queryByText(/\$2/)).toBeNull();
    // The other reference is untouched and still selectable.
    expect(card('Loaf Lab').getByRole('button', { name: 'Select Reference' })).toBeTruthy();
  });

  it('marks a reference whose clone call fails as Failed, and lets it be tried again', async () => {
    renderGrid('pro', {
      'POST /domains/clone': {
        status: 503,
        body: { message: 'The service is busy. Please try again.' },
      },
    });
    fireEvent.click(card('Loaf Lab').getByRole('button', { name: 'Select Reference' }));
    await card('Loaf Lab').findByText('Failed');
    await waitFor(() =>
      expect(toasts()).toContain('Reference clone failed: The service is busy. Please try again.'),
    );
    const retry = card('Loaf Lab').getByRole('button', { name: 'Try again' });
    expect((retry as HTMLButtonElement).disabled).toBe(false);
    server.setRoutes({
      'GET /auth/me': { body: { user: makeUser({ plan: 'pro' }) } },
      'POST /domains/clone': { status: 201, body: makeClone({ id: 'ref-3' }) },
      'GET /domains/clone/ref-3/status': { body: makeStatus('completed', { id: 'ref-3' }) },
    });
    fireEvent.click(retry);
    await card('Loaf Lab').findByText('Ready');
    expect(calls('POST', '/domains/clone')).toHaveLength(2);
  });

  it('retries a reference whose mirror run failed in the same site, not a new one', async () => {
    renderGrid(
      'free',
      {
        'POST /domains/clone/ref-4/remirror': { status: 202, body: makeClone({ id: 'ref-4' }) },
        'GET /domains/clone/ref-4/status': { body: makeStatus('completed', { id: 'ref-4' }) },
      },
      [{ ...toReferenceItem(loaf), cloneStatus: 'failed', cloneId: 'ref-4' }],
    );
    fireEvent.click(card('Loaf Lab').getByRole('button', { name: 'Try again' }));
    await card('Loaf Lab').findByText('Ready');
    expect(calls('POST', '/domains/clone/ref-4/remirror')).toHaveLength(1);
    expect(calls('POST', '/domains/clone')).toEqual([]);
    expect(calls('GET', '/domains')).toEqual([]);
  });

  describe('with every mirror slot in use', () => {
    // The signed-in user is known once the rewrite pricing is asked.
    const signedIn = () =>
      waitFor(() => expect(calls('GET', '/domains/ai-rewrite-pricing')).toHaveLength(1));
    const demo = makeClone({
      id: 'demo-1',
      status: 'completed',
      sourceUrl: 'https://old-demo.example/',
    });

    it('offers to replace the claimed demo, deletes it after a confirmation, then selects', async () => {
      renderGrid('free', {
        'GET /domains': { body: { sites: [demo], domains: [] } },
        'DELETE /domains/clone/demo-1': { body: { success: true, message: 'Deleted' } },
        'POST /domains/clone': { status: 201, body: makeClone({ id: 'ref-5' }) },
        'GET /domains/clone/ref-5/status': { body: makeStatus('completed', { id: 'ref-5' }) },
      });
      await signedIn();
      fireEvent.click(card('Loaf Lab').getByRole('button', { name: 'Select Reference' }));
      const choice = within(
        await screen.findByRole('dialog', { name: 'All your mirror slots are in use' }),
      );
      expect(
        choice.getByText(
          'Your plan includes 1 mirrored sites and all are in use. Replace one to select Loaf Lab, or upgrade for more.',
        ),
      ).toBeTruthy();
      // Nothing was tried yet: no failed clone, no Failed badge.
      expect(calls('POST', '/domains/clone')).toEqual([]);
      expect(card('Loaf Lab').queryByText('Failed')).toBeNull();
      expect(choice.getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/billing');
      fireEvent.click(choice.getByRole('button', { name: 'Replace old-demo.example' }));

      const confirm = within(
        await screen.findByRole('alertdialog', { name: 'Delete old-demo.example?' }),
      );
      expect(calls('DELETE', '/domains/clone/demo-1')).toEqual([]);
      fireEvent.click(confirm.getByRole('button', { name: 'Delete and select' }));
      await card('Loaf Lab').findByText('Ready');
      expect(calls('DELETE', '/domains/clone/demo-1')).toHaveLength(1);
      expect(calls('POST', '/domains/clone')[0]?.body).toEqual({
        sourceUrl: 'https://loaf.example/',
        isDemo: false,
      });
      expect(screen.queryByRole('alertdialog')).toBeNull();
    });

    it('selects nothing when the user closes the choice', async () => {
      renderGrid('free', { 'GET /domains': { body: { sites: [demo], domains: [] } } });
      await signedIn();
      fireEvent.click(card('Loaf Lab').getByRole('button', { name: 'Select Reference' }));
      const choice = within(
        await screen.findByRole('dialog', { name: 'All your mirror slots are in use' }),
      );
      fireEvent.click(choice.getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(calls('POST', '/domains/clone')).toEqual([]);
      expect(calls('DELETE', '/domains/clone/demo-1')).toEqual([]);
      expect(card('Loaf Lab').queryByText('Failed')).toBeNull();
      expect(
        (card('Loaf Lab').getByRole('button', { name: 'Select Reference' }) as HTMLButtonElement)
          .disabled,
      ).toBe(false);
    });
  });

  it('marks a reference whose mirror run fails as Failed with the run error', async () => {
    renderGrid('pro', {
      'POST /domains/clone': { status: 201, body: makeClone({ id: 'ref-2' }) },
      'GET /domains/clone/ref-2/status': {
        body: makeStatus('failed', { id: 'ref-2', error: 'The website did not answer.' }),
      },
    });
    fireEvent.click(card('Crumb & Co Bakery').getByRole('button', { name: 'Select Reference' }));
    await card('Crumb & Co Bakery').findByText('Failed');
    await waitFor(() =>
      expect(toasts()).toContain('Reference clone failed: The website did not answer.'),
    );
  });

  it('shows free users the priced rewrite with a note on the one-off payment', async () => {
    renderGrid('free', {}, [
      { ...toReferenceItem(bakery), cloneStatus: 'completed', cloneId: 'ref-1' },
    ]);
    await waitFor(() => expect(calls('GET', '/domains/ai-rewrite-pricing')).toHaveLength(1));
    const button = await card('Crumb & Co Bakery').findByRole('button', {
      name: '$2 AI Rewrite',
    });
    expect((button as HTMLButtonElement).disabled).toBe(false);
    expect(
      card('Crumb & Co Bakery').getByText(
        'A one-off $2 payment for this site. Paid plans rewrite for free.',
      ),
    ).toBeTruthy();
  });

  it('takes the price from the pricing call', async () => {
    renderGrid(
      'free',
      { 'GET /domains/ai-rewrite-pricing': { body: { amount: 350, currency: 'usd' } } },
      [{ ...toReferenceItem(bakery), cloneStatus: 'completed', cloneId: 'ref-1' }],
    );
    await card('Crumb & Co Bakery').findByRole('button', { name: '$3.50 AI Rewrite' });
  });
});

describe('a server without an AI model', () => {
  const ready = () => [
    { ...toReferenceItem(bakery), cloneStatus: 'completed' as const, cloneId: 'ref-1' },
  ];
  const unavailable = {
    'GET /domains/ai-rewrite-pricing': { body: { amount: 200, currency: 'usd', available: false } },
  };

  it.each(['free', 'pro'] as const)(
    'offers %s users no price and no rewrite, but customizing with instructions',
    async (plan) => {
      renderGrid(plan, unavailable, ready());
      const link = await card('Crumb & Co Bakery').findByRole('link', {
        name: 'Customize with instructions',
      });
      expect(link.getAttribute('href')).toBe('/dashboard/site/ref-1');
      // Nobody who just paid for a plan is sent to ask an operator for anything.
      expect(
        card('Crumb & Co Bakery').getByText(/^AI rewrites are not offered on this server/),
      ).toBeTruthy();
      expect(document.body.textContent).not.toMatch(/operator|connect an AI model/i);
      expect(card('Crumb & Co Bakery').queryByRole('button', { name: /AI Rewrite/ })).toBeNull();
      expect(card('Crumb & Co Bakery').queryByText(/\$2/)).toBeNull();
      expect(document.body.textContent).not.toMatch(/AI_|BASE_URL/);
    },
  );

  it('carries the idea into the site page’s instructions', async () => {
    renderGrid('pro', unavailable, ready());
    const link = await card('Crumb & Co Bakery').findByRole('link', {
      name: 'Customize with instructions',
    });
    fireEvent.click(link);
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe('/dashboard/site/ref-1'),
    );
    expect(JSON.parse(screen.getByTestId('location-state').textContent ?? 'null')).toEqual({
      instructions: IDEA,
    });
  });
});

describe('reference thumbnails', () => {
  // The thumbnail's own states (polling, live frame, placeholder) are in reference-thumbnail.test.
  it('shows the screenshots the search answered, and polls for the missing ones', async () => {
    renderGrid('pro', {
      [`GET /domains/screenshot?url=${encodeURIComponent('https://crumb.example/')}`]: {
        body: { status: 'ready', screenshot: '/api/screenshots/crumb.jpg', frameable: false },
      },
    });
    const image = card('Loaf Lab').getByRole('img', { name: 'Screenshot of Loaf Lab' });
    expect(image.getAttribute('src')).toBe('/api/screenshots/loaf.jpg');
    const polled = await card('Crumb & Co Bakery').findByRole('img', {
      name: 'Screenshot of Crumb & Co Bakery',
    });
    expect(polled.getAttribute('src')).toBe('/api/screenshots/crumb.jpg');
    // Neither site allows framing: no live frame anywhere.
    expect(document.querySelector('iframe')).toBeNull();
    // The grid asks the rewrite's price once the user is known: answered before the test ends, so
    // the next test does not count it as its own.
    await waitFor(() => expect(calls('GET', '/domains/ai-rewrite-pricing')).toHaveLength(1));
  });
});

describe('AI rewrite', () => {
  const ready = () => [
    { ...toReferenceItem(bakery), cloneStatus: 'completed' as const, cloneId: 'ref-1' },
  ];
  const draft = makeVersion({
    id: 'v2',
    number: 2,
    isLive: false,
    kind: 'rewrite',
    draft: true,
    changes: [
      'Title set to "A neighborhood bakery with online ordering"',
      'Main heading rewritten',
    ],
    unparsed: ['make it cosy'],
    instructions: 'make it cosy',
  });

  function rewriteRoutes(extra: Routes = {}): Routes {
    return {
      'POST /domains/clone-with-ai': {
        status: 202,
        body: { id: 'ref-1', previewUrl: 'http://crumb.localhost:8181/' },
      },
      'GET /domains/clone/ref-1/status': {
        body: makeStatus('completed', {
          id: 'ref-1',
          currentStatus: 'rewrite draft ready for review',
        }),
      },
      'GET /domains/clone/ref-1/versions': {
        body: [draft, makeVersion({ id: 'v1', number: 1, isLive: true })],
      },
      ...extra,
    };
  }

  async function startRewrite() {
    fireEvent.click(await card('Crumb & Co Bakery').findByRole('button', { name: 'AI Rewrite' }));
    const panel = within(
      await screen.findByRole('region', { name: 'AI rewrite of Crumb & Co Bakery' }),
    );
    expect(panel.getByText(IDEA)).toBeTruthy();
    fireEvent.change(panel.getByLabelText('Extra instructions (optional)'), {
      target: { value: ' make it cosy ' },
    });
    fireEvent.click(panel.getByRole('button', { name: 'Start AI rewrite' }));
    return panel;
  }

  it('rewrites into a draft, shows its changes, and publishes it', async () => {
    renderGrid(
      'pro',
      rewriteRoutes({
        'POST /domains/clone/ref-1/versions/v2/publish': {
          body: makeClone({ id: 'ref-1', status: 'completed', liveVersionId: 'v2' }),
        },
      }),
      ready(),
    );
    const panel = await startRewrite();
    await panel.findByText('Review the draft', {}, { timeout: 3_000 });
    expect(calls('POST', '/domains/clone-with-ai')[0]?.body).toEqual({
      sourceUrl: 'https://crumb.example/',
      cloneId: 'ref-1',
      originalIdea: IDEA,
      aiInstructions: 'make it cosy',
      rewriteWithAI: true,
      customizations: {},
    });
    const changes = panel.getByRole('list', { name: 'What changed' });
    expect(
      within(changes)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(draft.changes);
    expect(panel.getByRole('note').textContent).toBe('I did not understand: make it cosy');
    // Another rewrite waits while this draft is under review.
    expect(
      (card('Crumb & Co Bakery').getByRole('button', { name: 'AI Rewrite' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);

    fireEvent.click(panel.getByRole('button', { name: 'Publish' }));
    await panel.findByText('Rewrite complete. Your new site is live.');
    expect(calls('POST', '/domains/clone/ref-1/versions/v2/publish')).toHaveLength(1);
    expect(panel.getByRole('link', { name: 'Open in new tab' }).getAttribute('href')).toBe(
      'http://calm-river.localhost:8181/',
    );
    expect(panel.getByRole('link', { name: 'Manage and deploy' }).getAttribute('href')).toBe(
      '/dashboard/site/ref-1',
    );
    await waitFor(() => expect(toasts()).toContain('Rewrite published.'));
  });

  it('discards the draft', async () => {
    renderGrid(
      'pro',
      rewriteRoutes({ 'DELETE /domains/clone/ref-1/versions/v2': { status: 204 } }),
      ready(),
    );
    const panel = await startRewrite();
    fireEvent.click(await panel.findByRole('button', { name: 'Discard' }, { timeout: 3_000 }));
    await panel.findByText('Draft discarded. Your site did not change.');
    expect(calls('DELETE', '/domains/clone/ref-1/versions/v2')).toHaveLength(1);
    fireEvent.click(panel.getByRole('button', { name: 'Rewrite again' }));
    expect(panel.getByRole('button', { name: 'Start AI rewrite' })).toBeTruthy();
  });

  it('shows "AI rewrite failed: " with the payment-required message', async () => {
    const message =
      'Payment required for AI rewrite. Upgrade to Mirror Pro or pay the one-off $2 to rewrite this site.';
    renderGrid(
      'pro',
      rewriteRoutes({ 'POST /domains/clone-with-ai': { status: 402, body: { message } } }),
      ready(),
    );
    const panel = await startRewrite();
    const alert = await panel.findByRole('alert');
    expect(alert.textContent).toBe(`AI rewrite failed: ${message}`);
    await waitFor(() => expect(toasts()).toContain(`AI rewrite failed: ${message}`));
    expect(calls('GET', '/domains/clone/ref-1/status')).toEqual([]);
  });

  it('shows the run error when the rewrite run fails', async () => {
    renderGrid(
      'pro',
      rewriteRoutes({
        'GET /domains/clone/ref-1/status': {
          body: makeStatus('failed', { id: 'ref-1', error: 'The model answered nonsense twice.' }),
        },
      }),
      ready(),
    );
    const panel = await startRewrite();
    const alert = await panel.findByRole('alert', {}, { timeout: 3_000 });
    expect(alert.textContent).toBe('AI rewrite failed: The model answered nonsense twice.');
  });

  describe('paying $2 for the rewrite', () => {
    const billingView = {
      currentPlan: 'free',
      isSubscribed: false,
      isTrialing: false,
      trialEndsAt: null,
      cancel_at_period_end: false,
      subscription: null,
      mode: 'test',
      publishableKey: null,
    };

    function paymentRoutes(payment: Routes[string], extra: Routes = {}): Routes {
      return rewriteRoutes({
        'GET /payments/subscription': { body: billingView },
        'POST /payments/test/payment-methods': {
          body: { id: 'pm_test_1', brand: 'visa', last4: '4242' },
        },
        'POST /payments/ai-rewrite': payment,
        ...extra,
      });
    }

    async function openCheckout() {
      const button = await card('Crumb & Co Bakery').findByRole('button', {
        name: '$2 AI Rewrite',
      });
      // Enabled once the signed-in user is known.
      await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
      fireEvent.click(button);
      const dialog = await screen.findByRole('dialog', { name: 'AI Website Rewrite' });
      expect(dialog.textContent).toContain('A one-off payment of $2 to rewrite Crumb & Co Bakery');
      const form = within(dialog);
      await form.findByText('Test mode — use 4242 4242 4242 4242');
      return { dialog, form };
    }

    function pay(form: ReturnType<typeof within>, number: string) {
      fireEvent.change(form.getByLabelText('Card number'), { target: { value: number } });
      fireEvent.change(form.getByLabelText('Expiry date'), { target: { value: '12/34' } });
      fireEvent.change(form.getByLabelText('CVC'), { target: { value: '123' } });
      fireEvent.click(form.getByRole('button', { name: 'Pay $2' }));
    }

    it('opens the checkout, pays with the test card, then runs the rewrite with instructions', async () => {
      renderGrid(
        'free',
        paymentRoutes({
          body: { id: 'pi_1', clientSecret: 'pi_1_secret_x', status: 'succeeded' },
        }),
        ready(),
      );
      const { form } = await openCheckout();
      pay(form, '4242 4242 4242 4242');
      expect(await form.findByText('Processing payment...')).toBeTruthy();

      const panel = within(
        await screen.findByRole('region', { name: 'AI rewrite of Crumb & Co Bakery' }),
      );
      // Paid: the panel waits for the owner's instructions before the rewrite starts.
      expect(calls('POST', '/domains/clone-with-ai')).toEqual([]);
      fireEvent.change(panel.getByLabelText('Extra instructions (optional)'), {
        target: { value: 'make it cosy' },
      });
      fireEvent.click(panel.getByRole('button', { name: 'Start AI rewrite' }));
      await panel.findByText('Review the draft', {}, { timeout: 3_000 });
      expect(screen.queryByRole('dialog', { name: 'AI Website Rewrite' })).toBeNull();
      expect(calls('POST', '/payments/ai-rewrite')[0]?.body).toEqual({
        cloneId: 'ref-1',
        paymentMethodId: 'pm_test_1',
      });
      expect(calls('POST', '/domains/clone-with-ai')[0]?.body).toEqual({
        sourceUrl: 'https://crumb.example/',
        cloneId: 'ref-1',
        originalIdea: IDEA,
        aiInstructions: 'make it cosy',
        rewriteWithAI: true,
        customizations: {},
      });
      await waitFor(() =>
        expect(toasts()).toContain(
          'Payment received. Add instructions if you like, then start the AI rewrite.',
        ),
      );
      // The site's rewrite is paid: the card offers the rewrite without a price now.
      expect(card('Crumb & Co Bakery').getByRole('button', { name: 'AI Rewrite' })).toBeTruthy();
    });

    it("shows 'Payment failed' for a declined card and does not rewrite", async () => {
      renderGrid(
        'free',
        paymentRoutes({ status: 402, body: { message: 'Your card was declined.' } }),
        ready(),
      );
      const { dialog, form } = await openCheckout();
      pay(form, '4000 0000 0000 0002');
      const alert = await form.findByRole('alert');
      expect(alert.textContent).toContain('Payment failed');
      expect(alert.textContent).toContain('Your card was declined.');
      expect(calls('POST', '/domains/clone-with-ai')).toEqual([]);
      expect(screen.queryByRole('region', { name: 'AI rewrite of Crumb & Co Bakery' })).toBeNull();
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('dialog', { name: 'AI Website Rewrite' })).toBeNull();
      expect(card('Crumb & Co Bakery').getByRole('button', { name: '$2 AI Rewrite' })).toBeTruthy();
    });

    it('confirms a payment that needs 3-D Secure, then runs the rewrite', async () => {
      renderGrid(
        'free',
        paymentRoutes(
          { body: { id: 'pi_2', clientSecret: 'pi_2_secret_y', status: 'requires_action' } },
          { 'POST /payments/test/confirm': { body: { status: 'succeeded' } } },
        ),
        ready(),
      );
      const { form } = await openCheckout();
      pay(form, '4000 0025 0000 3155');
      const confirm = await screen.findByRole('alertdialog', { name: 'Confirm payment' });
      expect(calls('POST', '/domains/clone-with-ai')).toEqual([]);
      fireEvent.click(within(confirm).getByRole('button', { name: 'Complete' }));
      const panel = await screen.findByRole('region', { name: 'AI rewrite of Crumb & Co Bakery' });
      expect(calls('POST', '/payments/test/confirm')[0]?.body).toEqual({
        clientSecret: 'pi_2_secret_y',
        approve: true,
      });
      fireEvent.click(within(panel).getByRole('button', { name: 'Start AI rewrite' }));
      await waitFor(() => expect(calls('POST', '/domains/clone-with-ai')).toHaveLength(1));
    });
  });
});
