import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type {
  FormSettingsInput,
  FormSubmission,
  SiteFormList,
  SiteFormSummary,
} from '@mirror/contract';
import { makeUser, storeToken } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import {
  startTestServer,
  type Routes as ServerRoutes,
  type TestServer,
} from '../../../test/test-server';
import { FormsPanel } from './forms-panel';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const calls = (method: string, path: string) =>
  server.requests.filter((r) => r.method === method && r.path === path);

const INBOX = 'GET /domains/clone/s1/forms/submissions?spam=false';

function makeForm(overrides: Partial<SiteFormSummary> = {}): SiteFormSummary {
  const id = overrides.id ?? 'contact';
  return {
    key: 'contactKey01',
    id,
    label: id,
    kind: 'contact',
    captured: true,
    refusal: null,
    action: 'https://example.com/contact',
    method: 'POST',
    fields: [
      { name: 'email', type: 'email', required: true },
      { name: 'message', type: 'textarea', required: false },
    ],
    pages: ['/contact/', '/about/'],
    pageCount: 3,
    submitLabel: 'Send',
    enabled: true,
    redirectUrl: null,
    notify: 'each',
    webhookUrl: null,
    webhookSecret: null,
    recipient: null,
    submissions: 4,
    spam: 1,
    lastSubmissionAt: null,
    ...overrides,
  };
}

function makeSubmission(overrides: Partial<FormSubmission> = {}): FormSubmission {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    formKey: 'contactKey01',
    formLabel: 'contact',
    page: '/contact/',
    createdAt: '2026-01-02T10:00:00.000Z',
    spam: false,
    spamReason: null,
    fields: [
      { name: 'email', value: 'ann@example.com' },
      { name: 'message', value: 'Hello,\nplease call me back.' },
      { name: 'company', value: '' },
    ],
    files: [],
    ...overrides,
  };
}

const USAGE = { month: '2026-01', used: 12, limit: 50 };

async function renderPanel(list: Partial<SiteFormList>, extra: ServerRoutes = {}) {
  storeToken();
  server.setRoutes({
    'GET /auth/me': { body: { user: makeUser() } },
    'GET /domains/clone/s1/forms': { body: { forms: [], usage: USAGE, ...list } },
    [INBOX]: { body: { submissions: [], nextBefore: null } },
    'GET /domains/clone/s1/forms/submissions?spam=true': {
      body: { submissions: [], nextBefore: null },
    },
    ...extra,
  });
  renderWithProviders(<FormsPanel siteId="s1" />);
  const panel = within(screen.getByRole('region', { name: 'Forms' }));
  await panel.findByTestId('forms-usage');
  return panel;
}

/** A sentence with a value kept left-to-right inside it (a <bdi>), matched as one text. */
const sentence = (text: string) => (_content: string, element: Element | null) =>
  element?.textContent === text &&
  [...element.children].every((child) => child.textContent !== text);

const forms = (panel: ReturnType<typeof within>) =>
  panel.getAllByTestId('site-form').map((item: HTMLElement) => within(item));

