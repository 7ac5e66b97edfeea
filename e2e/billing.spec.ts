import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { PAYMENT_MESSAGES, TEST_CARDS } from '@mirror/contract';
import { newAccount, registerViaApi, useSession } from './support/accounts';
import { startFixtureSite, type StaticSite } from './support/fixture-site';
import { text } from './support/locales';
import { startSearchApi } from './support/search-api';

const en = (key: string, vars?: Record<string, string>) => text('en', key, vars);

/** The test mode's card form in an open checkout: a card, any future expiry, any CVC. */
async function payWithTestCard(dialog: Locator, number: string, submit: string) {
  await dialog.getByLabel(en('payments.card.number')).fill(number);
  await dialog.getByLabel(en('payments.card.expiry')).fill('12/34');
  await dialog.getByLabel(en('payments.card.cvc')).fill('123');
  await dialog.getByRole('button', { name: submit }).click();
}

async function signUpFreeUser(page: Page, request: Parameters<typeof registerViaApi>[0]) {
  const account = newAccount('Mary Jackson');
  const token = await registerViaApi(request, account);
  await useSession(page, token);
  return account;
}

const currentPlan = (page: Page) => page.getByTestId('current-plan');

/** Serious or critical WCAG 2.1 AA issues on the page as it is now. */
async function seriousAxeIssues(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    // Toasts fade in and out: axe measures their contrast mid-animation (a flaky false alarm).
    .exclude('.Toastify')
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.describe('billing in test mode', () => {
  // Two axe scans and a checkout each: the declined card took 7 s alone and 27-31 s early in the
  // suite, when both workers, mirror runs and their fidelity checks share the 2 cores.
  test.describe.configure({ timeout: 60_000 });

  test('a free user subscribes to Pro with 4242, gets an invoice PDF, cancels and reactivates', async ({
    page,
    request,
  }) => {
    await signUpFreeUser(page, request);

    // The Pro pricing card leads to the billing screen's checkout for Pro.
    // A new page load, so the app starts with the session (from '/' this would be a hash change).
    await page.goto('/#pricing');
    await page.reload();
    await page.getByRole('button', { name: en('pricing.plans.pro.button') }).click();
    await expect(page).toHaveURL(/\/billing\?plan=pro$/);
    const checkout = page.getByRole('dialog', {
      name: en('payments.checkout.subscribeTitle', { plan: 'Mirror Pro' }),
    });
    await expect(
      checkout.getByText(en('payments.testMode.title', { card: '4242 4242 4242 4242' })),
    ).toBeVisible();
    await payWithTestCard(checkout, TEST_CARDS.succeeds, en('payments.checkout.subscribe'));

    // After the payment: the DNS setup modal, then the plan is Pro and its limits apply.
    const dns = page.getByRole('dialog', { name: en('payments.dns.title') });
    await expect(dns).toBeVisible();
    await expect(dns.getByText(en('payments.dns.noSite'))).toBeVisible();
    await dns
      .getByRole('button', { name: en('common.close') })
      .last()
      .click();
    await expect(dns).toBeHidden();
    await expect(currentPlan(page)).toHaveText('Mirror Pro');
    await expect(page.getByText(en('billing.plan.statuses.active'), { exact: true })).toBeVisible();
    await expect(page.getByText(en('billing.usage.of', { used: '0', limit: '5' }))).toBeVisible();
    await expect(page.getByTestId('payment-method')).toContainText(
      en('billing.methods.card', { brand: 'Visa', last4: '4242' }),
    );

    // The first invoice is listed; its PDF downloads under the SPEC's name and is a real PDF.
    const invoice = page.getByTestId('invoice-row');
    await expect(invoice).toHaveCount(1);
    await expect(invoice).toContainText('$7.00');
    await expect(invoice).toContainText(en('billing.invoices.statuses.paid'));
    const downloading = page.waitForEvent('download');
    await invoice.getByRole('button', { name: /^Download invoice / }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^invoice-.+\.pdf$/);
    const pdf = fs.readFileSync((await download.path())!);
    expect(pdf.subarray(0, 4).toString('latin1')).toBe('%PDF');

    // Cancel at period end: the SPEC confirmation, then Reactivate is offered; the plan stays.
    await page.getByRole('button', { name: en('billing.plan.cancel') }).click();
    const confirm = page.getByRole('alertdialog', { name: en('billing.plan.cancelTitle') });
    await expect(confirm).toContainText(PAYMENT_MESSAGES.cancelConfirm);
    await confirm.getByRole('button', { name: en('billing.plan.cancelYes') }).click();
    await expect(page.getByText(PAYMENT_MESSAGES.cancelScheduled)).toBeVisible();
    const reactivate = page.getByRole('button', { name: en('billing.plan.reactivate') });
    await expect(reactivate).toBeVisible();
    await expect(currentPlan(page)).toHaveText('Mirror Pro');

    await reactivate.click();
    await expect(page.getByText(PAYMENT_MESSAGES.reactivated)).toBeVisible();
    await expect(page.getByRole('button', { name: en('billing.plan.cancel') })).toBeVisible();
    await expect(reactivate).toBeHidden();

    // The server agrees after a reload.
    await page.reload();
    await expect(currentPlan(page)).toHaveText('Mirror Pro');
    await expect(page.getByRole('button', { name: en('billing.plan.cancel') })).toBeVisible();
  });

  test("a declined card shows 'Payment failed' and the plan stays free", async ({
    page,
    request,
  }) => {
    await signUpFreeUser(page, request);
    await page.goto('/billing');
    await expect(currentPlan(page)).toHaveText('Reflection');
    await expect(page.getByRole('link', { name: en('billing.plan.upgrade') })).toHaveAttribute(
      'href',
      '/#pricing',
    );
    await expect(page.getByText(en('billing.invoices.empty'))).toBeVisible();
    expect(await seriousAxeIssues(page)).toEqual([]);

    await page
      .getByRole('button', { name: en('billing.plan.subscribe', { plan: 'Mirror Pro' }) })
      .click();
    const checkout = page.getByRole('dialog', {
      name: en('payments.checkout.subscribeTitle', { plan: 'Mirror Pro' }),
    });
    await expect(checkout.getByLabel(en('payments.card.number'))).toBeVisible();
    expect(await seriousAxeIssues(page)).toEqual([]);
    await payWithTestCard(checkout, TEST_CARDS.declined, en('payments.checkout.subscribe'));
    const alert = checkout.getByRole('alert');
    await expect(alert).toContainText(PAYMENT_MESSAGES.paymentFailed);
    await expect(alert).toContainText(PAYMENT_MESSAGES.cardDeclined);
    await checkout.getByRole('button', { name: en('payments.checkout.cancel') }).click();

    await page.reload();
    await expect(currentPlan(page)).toHaveText('Reflection');
    await expect(page.getByText(en('billing.invoices.empty'))).toBeVisible();
  });
});

test.describe('the $2 AI rewrite', () => {
  // The search stand-in is shared with the idea spec (one address), and a mirror and a rewrite run.
  test.describe.configure({ timeout: 400_000 });

  let fixture: StaticSite;
  test.beforeAll(async () => {
    fixture = await startFixtureSite();
  });
  test.afterAll(async () => {
    await fixture?.close();
  });

  test('a free user pays $2 for the rewrite of a reference and the rewrite runs', async ({
    page,
    request,
  }) => {
    const title = 'Harbor Bakery reference (billing fixture)';
    await signUpFreeUser(page, request);
    await page.goto('/');
    await page.getByRole('tab', { name: en('hero.modeIdea') }).click();
    await page
      .getByLabel(en('hero.idea.label'))
      .fill('Harbor Bakery bakes rye bread. Order online and collect it at the harbor.');

    // The local reference is offered by the search stand-in, held only while searching.
    const search = await startSearchApi(
      [{ title, url: `${fixture.origin}/`, description: 'The engine fixture site.' }],
      { waitForPortMs: 300_000 },
    );
    try {
      await page.getByRole('button', { name: en('hero.idea.submit') }).click();
      await expect(page.getByText(/^References found: \d+$/)).toBeVisible();
    } finally {
      await search.close();
    }

    const card = page.getByRole('article', { name: title });
    await card.getByRole('button', { name: en('ideas.card.select') }).click();
    await expect(card.getByText(en('ideas.card.ready'), { exact: true })).toBeVisible({
      timeout: 90_000,
    });

    // '$2 AI Rewrite' opens the checkout; once paid, the rewrite waits for the owner's instructions.
    await card.getByRole('button', { name: en('ideas.card.paidRewrite', { price: '$2' }) }).click();
    const checkout = page.getByRole('dialog', { name: en('ideas.payment.title') });
    await payWithTestCard(checkout, TEST_CARDS.succeeds, en('ideas.payment.pay', { price: '$2' }));
    await expect(page.getByText(en('ideas.payment.paidReady'))).toBeVisible();
    await expect(checkout).toBeHidden();

    const panel = page.getByRole('region', { name: en('ideas.rewrite.title', { title }) });
    await panel.getByRole('button', { name: en('ideas.rewrite.start') }).click();
    const draft = panel.getByTestId('rewrite-draft');
    await expect(draft.getByRole('heading', { name: en('ideas.rewrite.reviewTitle') })).toBeVisible(
      { timeout: 90_000 },
    );
    await expect(card.getByRole('button', { name: en('ideas.card.rewrite') })).toBeVisible();
  });
});
