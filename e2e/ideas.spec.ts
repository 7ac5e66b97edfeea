import { expect, test } from '@playwright/test';
import { newAccount, registerViaApi, useSession } from './support/accounts';
import { startFixtureSite, type StaticSite } from './support/fixture-site';
import { text } from './support/locales';
import { setPlan } from './support/plans';
import { startSearchApi, type SearchApi } from './support/search-api';

const en = (key: string, vars?: Record<string, string>) => text('en', key, vars);

/** A mirror run and a rewrite run of the fixture, on a busy machine. */
const RUN_TIMEOUT = 90_000;
const REFERENCE_TITLE = 'Sunrise Bakery reference (local fixture)';
const IDEA = 'Sunrise Bakery sells sourdough bread. Order online and pick it up warm.';
/** The heading the model's plan writes (the stand-in of e2e/support/ai-model.mjs). */
const NEW_HEADING = 'Sunrise Bakery sells sourdough bread';

let fixture: StaticSite;
let search: SearchApi;

test.beforeAll(async () => {
  fixture = await startFixtureSite();
  search = await startSearchApi([
    {
      title: REFERENCE_TITLE,
      url: `${fixture.origin}/`,
      description: 'The engine fixture site, served on 127.0.0.1 for this spec.',
    },
  ]);
});
test.afterAll(async () => {
  await Promise.all([fixture?.close(), search?.close()]);
});

test.describe('creating a site from an idea', () => {
  test.describe.configure({ timeout: 240_000 });

  test('a paid user finds a reference, mirrors it, rewrites it, reviews the draft and publishes', async ({
    page,
    request,
  }) => {
    const grace = newAccount('Grace Hopper');
    const token = await registerViaApi(request, grace);
    setPlan(grace.email, 'pro');
    await useSession(page, token);
    await page.goto('/');

    await page.getByRole('tab', { name: en('hero.modeIdea') }).click();
    await page.getByLabel(en('hero.idea.label')).fill(IDEA);
    await page.getByRole('button', { name: en('hero.idea.submit') }).click();
    await expect(page.getByText(/^References found: \d+$/)).toBeVisible();
    expect(search.queries.at(-1)).toContain('Sunrise Bakery');

    // Select the locally served reference: it is mirrored into the account and becomes Ready.
    const card = page.getByRole('article', { name: REFERENCE_TITLE });
    await expect(card.getByRole('link', { name: en('ideas.card.preview') })).toHaveAttribute(
      'href',
      `${fixture.origin}/`,
    );
    await card.getByRole('button', { name: en('ideas.card.select') }).click();
    await expect(card.getByRole('button', { name: en('ideas.card.select') })).toBeDisabled();
    await expect(card.getByText(en('ideas.card.ready'), { exact: true })).toBeVisible({
      timeout: RUN_TIMEOUT,
    });
    const manage = card.getByRole('link', { name: en('hero.panel.manage') });
    const siteId = (await manage.getAttribute('href'))!.split('/').pop()!;

    // Rewrite it for the idea, with one explicit instruction on top.
    await card.getByRole('button', { name: en('ideas.card.rewrite') }).click();
    const panel = page.getByRole('region', {
      name: en('ideas.rewrite.title', { title: REFERENCE_TITLE }),
    });
    await panel
      .getByLabel(en('ideas.rewrite.instructionsLabel'))
      .fill("replace 'Products page 2' with 'Order bread online'");
    await panel.getByRole('button', { name: en('ideas.rewrite.start') }).click();

    // The draft: its changes are listed, and the live site has not changed yet.
    const draft = panel.getByTestId('rewrite-draft');
    await expect(draft.getByRole('heading', { name: en('ideas.rewrite.reviewTitle') })).toBeVisible(
      { timeout: RUN_TIMEOUT },
    );
    const changes = draft.getByRole('list', { name: en('mirror.changes.title') });
    await expect(changes.getByRole('listitem').first()).toBeVisible();
    // The draft itself is shown from its own preview host, beside the live site, before anyone
    // publishes it.
    await expect(
      draft
        .frameLocator('iframe[title^="Draft:"]')
        .getByRole('link', { name: 'Order bread online' }),
    ).toBeVisible();
    await expect(
      draft
        .frameLocator('iframe[title^="Live site:"]')
        .getByRole('link', { name: 'Products page 2' }),
    ).toBeVisible();
    const status = await request.get(`/api/domains/clone/${siteId}/status`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const previewUrl = ((await status.json()) as { previewUrl: string }).previewUrl;
    const hosted = await page.context().newPage();
    await hosted.goto(previewUrl);
    await expect(hosted.getByRole('heading', { level: 1 })).toHaveText('Mirror fixture');

    // Publish: the hosted site now shows the new copy.
    await draft.getByRole('button', { name: en('ideas.rewrite.publish') }).click();
    await expect(panel.getByText(en('ideas.rewrite.published'))).toBeVisible();
    await expect(page.getByText(en('ideas.rewrite.publishedToast'))).toBeVisible();
    await expect(async () => {
      await hosted.reload();
      await expect(hosted.getByRole('heading', { level: 1 })).toHaveText(NEW_HEADING, {
        timeout: 1_000,
      });
    }).toPass({ timeout: 15_000 });
    await expect(hosted.getByRole('link', { name: 'Order bread online' })).toBeVisible();
    await expect(hosted.getByRole('link', { name: 'Products page 2' })).toHaveCount(0);

    // The site page keeps the rewrite in the history of applied plans.
    await panel.getByRole('link', { name: en('hero.panel.manage') }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/site/${siteId}$`));
    const plan = page.getByTestId('plan-row');
    await expect(plan).toHaveCount(1);
    await expect(plan).toContainText(en('site.versions.kinds.rewrite'));
    await expect(plan.getByText(en('site.versions.live'), { exact: true })).toBeVisible();
  });
});
