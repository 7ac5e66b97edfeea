import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IDEA_SEARCH_LIMIT } from '@mirror/contract';
import { makeReference, makeUser, storeToken } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { startTestServer, type Routes, type TestServer } from '../../../test/test-server';
import { IdeaMode } from './idea-mode';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

const found = [
  makeReference(),
  makeReference({
    title: 'Loaf Lab',
    url: 'https://loaf.example/',
    previewUrl: 'https://loaf.example/',
  }),
];

function renderSignedIn(routes: Routes) {
  storeToken();
  server.setRoutes({
    'GET /auth/me': { body: { user: makeUser({ plan: 'pro' }) } },
    ...routes,
  });
  renderWithProviders(<IdeaMode />);
}

const toasts = () => document.querySelector('.Toastify')?.textContent ?? '';

describe('idea mode', () => {
  it('asks guests to log in', () => {
    renderWithProviders(<IdeaMode />);
    expect(screen.queryByLabelText('Describe your website idea')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Log in to continue' }));
    expect(screen.getByRole('dialog', { name: /log in/i })).toBeTruthy();
  });

  it('requires an idea before searching', () => {
    renderSignedIn({});
    fireEvent.click(screen.getByRole('button', { name: 'Find reference websites' }));
    const field = screen.getByLabelText('Describe your website idea');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Please describe your website idea.')).toBeTruthy();
    expect(server.requests.filter((r) => r.path === '/domains/search-by-idea')).toEqual([]);
  });

  it('searches, shows the count banner and the grid, and New Search resets', async () => {
    renderSignedIn({ 'POST /domains/search-by-idea': { body: found } });
    fireEvent.change(screen.getByLabelText('Describe your website idea'), {
      target: { value: '  A bakery with online ordering  ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Find reference websites' }));
    // The answer comes over the network: the searching state shows first.
    const busy = screen.getByRole('button', { name: 'Searching references...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);

    await screen.findByText('References found: 2');
    const search = server.requests.find((r) => r.path === '/domains/search-by-idea');
    expect(search).toMatchObject({
      method: 'POST',
      authorization: 'Bearer token-1',
      body: { idea: 'A bakery with online ordering', limit: IDEA_SEARCH_LIMIT },
    });
    const cards = screen.getAllByTestId('reference-card');
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Crumb & Co Bakery',
      'Loaf Lab',
    ]);
    const first = within(screen.getByRole('article', { name: 'Crumb & Co Bakery' }));
    expect(first.getByText('A warm neighborhood bakery site with online ordering.')).toBeTruthy();
    expect(first.getByRole('link', { name: 'Preview' }).getAttribute('href')).toBe(
      'https://crumb.example/',
    );
    expect(first.getByRole('button', { name: 'Select Reference' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'New Search' }));
    expect(screen.queryByText('References found: 2')).toBeNull();
    expect(screen.queryAllByTestId('reference-card')).toEqual([]);
    expect(document.activeElement).toBe(screen.getByLabelText('Describe your website idea'));
  });

  it('says so when nothing was found', async () => {
    renderSignedIn({ 'POST /domains/search-by-idea': { body: [] } });
    fireEvent.change(screen.getByLabelText('Describe your website idea'), {
      target: { value: 'zzz' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Find reference websites' }));
    await screen.findByText(
      'No reference websites found. Try describing your idea in other words.',
    );
    expect(screen.getByRole('button', { name: 'New Search' })).toBeTruthy();
  });

  it('shows "Search failed: " with the server message', async () => {
    renderSignedIn({
      'POST /domains/search-by-idea': {
        status: 429,
        body: { message: 'Too many idea searches. Please wait a few minutes and try again.' },
      },
    });
    fireEvent.change(screen.getByLabelText('Describe your website idea'), {
      target: { value: 'A bakery' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Find reference websites' }));
    const text = 'Search failed: Too many idea searches. Please wait a few minutes and try again.';
    await waitFor(() => expect(toasts()).toContain(text));
    // Under the form too, beside the toast.
    const alerts = screen.getAllByRole('alert').filter((el) => el.closest('form'));
    expect(alerts.map((el) => el.textContent)).toEqual([text]);
    expect(screen.getByRole('button', { name: 'Find reference websites' })).toBeTruthy();
  });
});
