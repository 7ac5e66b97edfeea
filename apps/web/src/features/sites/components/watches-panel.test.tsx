import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  PLAN_LIMIT_MESSAGES,
  type Watch,
  type WatchInput,
  type WatchList,
  type WebhookDelivery,
} from '@mirror/contract';
import { storeToken } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import {
  startTestServer,
  type Routes as ServerRoutes,
  type TestServer,
} from '../../../test/test-server';
import { WatchesPanel } from './watches-panel';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const FEED = 'http://localhost:8080/api/feeds/s1.atom?token=feed-token';
const calls = (method: string, path: string) =>
  server.requests.filter((r) => r.method === method && r.path === path);

function makeWatch(overrides: Partial<Watch> = {}): Watch {
  return {
    id: 'w1',
    siteId: 's1',
    name: 'Everything',
    scope: 'site',
    pages: [],
    selector: null,
    textFallback: null,
    keywords: [],
    minWords: 0,
    email: 'each',
    webhookUrl: null,
    webhookSecret: 'whsec_1',
    createdAt: '2026-01-01T00:00:00.000Z',
    lastHitAt: null,
    ...overrides,
  };
}

function makeDelivery(overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: 'd1',
    watchId: 'w2',
    versionId: 'v3',
    url: 'https://hooks.example.com/mirror',
    status: 'delivered',
    attempts: 1,
    lastStatusCode: 200,
    lastError: null,
    createdAt: '2026-01-02T10:00:00.000Z',
    finishedAt: '2026-01-02T10:00:01.000Z',
    nextAttemptAt: null,
    ...overrides,
  };
}

async function renderPanel(list: Partial<WatchList>, extra: ServerRoutes = {}) {
  storeToken();
  server.setRoutes({
    'GET /domains/clone/s1/watches': {
      body: { watches: [], limit: 10, used: 0, feedUrl: FEED, ...list },
    },
    'GET /domains/clone/s1/webhook-deliveries': { body: { deliveries: [] } },
    ...extra,
  });
  renderWithProviders(<WatchesPanel siteId="s1" />);
  const panel = within(screen.getByRole('region', { name: 'Watches' }));
  await panel.findByTestId('watches-usage');
  return panel;
}

const dialog = () => within(screen.getByRole('dialog', { name: 'Add a watch' }));

