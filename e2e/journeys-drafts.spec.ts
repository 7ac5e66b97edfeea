import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { newAccount, registerViaApi, useSession } from './support/accounts';
import { startFixtureSite, type StaticSite } from './support/fixture-site';
import { text } from './support/locales';
import { LAPTOP, PHONES, type Viewport } from './support/screen-fit';
import {
  authHeaders,
  mirrorViaApi,
  RUN_TIMEOUT,
  waitForFidelity,
} from './support/site-with-history';

const en = (key: string, vars?: Record<string, string>) => text('en', key, vars);
const PHONE = PHONES[1]!;

let fixture: StaticSite;
test.beforeAll(async () => {
  fixture = await startFixtureSite();
});
test.afterAll(async () => {
  await fixture.close();
});

/** A copy of the fixture with its fidelity check ended, and how many versions it has by then. */
async function mirrorChecked(api: APIRequestContext, token: string) {
  const id = await mirrorViaApi(api, token, fixture.origin);
  // The fidelity check that follows a mirror runs before the customizations asked for after it.
  await waitForFidelity(api, token, id, { settled: true });
  // A check that repaired a page published the repair as a version of its own: the draft's number
  // comes after the versions the site has by now.
  const versions = await api.get(`/api/domains/clone/${id}/versions`, {
    headers: authHeaders(token),
  });
  expect(versions.status()).toBe(200);
  const kept = ((await versions.json()) as unknown[]).length;
  return { id, kept };
}

/** On a phone the sections start closed: open the one named `title` (a no-op when open). */
async function openSection(page: Page, title: string) {
  const toggle = page.getByRole('button', { name: title, exact: true });
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
}

/** Makes a draft of `instructions` in the AI customization panel, as the owner would. */
async function makeDraft(page: Page, instructions: string) {
  await openSection(page, en('site.customize.title'));
  const panel = page.getByRole('region', { name: en('site.customize.title') });
  await panel.getByLabel(en('site.customize.label')).fill(instructions);
  await panel.getByRole('button', { name: en('site.customize.apply') }).click();
  await expect(panel.getByTestId('customize-understood')).toBeVisible();
  await panel.getByRole('button', { name: en('site.customize.confirm') }).click();
  await expect(page.getByTestId('draft-review')).toBeVisible({ timeout: RUN_TIMEOUT });
}

/**
 * Issue 31, item 4: the draft's status follows what happens to it, the draft is shown once,
 * undoing an edit keeps its number, and discarding asks first.
 */
for (const viewport of [LAPTOP, PHONE] as Viewport[]) {
  test(`a draft is reviewed in one place, keeps its number, and its status follows it (${viewport.width} px)`, async ({
    page,
    request,
  }) => {
    test.setTimeout(6 * RUN_TIMEOUT);
    const token = await registerViaApi(request, newAccount('Dorothy Vaughan'));
    const { id: siteId, kept } = await mirrorChecked(request, token);
    const draftNumber = String(kept + 1);
    await page.setViewportSize(viewport);
    await useSession(page, token);
    await page.goto(`/dashboard/site/${siteId}`);

    const status = page.getByTestId('site-status');
    const review = page.getByTestId('draft-review');
    const reviewTitle = page.getByRole('heading', {
      name: en('site.review.title', { number: draftNumber }),
    });
    const rows = page.getByTestId('version-row');
    await expect(status).toContainText(en('mirror.progress.completed'), { timeout: 30_000 });

    await makeDraft(
      page,
      "replace 'Mirror fixture' with 'Harbor Bakery', replace 'About' with 'Our story'",
    );
    await expect(reviewTitle).toBeVisible();
    await expect(status).toContainText(en('mirror.customizeProgress.editsReady'));
    const edits = review.locator('.draft-edit');
    await expect(edits).toHaveCount(2);
    const firstEdit = (await edits.first().locator('.draft-edit-text').textContent())!;

    // Shown once: the history and the applied changes only lead to the review.
    await openSection(page, en('site.versions.title'));
    await expect(rows).toHaveCount(kept + 1);
    const draftRow = rows.filter({
      hasText: en('site.versions.version', { number: draftNumber }),
    });
    await expect(draftRow).toContainText(en('site.versions.draftWaiting'));
    await expect(
      draftRow.getByRole('link', { name: en('site.customize.reviewLink') }),
    ).toHaveAttribute('href', '#draft-review');
    await expect(draftRow.getByRole('button')).toHaveCount(0);
    await expect(page.getByText(firstEdit, { exact: true })).toHaveCount(1);
    const planRow = page.getByTestId('plan-row');
    await expect(planRow).toHaveCount(1);
    await expect(planRow).toContainText(en('site.versions.draftWaiting'));

    // Undoing one edit makes the draft again without it: still version 2, never a version 3.
    await review
      .getByRole('button', { name: /^Undo: / })
      .last()
      .click();
    await expect(page.getByText(en('site.review.undoStarted'))).toBeVisible();
    await expect(edits).toHaveCount(1, { timeout: RUN_TIMEOUT });
    await expect(review.getByRole('button', { name: en('mirror.review.publish') })).toBeEnabled({
      timeout: RUN_TIMEOUT,
    });
    await expect(reviewTitle).toBeVisible();
    await expect(rows).toHaveCount(kept + 1);
    await expect(
      page.getByText(en('site.versions.version', { number: String(kept + 2) })),
    ).toHaveCount(0);

    // Discarding asks first; keeping the draft changes nothing.
    await review.getByRole('button', { name: en('mirror.review.discard'), exact: true }).click();
    const confirm = page.getByRole('alertdialog', {
      name: en('site.review.discardTitle', { number: draftNumber }),
    });
    await expect(confirm).toContainText(en('site.review.discardMessage'));
    await confirm.getByRole('button', { name: en('site.review.discardKeep') }).click();
    await expect(confirm).toBeHidden();
    await expect(review).toBeVisible();
    await expect(rows).toHaveCount(kept + 1);

    await review.getByRole('button', { name: en('mirror.review.discard'), exact: true }).click();
    await confirm.getByRole('button', { name: en('site.review.discardConfirm') }).click();
    await expect(page.getByText(en('site.review.discarded'))).toBeVisible();
    await expect(review).toBeHidden();
    await expect(rows).toHaveCount(kept);
    // The status card says what became of the draft, not that one waits.
    await expect(status).toContainText(en('mirror.customizeProgress.discarded'));
    await expect(status).not.toContainText(en('mirror.customizeProgress.editsReady'));

    // A new draft, published: the status follows again, after a reload too.
    await makeDraft(page, "replace 'Mirror fixture' with 'Harbor Bakery'");
    await expect(status).toContainText(en('mirror.customizeProgress.editsReady'));
    await review.getByRole('button', { name: en('mirror.review.publish'), exact: true }).click();
    await expect(page.getByText(en('site.review.published'))).toBeVisible();
    await expect(review).toBeHidden();
    await expect(status).toContainText(en('mirror.customizeProgress.published'));
    await page.reload();
    await expect(status).toContainText(en('mirror.customizeProgress.published'));
    await expect(status).not.toContainText(en('mirror.customizeProgress.editsReady'));
    await openSection(page, en('site.versions.title'));
    const live = rows.filter({ has: page.getByText(en('site.versions.live'), { exact: true }) });
    await expect(live).toContainText(en('site.versions.version', { number: draftNumber }));
    await expect(page.getByTestId('draft-review')).toHaveCount(0);
  });
}