describe('forms on the site page (issue 34)', () => {
  it('lists the forms found: what each is, where it is, and why the copy does not take some', async () => {
    const last = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const panel = await renderPanel({
      forms: [
        makeForm({ lastSubmissionAt: last }),
        makeForm({
          key: 'newsKey00001',
          // A form its page gave no id: called by its button's words.
          id: 'form-2',
          label: 'Subscribe',
          kind: 'newsletter',
          enabled: false,
          pages: ['/'],
          pageCount: 1,
          submissions: 0,
          spam: 0,
        }),
        makeForm({
          key: 'loginKey0001',
          submissions: 0,
          spam: 0,
          id: 'login-form',
          kind: 'login',
          captured: false,
          refusal: 'password',
          action: 'https://example.com/login',
        }),
        makeForm({
          key: 'searchKey001',
          submissions: 0,
          spam: 0,
          id: 'search',
          kind: 'search',
          captured: false,
          method: 'GET',
          action: 'https://example.com/search',
          pages: ['/blog/a-very-long-path-of-the-copy/that-wraps/'],
          pageCount: 120,
        }),
        makeForm({
          key: 'payKey000001',
          submissions: 0,
          spam: 0,
          id: 'checkout',
          kind: 'payment',
          captured: false,
          refusal: 'payment-service',
          action: 'https://checkout.stripe.com/pay',
        }),
      ],
    });
    expect(panel.getByTestId('forms-usage').textContent).toBe('12 of 50 submissions this month');
    expect(panel.queryByRole('link', { name: 'Upgrade your plan' })).toBeNull();

    const [contact, news, login, search, payment] = forms(panel);
    expect(contact!.getByRole('heading', { name: 'Contact form contact' })).toBeTruthy();
    expect(contact!.getByText('Captured', { selector: '.badge' })).toBeTruthy();
    expect(contact!.getByText(sentence('On 3 pages, first /contact/'))).toBeTruthy();
    expect(contact!.getByText('Received: 4 · Spam: 1')).toBeTruthy();
    expect(contact!.getByText('Last one 3 hours ago')).toBeTruthy();
    expect(
      (contact!.getByRole('switch', { name: 'Take submissions' }) as HTMLInputElement).checked,
    ).toBe(true);
    expect((contact!.getByLabelText('Email me') as HTMLSelectElement).value).toBe('each');
    expect(
      (contact!.getByLabelText('Address after submitting (optional)') as HTMLInputElement).value,
    ).toBe('');
    // The settings are named by their form.
    expect(contact!.getByRole('group', { name: 'Contact form contact' })).toBeTruthy();

    expect(news!.getByRole('heading', { name: 'Newsletter sign-up Subscribe' })).toBeTruthy();
    expect(news!.getByText(sentence('Id: form-2'))).toBeTruthy();
    expect(contact!.queryByText(/^Id:/)).toBeNull();
    expect(news!.getByText('Off', { selector: '.badge' })).toBeTruthy();
    expect(news!.getByText(sentence('On 1 page: /'))).toBeTruthy();
    expect(
      (news!.getByRole('switch', { name: 'Take submissions' }) as HTMLInputElement).checked,
    ).toBe(false);

    // Login and payment forms: never, whatever the owner sets.
    for (const item of [login!, payment!]) {
      expect(item.getByText('Never captured')).toBeTruthy();
      expect(item.getByTestId('form-reason').textContent).toBe(
        'Never captured: login and payment forms stay with the original site.',
      );
      expect(item.queryByRole('switch')).toBeNull();
      expect(item.queryByLabelText('Email me')).toBeNull();
    }
    expect(search!.getByText('Not captured')).toBeTruthy();
    expect(search!.getByTestId('form-reason').textContent).toBe(
      'Not captured: it submits to https://example.com/search',
    );
    expect(
      search!.getByText('https://example.com/search').closest('bdi')?.getAttribute('dir'),
    ).toBe('ltr');
    expect(
      search!.getByText(
        sentence('On 120 pages, first /blog/a-very-long-path-of-the-copy/that-wraps/'),
      ),
    ).toBeTruthy();
    expect(search!.queryByRole('switch')).toBeNull();

    // Only the forms that take submissions can be picked to filter them.
    const filter = panel.getByLabelText('Form') as HTMLSelectElement;
    expect([...filter.options].map((option) => option.textContent)).toEqual([
      'All forms',
      'Contact form: contact',
      'Newsletter sign-up: Subscribe',
    ]);
  });

  it('turns a form off, changes how to be told, and saves the address after submitting', async () => {
    const saved = (body: unknown) => {
      const input = body as FormSettingsInput;
      return {
        body: makeForm({
          ...input,
          webhookUrl: input.webhookUrl ?? null,
          webhookSecret: input.webhookUrl ? 'whsec_test' : null,
        }),
      };
    };
    const panel = await renderPanel(
      { forms: [makeForm()] },
      { 'PUT /domains/clone/s1/forms/contactKey01': ({ body }) => saved(body) },
    );
    const [contact] = forms(panel);
    fireEvent.click(contact!.getByRole('switch', { name: 'Take submissions' }));
    await waitFor(() => expect(contact!.getByText('Off', { selector: '.badge' })).toBeTruthy());
    expect(calls('PUT', '/domains/clone/s1/forms/contactKey01').map((c) => c.body)).toEqual([
      { enabled: false, redirectUrl: null, notify: 'each' },
    ]);
    expect(await screen.findByText('Form “contact” saved.')).toBeTruthy();
    expect(
      (contact!.getByRole('switch', { name: 'Take submissions' }) as HTMLInputElement).checked,
    ).toBe(false);

    fireEvent.change(contact!.getByLabelText('Email me'), { target: { value: 'daily' } });
    await waitFor(() =>
      expect((contact!.getByLabelText('Email me') as HTMLSelectElement).value).toBe('daily'),
    );
    expect(calls('PUT', '/domains/clone/s1/forms/contactKey01')[1]?.body).toEqual({
      enabled: false,
      redirectUrl: null,
      notify: 'daily',
    });

    // An address that is none: said in the reader's language, nothing sent.
    const address = contact!.getByLabelText('Address after submitting (optional)');
    fireEvent.change(address, { target: { value: 'thanks.html' } });
    fireEvent.click(contact!.getByRole('button', { name: 'Save address' }));
    expect(
      contact!.getByText(
        'Enter a full address starting with https:// or a path of the site starting with /.',
      ),
    ).toBeTruthy();
    expect(address.getAttribute('aria-invalid')).toBe('true');
    expect(calls('PUT', '/domains/clone/s1/forms/contactKey01')).toHaveLength(2);

    fireEvent.change(address, { target: { value: ' /thanks ' } });
    fireEvent.click(contact!.getByRole('button', { name: 'Save address' }));
    await waitFor(() =>
      expect(calls('PUT', '/domains/clone/s1/forms/contactKey01')).toHaveLength(3),
    );
    expect(calls('PUT', '/domains/clone/s1/forms/contactKey01')[2]?.body).toEqual({
      enabled: false,
      redirectUrl: '/thanks',
      notify: 'daily',
    });
    await waitFor(() => expect((address as HTMLInputElement).value).toBe('/thanks'));
    expect(address.getAttribute('aria-invalid')).toBeNull();

    // The webhook: an address that is none is refused here; a good one is saved and its signing
    // secret shown.
    const hook = contact!.getByLabelText('Webhook address (optional)');
    fireEvent.change(hook, { target: { value: 'ftp://hooks.example' } });
    fireEvent.click(contact!.getByRole('button', { name: 'Save webhook' }));
    expect(
      contact!.getByText('Enter a full address starting with https:// or http://.'),
    ).toBeTruthy();
    expect(calls('PUT', '/domains/clone/s1/forms/contactKey01')).toHaveLength(3);
    fireEvent.change(hook, { target: { value: 'https://hooks.example/forms' } });
    fireEvent.click(contact!.getByRole('button', { name: 'Save webhook' }));
    await waitFor(() =>
      expect(calls('PUT', '/domains/clone/s1/forms/contactKey01')).toHaveLength(4),
    );
    expect(calls('PUT', '/domains/clone/s1/forms/contactKey01')[3]?.body).toEqual({
      enabled: false,
      redirectUrl: '/thanks',
      notify: 'daily',
      webhookUrl: 'https://hooks.example/forms',
    });
    expect(await contact!.findByText('whsec_test')).toBeTruthy();
  });

  it('shows where the mails go: an address of its own until it confirms, asked again, or taken back', async () => {
    const pending = makeForm({ recipient: { email: 'sales@example.com', status: 'pending' } });
    const panel = await renderPanel(
      {
        forms: [
          pending,
          makeForm({
            key: 'newsKey00001',
            id: 'newsletter',
            kind: 'newsletter',
            recipient: { email: 'news@example.com', status: 'confirmed' },
          }),
          makeForm({ key: 'otherKey0001', id: 'other', kind: 'other' }),
        ],
      },
      {
        'POST /domains/clone/s1/forms/contactKey01/recipient/confirmation': { body: pending },
        'PUT /domains/clone/s1/forms/contactKey01': ({ body }) => ({
          body: makeForm({ ...(body as FormSettingsInput), recipient: null }),
        }),
      },
    );
    const [contact, news, other] = forms(panel);
    expect(
      contact!.getByText(
        sentence('sales@example.com has not confirmed yet: until it does, mails go to you.'),
      ),
    ).toBeTruthy();
    expect(news!.getByText(sentence('Mails go to news@example.com instead of you.'))).toBeTruthy();
    expect(news!.queryByRole('button', { name: 'Send the confirmation again' })).toBeNull();
    expect(other!.getByText(/Send the contact form to sales@example.com/)).toBeTruthy();

    fireEvent.click(contact!.getByRole('button', { name: 'Send the confirmation again' }));
    expect(await screen.findByText('Confirmation mail sent to sales@example.com.')).toBeTruthy();
    expect(
      calls('POST', '/domains/clone/s1/forms/contactKey01/recipient/confirmation'),
    ).toHaveLength(1);

    fireEvent.click(contact!.getByRole('button', { name: 'Mail me instead' }));
    await waitFor(() =>
      expect(calls('PUT', '/domains/clone/s1/forms/contactKey01').map((c) => c.body)).toEqual([
        { enabled: true, redirectUrl: null, notify: 'each', recipient: null },
      ]),
    );
    await waitFor(() =>
      expect(contact!.queryByRole('button', { name: 'Mail me instead' })).toBeNull(),
    );
  });

  it("shows the server's message when it refuses the settings", async () => {
    const message =
      'Enter a full address starting with https:// or a path of the site starting with /.';
    const panel = await renderPanel(
      { forms: [makeForm()] },
      {
        'PUT /domains/clone/s1/forms/contactKey01': {
          status: 400,
          body: { message: 'Redirect host is not allowed' },
        },
      },
    );
    const [contact] = forms(panel);
    const address = contact!.getByLabelText('Address after submitting (optional)');
    fireEvent.change(address, { target: { value: 'https://evil.example/' } });
    fireEvent.click(contact!.getByRole('button', { name: 'Save address' }));
    expect((await contact!.findByRole('alert')).textContent).toBe('Redirect host is not allowed');
    expect(contact!.queryByText(message)).toBeNull();
    // Nothing changed: the form still takes submissions.
    expect(
      (contact!.getByRole('switch', { name: 'Take submissions' }) as HTMLInputElement).checked,
    ).toBe(true);
  });

  it('lists the submissions, the newest first, and loads more', async () => {
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:file');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const newest = makeSubmission({
      files: [{ field: 'cv', name: 'cv.pdf', contentType: 'application/pdf', size: 2048 }],
    });
    const older = makeSubmission({
      id: '22222222-2222-4222-8222-222222222222',
      createdAt: '2026-01-01T09:00:00.000Z',
      page: null,
      fields: [{ name: 'email', value: 'bob@example.com' }],
    });
    const panel = await renderPanel(
      { forms: [makeForm()] },
      {
        [INBOX]: { body: { submissions: [newest], nextBefore: newest.createdAt } },
        'GET /domains/clone/s1/forms/submissions?spam=false&before=2026-01-02T10%3A00%3A00.000Z': {
          body: { submissions: [older], nextBefore: null },
        },
        [`GET /domains/clone/s1/forms/submissions/${newest.id}/files/0`]: {
          body: 'PDF-bytes',
          contentType: 'application/pdf',
        },
        'GET /domains/clone/s1/forms/submissions.csv?spam=false': {
          body: 'email\nann@example.com\n',
          contentType: 'text/csv',
        },
      },
    );
    const list = within(panel.getByRole('region', { name: 'Submissions' }));
    const [first] = (await list.findAllByTestId('submission')).map((item) => within(item));
    expect(first!.getByText(sentence('Form contact'))).toBeTruthy();
    expect(first!.getByText(sentence('Sent from /contact/'))).toBeTruthy();
    const fields = first!.getAllByRole('term').map((term) => term.textContent);
    expect(fields).toEqual(['email', 'message', 'company']);
    expect(first!.getAllByRole('definition').map((value) => value.textContent)).toEqual([
      'ann@example.com',
      'Hello,\nplease call me back.',
      '(empty)',
    ]);
    expect(list.getByRole('button', { name: 'Inbox' }).getAttribute('aria-pressed')).toBe('true');

    // A file the visitor sent, fetched with the session.
    fireEvent.click(first!.getByRole('button', { name: 'Download cv.pdf' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('cv.pdf');
    expect(
      calls('GET', `/domains/clone/s1/forms/submissions/${newest.id}/files/0`)[0]?.authorization,
    ).toBe('Bearer token-1');

    fireEvent.click(list.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(list.getAllByTestId('submission')).toHaveLength(2));
    const second = within(list.getAllByTestId('submission')[1]!);
    expect(second.getByText('bob@example.com')).toBeTruthy();
    expect(second.queryByText(/^Sent from/)).toBeNull();
    expect(list.queryByRole('button', { name: 'Load more' })).toBeNull();

    // The inbox as CSV, with the session.
    fireEvent.click(list.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(2));
    expect((click.mock.contexts[1] as HTMLAnchorElement).download).toBe('form-submissions-s1.csv');
    expect(
      calls('GET', '/domains/clone/s1/forms/submissions.csv?spam=false')[0]?.authorization,
    ).toBe('Bearer token-1');
    click.mockRestore();
  });

  it('filters by form, searches, and opens the spam', async () => {
    const spam = makeSubmission({
      id: '33333333-3333-4333-8333-333333333333',
      spam: true,
      spamReason: 'honeypot',
    });
    const panel = await renderPanel(
      { forms: [makeForm()] },
      {
        [INBOX]: { body: { submissions: [makeSubmission()], nextBefore: null } },
        'GET /domains/clone/s1/forms/submissions?form=contactKey01&spam=false': {
          body: { submissions: [makeSubmission()], nextBefore: null },
        },
        'GET /domains/clone/s1/forms/submissions?form=contactKey01&q=ann+smith&spam=false': {
          body: { submissions: [], nextBefore: null },
        },
        'GET /domains/clone/s1/forms/submissions?form=contactKey01&q=ann+smith&spam=true': {
          body: { submissions: [spam], nextBefore: null },
        },
      },
    );
    const list = within(panel.getByRole('region', { name: 'Submissions' }));
    await list.findByTestId('submission');
    fireEvent.change(list.getByLabelText('Form'), { target: { value: 'contactKey01' } });
    await waitFor(() =>
      expect(
        calls('GET', '/domains/clone/s1/forms/submissions?form=contactKey01&spam=false'),
      ).toHaveLength(1),
    );
    fireEvent.change(list.getByRole('searchbox', { name: 'Search submissions' }), {
      target: { value: ' ann smith ' },
    });
    fireEvent.click(list.getByRole('button', { name: 'Search' }));
    expect(await list.findByText('No submissions match.')).toBeTruthy();

    fireEvent.click(list.getByRole('button', { name: 'Spam' }));
    const item = within(await list.findByTestId('submission'));
    expect(list.getByRole('button', { name: 'Spam' }).getAttribute('aria-pressed')).toBe('true');
    expect(
      item.getByText('Put with spam: a hidden field only bots see was filled in.'),
    ).toBeTruthy();
    expect(
      item.getByRole('button', { name: /^Move the submission of .+ to the inbox$/ }),
    ).toBeTruthy();
  });

  it('marks a submission as spam, and deletes one once confirmed', async () => {
    const kept = makeSubmission();
    const junk = makeSubmission({
      id: '44444444-4444-4444-8444-444444444444',
      createdAt: '2026-01-01T08:00:00.000Z',
    });
    const panel = await renderPanel(
      { forms: [makeForm()] },
      {
        [INBOX]: { body: { submissions: [kept, junk], nextBefore: null } },
        [`PATCH /domains/clone/s1/forms/submissions/${junk.id}`]: ({ body }) => ({
          body: { ...junk, ...(body as { spam: boolean }), spamReason: 'owner' },
        }),
        [`DELETE /domains/clone/s1/forms/submissions/${kept.id}`]: { status: 204 },
      },
    );
    const list = within(panel.getByRole('region', { name: 'Submissions' }));
    const items = await list.findAllByTestId('submission');
    expect(items).toHaveLength(2);

    fireEvent.click(
      within(items[1]!).getByRole('button', { name: /^Mark the submission of .+ as spam$/ }),
    );
    await waitFor(() => expect(list.getAllByTestId('submission')).toHaveLength(1));
    expect(calls('PATCH', `/domains/clone/s1/forms/submissions/${junk.id}`)[0]?.body).toEqual({
      spam: true,
    });
    expect(await screen.findByText('Moved to spam.')).toBeTruthy();

    const remaining = within(list.getByTestId('submission'));
    fireEvent.click(remaining.getByRole('button', { name: /^Delete the submission of / }));
    const confirm = within(screen.getByRole('alertdialog', { name: 'Delete this submission?' }));
    // Declined: nothing is deleted.
    fireEvent.click(confirm.getByRole('button', { name: 'Keep it' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls('DELETE', `/domains/clone/s1/forms/submissions/${kept.id}`)).toHaveLength(0);

    fireEvent.click(remaining.getByRole('button', { name: /^Delete the submission of / }));
    fireEvent.click(
      within(screen.getByRole('alertdialog', { name: 'Delete this submission?' })).getByRole(
        'button',
        { name: 'Delete submission' },
      ),
    );
    await waitFor(() => expect(list.queryAllByTestId('submission')).toHaveLength(0));
    expect(calls('DELETE', `/domains/clone/s1/forms/submissions/${kept.id}`)).toHaveLength(1);
    expect(list.getByText('No submissions yet.')).toBeTruthy();
    // The counts and the month's usage are read again.
    await waitFor(() => expect(calls('GET', '/domains/clone/s1/forms').length).toBeGreaterThan(1));
  });

  it('says when the copy has no forms and nothing was sent', async () => {
    const panel = await renderPanel({ usage: { month: '2026-01', used: 0, limit: 50 } });
    expect(panel.getByTestId('forms-usage').textContent).toBe('0 of 50 submissions this month');
    expect(
      panel.getByText(
        "No forms found on this copy. They show here once a mirror finds them on the site's pages.",
      ),
    ).toBeTruthy();
    expect(panel.queryAllByTestId('site-form')).toHaveLength(0);
    const list = within(panel.getByRole('region', { name: 'Submissions' }));
    expect(await list.findByText('No submissions yet.')).toBeTruthy();
    fireEvent.click(list.getByRole('button', { name: 'Spam' }));
    expect(await list.findByText('Nothing in spam.')).toBeTruthy();
  });

  it("says when the month's submissions are used up", async () => {
    const panel = await renderPanel({
      forms: [makeForm()],
      usage: { month: '2026-01', used: 50, limit: 50 },
    });
    expect(panel.getByTestId('forms-usage').textContent).toBe('50 of 50 submissions this month');
    expect(
      panel.getByText(
        "This month's submissions are used up: the copy's forms refuse new ones until next month.",
        { exact: false },
      ),
    ).toBeTruthy();
    expect(panel.getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).toBe(
      '/billing',
    );
  });
});