describe('watches on the site page (issue 33)', () => {
  it('lists the watches, what each watches and how it tells, the feed and the deliveries', async () => {
    const hit = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const panel = await renderPanel(
      {
        used: 3,
        watches: [
          makeWatch({ lastHitAt: hit }),
          makeWatch({
            id: 'w2',
            name: 'Pro price',
            scope: 'part',
            pages: ['/pricing'],
            selector: '.plan-pro .price',
            keywords: [{ text: 'sold out', when: 'appears' }],
            minWords: 3,
            email: 'daily',
            webhookUrl: 'https://hooks.example.com/mirror',
            webhookSecret: 'whsec_secret_2',
          }),
          makeWatch({ id: 'w3', name: 'Blog', scope: 'pages', pages: ['/blog', '/news'] }),
        ],
      },
      {
        'GET /domains/clone/s1/webhook-deliveries': {
          body: {
            deliveries: [
              makeDelivery({
                id: 'd2',
                status: 'pending',
                attempts: 2,
                lastStatusCode: null,
                lastError: 'connect ECONNREFUSED',
                nextAttemptAt: '2026-01-03T10:05:00.000Z',
              }),
              makeDelivery(),
            ],
          },
        },
      },
    );
    expect(panel.getByTestId('watches-usage').textContent).toBe('3 of 10 watches on your plan');
    const [site, part, pages] = panel.getAllByTestId('watch').map((item) => within(item));
    expect(site!.getByRole('heading', { name: 'Everything' })).toBeTruthy();
    expect(site!.getByText('Whole site')).toBeTruthy();
    expect(site!.getByText('Last told 2 hours ago')).toBeTruthy();
    expect(site!.getByText('Each change')).toBeTruthy();
    expect(site!.queryByLabelText('Webhook secret')).toBeNull();

    expect(part!.getByText('Part of /pricing: .plan-pro .price')).toBeTruthy();
    expect(part!.getByText('“sold out” (appears)')).toBeTruthy();
    expect(part!.getByText('Daily digest')).toBeTruthy();
    expect(part!.getByText('Not told yet')).toBeTruthy();
    expect((part!.getByLabelText('Webhook secret') as HTMLInputElement).value).toBe(
      'whsec_secret_2',
    );
    expect(
      part!.getByRole('button', { name: 'Copy the webhook secret of Pro price' }),
    ).toBeTruthy();
    expect(
      part!.getByText(/^Each delivery carries a Mirror-Signature header: t=<time>,v1=/),
    ).toBeTruthy();
    expect(pages!.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['/blog', '/news']);

    expect((panel.getByLabelText('Atom feed of change reports') as HTMLInputElement).value).toBe(
      FEED,
    );
    // A watch has a webhook: its deliveries, the newest first.
    const deliveries = within(panel.getByRole('region', { name: 'Webhook deliveries' }));
    const rows = await deliveries.findAllByTestId('delivery');
    expect(rows.map((row) => row.querySelector('.delivery-status')?.textContent)).toEqual([
      'Pending',
      'Delivered',
    ]);
    expect(rows[0]!.textContent).toContain('Attempts: 2');
    expect(rows[0]!.textContent).toContain('connect ECONNREFUSED');
    expect(rows[0]!.textContent).toMatch(/Next try .*2026/);
    expect(rows[1]!.textContent).toContain('HTTP 200');
    expect(rows[1]!.textContent).toContain('Pro price');
  });

  it('adds a watch of a part of a page: says what is missing, then sends it', async () => {
    const panel = await renderPanel(
      { used: 1, watches: [makeWatch()] },
      {
        'POST /domains/clone/s1/watches': ({ body }) => ({
          status: 201,
          body: makeWatch({ ...(body as WatchInput), id: 'w9', webhookSecret: 'whsec_new' }),
        }),
      },
    );
    // No webhook yet: no deliveries to list.
    expect(panel.queryByRole('region', { name: 'Webhook deliveries' })).toBeNull();

    fireEvent.click(panel.getByRole('button', { name: 'Add a watch' }));
    const form = dialog();
    fireEvent.change(form.getByLabelText('Name'), { target: { value: '  Pro price ' } });
    fireEvent.click(form.getByRole('radio', { name: 'A part of a page' }));
    fireEvent.change(form.getByLabelText('Page'), { target: { value: '/pricing' } });
    fireEvent.click(form.getByRole('button', { name: 'Save watch' }));
    // The contract's rule: a part needs its selector (or the text it starts with).
    expect(form.getByText('Pick the part of the page to watch.')).toBeTruthy();
    expect(form.getByLabelText('CSS selector').getAttribute('aria-invalid')).toBe('true');
    expect(calls('POST', '/domains/clone/s1/watches')).toHaveLength(0);

    fireEvent.change(form.getByLabelText('CSS selector'), {
      target: { value: '.plan-pro .price' },
    });
    fireEvent.change(form.getByLabelText('Text it starts with'), { target: { value: 'Pro' } });
    fireEvent.click(form.getByRole('button', { name: 'Add a keyword' }));
    fireEvent.click(form.getByRole('button', { name: 'Save watch' }));
    expect(form.getByText('Enter a keyword.')).toBeTruthy();
    fireEvent.change(form.getByLabelText('Keyword 1'), { target: { value: 'sold out' } });
    fireEvent.change(form.getByLabelText('Keyword 1: when'), { target: { value: 'either' } });
    fireEvent.change(form.getByLabelText('Minimum changed words'), { target: { value: '5' } });
    fireEvent.change(form.getByLabelText('Email'), { target: { value: 'daily' } });
    fireEvent.change(form.getByLabelText('Webhook address (optional)'), {
      target: { value: 'hooks.example.com' },
    });
    fireEvent.click(form.getByRole('button', { name: 'Save watch' }));
    expect(form.getByText('Enter a valid webhook address.')).toBeTruthy();
    fireEvent.change(form.getByLabelText('Webhook address (optional)'), {
      target: { value: 'https://hooks.example.com/mirror' },
    });
    fireEvent.click(form.getByRole('button', { name: 'Save watch' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls('POST', '/domains/clone/s1/watches').map((call) => call.body)).toEqual([
      {
        name: 'Pro price',
        scope: 'part',
        pages: ['/pricing'],
        selector: '.plan-pro .price',
        textFallback: 'Pro',
        keywords: [{ text: 'sold out', when: 'either' }],
        minWords: 5,
        email: 'daily',
        webhookUrl: 'https://hooks.example.com/mirror',
      },
    ]);
    expect(panel.getAllByTestId('watch')).toHaveLength(2);
    expect(panel.getByTestId('watches-usage').textContent).toBe('2 of 10 watches on your plan');
    expect(panel.getByText('Part of /pricing: .plan-pro .price')).toBeTruthy();
    expect((panel.getByLabelText('Webhook secret') as HTMLInputElement).value).toBe('whsec_new');
    expect(await panel.findByRole('region', { name: 'Webhook deliveries' })).toBeTruthy();
  });

  it('picks the part on the page: the list for people who cannot point; foreign messages ignored', async () => {
    const html =
      '<!doctype html><html><head><script>track()</script></head><body><h1>Pricing</h1><div id="pro"><p class="price" onclick="buy()">Pro $9 a month</p></div></body></html>';
    await renderPanel(
      {},
      {
        'GET /domains/clone/s1/page-source?path=%2Fnowhere': {
          status: 404,
          body: { message: 'This page is not in the copy.' },
        },
        'GET /domains/clone/s1/page-source?path=%2Fpricing%2Findex.html': {
          body: { path: '/pricing/', url: 'http://v-1.sites.test/pricing/', html },
        },
      },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add a watch' }));
    const form = dialog();
    fireEvent.click(form.getByRole('radio', { name: 'A part of a page' }));
    fireEvent.change(form.getByLabelText('Page'), { target: { value: '/nowhere' } });
    const pick = form.getByRole('button', { name: 'Pick on the page' });
    expect(pick.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(pick);
    expect(pick.getAttribute('aria-expanded')).toBe('true');
    const picker = within(await form.findByRole('region', { name: 'Pick the part on the page' }));
    expect((await picker.findByRole('alert')).textContent).toBe('This page is not in the copy.');
    fireEvent.click(picker.getByRole('button', { name: 'Close the picker' }));
    expect(form.queryByRole('region', { name: 'Pick the part on the page' })).toBeNull();

    fireEvent.change(form.getByLabelText('Page'), { target: { value: '/pricing/index.html' } });
    fireEvent.click(pick);
    const again = within(await form.findByRole('region', { name: 'Pick the part on the page' }));
    const frame = (await again.findByTitle(
      'The page /pricing/: click the part to watch',
    )) as HTMLIFrameElement;
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    const srcdoc = frame.getAttribute('srcdoc')!;
    expect(srcdoc).not.toContain('<base');
    expect(srcdoc).not.toContain('track()');
    expect(srcdoc).not.toContain('buy()');
    expect(srcdoc).toContain('mirror-pick');

    // A message from anywhere but the page's frame picks nothing.
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { type: 'mirror-pick', selector: '#evil', text: 'Evil' },
        source: null,
      }),
    );
    expect(again.queryByTestId('picked-part')).toBeNull();
    // The frame's own pick is shown before it fills the form; it can be picked again.
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { type: 'mirror-pick', selector: 'body h1', text: 'Pricing' },
        source: frame.contentWindow,
      }),
    );
    const shown = within(await again.findByTestId('picked-part'));
    expect(shown.getByText('Pricing')).toBeTruthy();
    fireEvent.click(shown.getByRole('button', { name: 'Pick again' }));
    expect(again.queryByTestId('picked-part')).toBeNull();

    // Without pointing: the page's texts, each a button.
    fireEvent.click(again.getByText("Can't point? Choose from the page's text"));
    fireEvent.click(again.getByRole('button', { name: 'Pro $9 a month' }));
    const chosen = within(again.getByTestId('picked-part'));
    expect(chosen.getByText('#pro > p.price')).toBeTruthy();
    const confirm = chosen.getByRole('button', { name: 'Watch this part' });
    expect(document.activeElement).toBe(confirm);
    fireEvent.click(confirm);

    expect(form.queryByRole('region', { name: 'Pick the part on the page' })).toBeNull();
    const selector = form.getByLabelText('CSS selector') as HTMLInputElement;
    expect(selector.value).toBe('#pro > p.price');
    expect((form.getByLabelText('Text it starts with') as HTMLInputElement).value).toBe(
      'Pro $9 a month',
    );
    // The copy's own path of the page, which the watch finds it by.
    expect((form.getByLabelText('Page') as HTMLInputElement).value).toBe('/pricing/');
    await waitFor(() => expect(document.activeElement).toBe(selector));
  });

  it('stops adding at the plan limit, and shows the limit the server answers', async () => {
    const panel = await renderPanel({ limit: 1, used: 1, watches: [makeWatch()] });
    const add = panel.getByRole('button', { name: 'Add a watch' });
    expect((add as HTMLButtonElement).disabled).toBe(true);
    expect(panel.getByText(PLAN_LIMIT_MESSAGES.watchesLimit(1))).toBeTruthy();
    expect(panel.getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).toBe(
      '/billing',
    );
  });

  it('says the limit the server answers when the plan is full elsewhere', async () => {
    const limit = PLAN_LIMIT_MESSAGES.watchesLimit(10);
    const panel = await renderPanel(
      { used: 9 },
      { 'POST /domains/clone/s1/watches': { status: 403, body: { message: limit } } },
    );
    fireEvent.click(panel.getByRole('button', { name: 'Add a watch' }));
    const form = dialog();
    fireEvent.change(form.getByLabelText('Name'), { target: { value: 'All' } });
    fireEvent.click(form.getByRole('button', { name: 'Save watch' }));
    expect((await form.findByRole('alert')).textContent).toBe(limit);
    expect(panel.queryAllByTestId('watch')).toHaveLength(0);
  });

  it('edits a watch, and deletes one once confirmed', async () => {
    const panel = await renderPanel(
      { used: 1, watches: [makeWatch({ scope: 'pages', pages: ['/a'] })] },
      {
        'PUT /domains/clone/s1/watches/w1': ({ body }) => ({
          body: makeWatch(body as WatchInput),
        }),
        'DELETE /domains/clone/s1/watches/w1': { status: 204 },
      },
    );
    fireEvent.click(panel.getByRole('button', { name: 'Edit Everything' }));
    const form = within(screen.getByRole('dialog', { name: 'Edit the watch' }));
    expect((form.getByLabelText('Pages') as HTMLTextAreaElement).value).toBe('/a');
    fireEvent.change(form.getByLabelText('Pages'), { target: { value: '/a\n\n /b \nc' } });
    fireEvent.click(form.getByRole('button', { name: 'Save watch' }));
    expect(form.getByText('A page is its path in the copy, starting with /.')).toBeTruthy();
    fireEvent.change(form.getByLabelText('Pages'), { target: { value: '/a\n\n /b ' } });
    fireEvent.click(form.getByRole('button', { name: 'Save watch' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((calls('PUT', '/domains/clone/s1/watches/w1')[0]?.body as WatchInput).pages).toEqual([
      '/a',
      '/b',
    ]);
    expect(panel.getAllByRole('listitem').map((li) => li.textContent)).toContain('/b');

    fireEvent.click(panel.getByRole('button', { name: 'Delete Everything' }));
    fireEvent.click(
      within(screen.getByRole('alertdialog', { name: 'Delete this watch?' })).getByRole('button', {
        name: 'Delete watch',
      }),
    );
    await waitFor(() => expect(panel.queryAllByTestId('watch')).toHaveLength(0));
    expect(calls('DELETE', '/domains/clone/s1/watches/w1')).toHaveLength(1);
    expect(panel.getByTestId('watches-usage').textContent).toBe('0 of 10 watches on your plan');
  });
});
