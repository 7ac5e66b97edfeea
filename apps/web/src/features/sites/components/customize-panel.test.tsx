import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CloneRecord, SiteVersion } from '@mirror/contract';
import {
  makeAnalytics,
  makeClone,
  makeStatus,
  makeUser,
  makeVersion,
  storeToken,
} from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import {
  startTestServer,
  type Routes as ServerRoutes,
  type TestServer,
} from '../../../test/test-server';
import { SitePage } from './site-page';

let server: TestServer;
let site: CloneRecord;
let versions: SiteVersion[];

const customized = makeVersion({
  id: 'v2',
  number: 2,
  isLive: true,
  kind: 'customize',
  edits: [
    { index: 0, description: 'Replaces "Acme" with "Globex"' },
    { index: 1, description: 'Changes the main colour to #00aa77' },
  ],
  changes: ['Replaced "Acme" with "Globex" (3 places)', 'Primary color set to #00aa77'],
  unparsed: ['make it pop'],
  instructions: "replace 'Acme' with 'Globex', change the primary color to #0a7, make it pop",
  createdAt: '2025-01-11T09:00:00.000Z',
});

/** The same customization before it is published: a draft on its own preview host. */
const draft = makeVersion({
  ...customized,
  isLive: false,
  draft: true,
  previewUrl: 'http://v-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.localhost:8181/',
});

beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(() => server.close());
beforeEach(() => {
  site = makeClone({
    id: 's1',
    status: 'completed',
    currentStatus: 'mirror created successfully',
    progress: 1,
    liveVersionId: 'v1',
    ownerPreviewUrl: 'http://v-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.localhost:8181/',
    sourceUrl: 'https://example.com/shop',
  });
  versions = [makeVersion({ id: 'v1', number: 1, isLive: true })];
});
afterEach(() => {
  server.requests.length = 0;
});

async function renderSite(extra: ServerRoutes = {}) {
  storeToken();
  server.setRoutes({
    'GET /auth/me': { body: { user: makeUser({ plan: 'free' }) } },
    'GET /domains/clone/s1': () => ({ body: site }),
    'GET /domains/clone/s1/versions': () => ({ body: versions }),
    'GET /domains/s1/analytics?period=7d': { body: makeAnalytics() },
    ...extra,
  });
  renderWithProviders(
    <Routes>
      <Route path="/dashboard/site/:id" element={<SitePage />} />
    </Routes>,
    { route: '/dashboard/site/s1' },
  );
  await screen.findByRole('heading', { level: 1, name: 'example.com/shop' });
  // Apply waits for the version list: its result is the first version after the newest one.
  await screen.findAllByTestId('version-row');
  return within(screen.getByRole('region', { name: 'AI customization' }));
}

const toasts = () => document.querySelector('.Toastify')?.textContent ?? '';
const calls = (method: string, path: string) =>
  server.requests.filter((r) => r.method === method && r.path === path);

