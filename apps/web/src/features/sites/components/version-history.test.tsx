import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeVersion } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { VersionHistory } from './version-history';

const digest = {
  summary: '3 pages changed, 1 added: /pricing (now costs $12), /about, /blog/new-post, …',
  unchanged: false,
  pagesChanged: 3,
  pagesAdded: 1,
  pagesRemoved: 0,
  filesChanged: 2,
  paths: ['/pricing', '/about', '/blog/new-post'],
};

describe('the version history says what each mirror changed (issue 33)', () => {
  it('counts what changed, names the first pages, and says when nothing did', () => {
    renderWithProviders(
      <VersionHistory
        siteId="s1"
        liveVersionId="v3"
        versions={[
          makeVersion({
            id: 'v3',
            number: 3,
            isLive: true,
            changeDigest: digest,
            checkedUnchangedAt: '2026-11-29T06:00:00.000Z',
          }),
          makeVersion({
            id: 'v2',
            number: 2,
            changeDigest: {
              ...digest,
              unchanged: true,
              pagesChanged: 0,
              pagesAdded: 0,
              filesChanged: 0,
              paths: [],
              summary: 'No changes',
            },
          }),
          makeVersion({ id: 'v1', number: 1, changeDigest: null }),
        ]}
        error={null}
        onPublished={() => undefined}
      />,
    );
    const [third, second, first] = screen.getAllByTestId('version-row');
    expect(within(third!).getByText(/Pages changed: 3/).textContent).toBe(
      'Pages changed: 3 · Pages added: 1 · Files changed: 2 — /pricing, /about, /blog/new-post, … View report',
    );
    // The whole report is a link away; a version that changed nothing has none to show.
    expect(
      within(third!)
        .getByRole('link', { name: 'View the change report of version 3' })
        .getAttribute('href'),
    ).toBe('/dashboard/site/s1/changes/v3');
    expect(within(second!).queryByRole('link', { name: /change report/ })).toBeNull();
    // The last sync found nothing changed: it made no version, and the live one says when.
    expect(
      within(third!).getByText(/^Synced again .+: nothing changed, no new version$/).textContent,
    ).toContain('2026');
    expect(within(second!).getByText('No changes since the version before').tagName).toBe('P');
    // A first mirror has nothing to compare with.
    expect(first!.querySelector('.version-changes')).toBeNull();
  });
});