describe('AI customization on the site page', () => {
  it('requires instructions', async () => {
    const panel = await renderSite();
    fireEvent.click(panel.getByRole('button', { name: 'Apply Customizations' }));
    expect(panel.getByText('Please describe the changes you want.')).toBeTruthy();
    expect(panel.getByText('No customizations yet.')).toBeTruthy();
    expect(calls('PUT', '/domains/clone/s1/customize')).toEqual([]);
  });

  it('makes a draft of the instructions and reviews it beside the live site, then publishes it', async () => {
    const panel = await renderSite({
      'PUT /domains/clone/s1/customize': () => {
        site = {
          ...site,
          status: 'pending',
          currentStatus: 'preparing customization',
          progress: 0,
        };
        return {
          status: 202,
          body: makeStatus('pending', {
            id: 's1',
            currentStatus: 'preparing customization',
          }),
        };
      },
      'GET /domains/clone/s1/status': () => {
        // Draft first: the live version does not change.
        site = {
          ...site,
          status: 'completed',
          progress: 1,
          currentStatus: 'draft ready for review',
        };
        versions = [draft, versions[0]!];
        return {
          body: makeStatus('completed', { id: 's1', currentStatus: 'draft ready for review' }),
        };
      },
      'POST /domains/clone/s1/versions/v2/publish': () => {
        site = { ...site, liveVersionId: 'v2', currentStatus: 'draft published' };
        versions = [customized, { ...versions[1]!, isLive: false }];
        return { body: site };
      },
      'POST /domains/clone/s1/customize/understand': {
        body: {
          byModel: false,
          willDo: ['Replace "Acme" with "Globex" everywhere', 'Set the main colour to #00aa77'],
          notUnderstood: [],
        },
      },
    });
    const text = "replace 'Acme' with 'Globex', change the primary color to #0a7, make it pop";
    fireEvent.change(panel.getByLabelText('Instructions'), { target: { value: ` ${text} ` } });
    fireEvent.click(panel.getByRole('button', { name: 'Apply Customizations' }));
    // First what will happen, in plain words; nothing is made until the owner confirms.
    const understood = within(await panel.findByTestId('customize-understood'));
    expect(understood.getByText('I will:')).toBeTruthy();
    expect(understood.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Replace "Acme" with "Globex" everywhere',
      'Set the main colour to #00aa77',
    ]);
    expect(calls('POST', '/domains/clone/s1/customize/understand')[0]?.body).toEqual({
      instructions: text,
    });
    expect(calls('PUT', '/domains/clone/s1/customize')).toEqual([]);
    fireEvent.click(panel.getByRole('button', { name: 'Make the draft' }));

    await panel.findByText('preparing customization');
    expect(calls('PUT', '/domains/clone/s1/customize')[0]?.body).toEqual({
      customizations: { instructions: text },
      regenerate: true,
    });

    const result = within(await screen.findByTestId('customize-result', {}, { timeout: 10_000 }));
    expect(result.getByRole('status').textContent).toContain(
      'Your draft is ready for review. Nothing changed on the live site yet.',
    );
    expect(result.getByRole('link', { name: 'Review the draft' }).getAttribute('href')).toBe(
      '#draft-review',
    );
    await waitFor(() =>
      expect(toasts()).toContain(
        'Your draft is ready for review. Nothing changed on the live site yet.',
      ),
    );
    expect(toasts()).not.toContain('Mirror created successfully');

    // The review: the draft's preview beside the live site, each edit in plain words.
    const review = within(screen.getByTestId('draft-review'));
    const frames = [...document.querySelectorAll<HTMLIFrameElement>('.draft-frame-iframe')];
    // The live site is shown from its own preview host: the owner's looks are not visits.
    expect(frames.map((f) => f.getAttribute('src'))).toEqual([
      draft.previewUrl,
      site.ownerPreviewUrl,
    ]);
    expect(
      review.getAllByRole('listitem').map((li) => li.querySelector('span')?.textContent),
    ).toEqual(customized.edits.map((e) => e.description));
    expect(review.getByRole('note').textContent).toBe('I did not understand: make it pop');
    // The draft is shown once, in the review (issue 31): its row only leads there.
    const row = within(panel.getByTestId('plan-row'));
    expect(row.getByText('Draft')).toBeTruthy();
    expect(row.queryByText('Live')).toBeNull();
    expect(row.queryByText(`Instructions: ${text}`)).toBeNull();
    expect(row.getByRole('link', { name: 'Review the draft' }).getAttribute('href')).toBe(
      '#draft-review',
    );
    const status = within(screen.getByTestId('site-status'));
    expect(status.getByText('draft ready for review')).toBeTruthy();

    fireEvent.click(review.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(toasts()).toContain('Draft published. Your site is updated.'));
    expect(calls('POST', '/domains/clone/s1/versions/v2/publish')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByTestId('draft-review')).toBeNull());
    // The history lists the applied plan, live now; the status no longer asks for a review.
    expect(within(panel.getByTestId('plan-row')).getByText('Live')).toBeTruthy();
    expect(within(panel.getByTestId('plan-row')).getByText(`Instructions: ${text}`)).toBeTruthy();
    expect(status.getByText('draft published')).toBeTruthy();
    expect(status.queryByText(/ready for review/)).toBeNull();
  });

  it('names the parts it cannot read, offers a phrasing it can, and lets the rest become a draft', async () => {
    let understandCalls = 0;
    const panel = await renderSite({
      'POST /domains/clone/s1/customize/understand': () => {
        understandCalls++;
        return {
          body:
            understandCalls === 1
              ? {
                  byModel: false,
                  willDo: ['Replace "Acme" with "Globex" everywhere'],
                  notUnderstood: [
                    { part: 'make the logo sparkle', suggestion: 'Set the main colour to gold' },
                  ],
                }
              : {
                  byModel: false,
                  willDo: [
                    'Replace "Acme" with "Globex" everywhere',
                    'Set the main colour to gold',
                  ],
                  notUnderstood: [],
                },
        };
      },
    });
    const field = panel.getByLabelText<HTMLTextAreaElement>('Instructions');
    fireEvent.change(field, {
      target: { value: "replace 'Acme' with 'Globex' and make the logo sparkle" },
    });
    fireEvent.click(panel.getByRole('button', { name: 'Apply Customizations' }));
    const understood = within(await panel.findByTestId('customize-understood'));
    expect(
      understood.getByText(
        'I could not understand these parts. Rephrase them, or make the draft without them:',
      ),
    ).toBeTruthy();
    // What was understood can become a draft as it is.
    expect(
      panel.getByRole<HTMLButtonElement>('button', { name: 'Make the draft without them' })
        .disabled,
    ).toBe(false);
    fireEvent.click(understood.getByRole('button', { name: '“Set the main colour to gold”' }));
    expect(field.value).toBe("replace 'Acme' with 'Globex' and Set the main colour to gold");
    fireEvent.click(panel.getByRole('button', { name: 'Apply Customizations' }));
    await waitFor(() => expect(understandCalls).toBe(2));
    expect(
      await panel.findByRole<HTMLButtonElement>('button', { name: 'Make the draft' }),
    ).toHaveProperty('disabled', false);
    expect(calls('PUT', '/domains/clone/s1/customize')).toEqual([]);
  });

  it('offers the nearest looks for a vague wish, and makes a draft of the rest without it (issue 31)', async () => {
    const panel = await renderSite({
      'POST /domains/clone/s1/customize/understand': {
        body: {
          byModel: false,
          willDo: [
            'Change the main heading to "Fresh bread" on the home page (1 element on 1 page)',
          ],
          notUnderstood: [
            {
              part: 'make it pop more',
              suggestion: 'Set the main color to crimson',
              alternatives: ['Make the headings bigger', 'Set the accent color to gold'],
            },
          ],
        },
      },
      'PUT /domains/clone/s1/customize': () => {
        site = { ...site, status: 'pending', currentStatus: 'preparing customization' };
        return { status: 202, body: makeStatus('pending', { id: 's1' }) };
      },
    });
    const field = panel.getByLabelText<HTMLTextAreaElement>('Instructions');
    const text = 'change the main heading to Fresh bread and make it pop more';
    fireEvent.change(field, { target: { value: text } });
    fireEvent.click(panel.getByRole('button', { name: 'Apply Customizations' }));
    const understood = within(await panel.findByTestId('customize-understood'));
    // Never the bare "Replace "old text" with "new text"": the looks the engine can set.
    const offers = understood.getAllByRole('button').map((button) => button.textContent);
    expect(offers).toEqual([
      '“Set the main color to crimson”',
      '“Make the headings bigger”',
      '“Set the accent color to gold”',
    ]);
    expect(understood.getByText(/^I can change texts, colors, fonts/)).toBeTruthy();
    // The part understood becomes the draft; the rest is left out, and said to be.
    fireEvent.click(panel.getByRole('button', { name: 'Make the draft without them' }));
    await waitFor(() => expect(calls('PUT', '/domains/clone/s1/customize')).toHaveLength(1));
    expect(calls('PUT', '/domains/clone/s1/customize')[0]?.body).toEqual({
      customizations: { instructions: text, partial: true },
      regenerate: true,
    });
  });

  it('uses one of the nearest looks in place of the vague wish', async () => {
    const panel = await renderSite({
      'POST /domains/clone/s1/customize/understand': {
        body: {
          byModel: false,
          willDo: [],
          notUnderstood: [
            {
              part: 'use a warmer palette',
              suggestion: 'Set the main color to coral',
              alternatives: ['Set the background color to ivory'],
            },
          ],
        },
      },
    });
    const field = panel.getByLabelText<HTMLTextAreaElement>('Instructions');
    fireEvent.change(field, { target: { value: 'use a warmer palette' } });
    fireEvent.click(panel.getByRole('button', { name: 'Apply Customizations' }));
    const understood = within(await panel.findByTestId('customize-understood'));
    // Nothing understood: nothing to make a draft of yet.
    expect(panel.getByRole<HTMLButtonElement>('button', { name: 'Make the draft' }).disabled).toBe(
      true,
    );
    fireEvent.click(
      understood.getByRole('button', { name: '“Set the background color to ivory”' }),
    );
    expect(field.value).toBe('Set the background color to ivory');
  });

  it('starts with the idea carried from the reference grid', async () => {
    storeToken();
    server.setRoutes({
      'GET /auth/me': { body: { user: makeUser({ plan: 'pro' }) } },
      'GET /domains/clone/s1': () => ({ body: site }),
      'GET /domains/clone/s1/versions': () => ({ body: versions }),
      'GET /domains/s1/analytics?period=7d': { body: makeAnalytics() },
    });
    renderWithProviders(
      <Routes>
        <Route path="/dashboard/site/:id" element={<SitePage />} />
      </Routes>,
      { route: '/dashboard/site/s1', state: { instructions: 'A bakery in Lisbon' } },
    );
    const panel = within(await screen.findByRole('region', { name: 'AI customization' }));
    const field = panel.getByLabelText<HTMLTextAreaElement>('Instructions');
    expect(field.value).toBe('A bakery in Lisbon');
    await waitFor(() => expect(document.activeElement).toBe(field));
  });

  it('undoes one edit of the draft: a new draft without it replaces the review', async () => {
    versions = [draft, makeVersion({ id: 'v1', number: 1, isLive: true })];
    const rest = makeVersion({
      ...draft,
      id: 'v3',
      number: 3,
      previewUrl: 'http://v-cccccccccccccccccccccccccccccccc.localhost:8181/',
      edits: [{ index: 0, description: 'Replaces "Acme" with "Globex"' }],
      changes: ['Replaced "Acme" with "Globex" (3 places)'],
    });
    await renderSite({
      'POST /domains/clone/s1/versions/v2/undo': () => {
        site = { ...site, status: 'pending', currentStatus: 'preparing customization' };
        return {
          status: 202,
          body: makeStatus('pending', { id: 's1', currentStatus: 'preparing customization' }),
        };
      },
      'GET /domains/clone/s1/status': () => {
        site = { ...site, status: 'completed', progress: 1 };
        versions = [rest, versions[1]!];
        return {
          body: makeStatus('completed', { id: 's1', currentStatus: 'draft ready for review' }),
        };
      },
    });
    const review = within(screen.getByTestId('draft-review'));
    fireEvent.click(
      review.getByRole('button', { name: 'Undo: Changes the main colour to #00aa77' }),
    );
    await waitFor(() =>
      expect(calls('POST', '/domains/clone/s1/versions/v2/undo')).toHaveLength(1),
    );
    expect(calls('POST', '/domains/clone/s1/versions/v2/undo')[0]?.body).toEqual({ index: 1 });
    await waitFor(
      () =>
        expect(document.querySelector('.draft-frame-iframe')?.getAttribute('src')).toBe(
          rest.previewUrl,
        ),
      { timeout: 10_000 },
    );
    const after = within(screen.getByTestId('draft-review'));
    expect(after.getAllByRole('button', { name: /^Undo: / })).toHaveLength(1);
  });

  it('discards the draft from the review once confirmed; the live site stays', async () => {
    site = { ...site, currentStatus: 'draft ready for review' };
    versions = [draft, makeVersion({ id: 'v1', number: 1, isLive: true })];
    await renderSite({
      'DELETE /domains/clone/s1/versions/v2': () => {
        site = { ...site, currentStatus: 'draft discarded' };
        versions = [makeVersion({ id: 'v1', number: 1, isLive: true })];
        return { body: { success: true, message: 'Draft discarded.' } };
      },
    });
    const discard = () =>
      fireEvent.click(
        within(screen.getByTestId('draft-review')).getByRole('button', { name: 'Discard' }),
      );
    // Issue 31: it cannot be undone, so it asks first; keeping the draft changes nothing.
    discard();
    let dialog = screen.getByRole('alertdialog', { name: 'Discard the draft (version 2)?' });
    expect(dialog.textContent).toContain('Your live site stays as it is.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep draft' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls('DELETE', '/domains/clone/s1/versions/v2')).toHaveLength(0);
    expect(screen.getByTestId('draft-review')).toBeTruthy();

    discard();
    dialog = screen.getByRole('alertdialog', { name: 'Discard the draft (version 2)?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Discard draft' }));
    await waitFor(() => expect(screen.queryByTestId('draft-review')).toBeNull());
    expect(calls('DELETE', '/domains/clone/s1/versions/v2')).toHaveLength(1);
    expect(toasts()).toContain('Draft discarded. Your site did not change.');
    // The status card says what happened, no longer that a draft waits.
    const status = within(screen.getByTestId('site-status'));
    await waitFor(() => expect(status.getByText('draft discarded')).toBeTruthy());
    expect(status.queryByText(/ready for review/)).toBeNull();
  });

  it('says so when the customization fails', async () => {
    const panel = await renderSite({
      'POST /domains/clone/s1/customize/understand': {
        status: 409,
        body: { message: 'This site is busy with another run. Please wait for it to finish.' },
      },
    });
    fireEvent.change(panel.getByLabelText('Instructions'), {
      target: { value: 'set the title to Globex' },
    });
    fireEvent.click(panel.getByRole('button', { name: 'Apply Customizations' }));
    await waitFor(() =>
      expect(toasts()).toContain(
        'This site is busy with another run. Please wait for it to finish.',
      ),
    );
  });

  it('rolls a live customization back to the version before it', async () => {
    site = { ...site, liveVersionId: 'v2' };
    versions = [customized, makeVersion({ id: 'v1', number: 1, isLive: false })];
    const panel = await renderSite({
      'POST /domains/clone/s1/versions/v1/publish': () => {
        site = { ...site, liveVersionId: 'v1' };
        versions = [
          { ...customized, isLive: false },
          makeVersion({ id: 'v1', number: 1, isLive: true }),
        ];
        return { body: site };
      },
    });
    fireEvent.click(await panel.findByRole('button', { name: 'Roll back version 2' }));
    await waitFor(() => expect(toasts()).toContain('Version 1 is now live.'));
    expect(calls('POST', '/domains/clone/s1/versions/v1/publish')).toHaveLength(1);
    await waitFor(() =>
      expect(panel.queryByRole('button', { name: 'Roll back version 2' })).toBeNull(),
    );
  });

  it('shows a draft once: the history and the applied changes lead to its review (issue 31)', async () => {
    versions = [
      makeVersion({
        id: 'v2',
        number: 2,
        isLive: false,
        kind: 'rewrite',
        draft: true,
        changes: ['Main heading rewritten'],
        previewUrl: 'http://v-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.localhost:8181/',
      }),
      makeVersion({ id: 'v1', number: 1, isLive: true }),
    ];
    const panel = await renderSite();
    // What the draft changes is said once, in the review.
    expect(screen.getAllByText('Main heading rewritten')).toHaveLength(1);
    expect(within(screen.getByTestId('draft-review')).getByText('Main heading rewritten'));
    for (const row of [
      within(screen.getByRole('region', { name: 'Version history' })).getAllByTestId(
        'version-row',
      )[0]!,
      panel.getByTestId('plan-row'),
    ]) {
      const draftRow = within(row);
      expect(draftRow.getByText('Draft')).toBeTruthy();
      expect(draftRow.getByText('AI rewrite')).toBeTruthy();
      expect(draftRow.getByText('Waiting for your review.')).toBeTruthy();
      expect(draftRow.getByRole('link', { name: 'Review the draft' }).getAttribute('href')).toBe(
        '#draft-review',
      );
      expect(draftRow.queryAllByRole('button')).toHaveLength(0);
    }
  });
});
