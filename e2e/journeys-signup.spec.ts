import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { STORAGE_KEYS } from '@mirror/contract';
import { newAccount } from './support/accounts';
import { startFixtureSite, type StaticSite } from './support/fixture-site';
import { text } from './support/locales';
import { LAPTOP, PHONES, type Viewport } from './support/screen-fit';

/**
 * Issue 31, items 1, 7 and 10: a visitor tries two addresses that fail, then mirrors a blog,
 * reloads, and registers from it. The failures are said once and never celebrated, the finished
 * demo and its fidelity stay on the landing page, and the new account gets the blog, on its page.
 */

const en = (key: string, vars?: Record<string, string>) => text('en', key, vars);
/** A mirror run of the fixture, from the queue to its end, on a busy machine. */
const RUN_TIMEOUT = 90_000;
/**
 * The fidelity check that follows (two pages at two widths in e2e), after its turn comes: within
 * the 5 minutes the landing page follows it, on a machine shared with other runs.
 */
const FIDELITY_TIMEOUT = 280_000;

let fixture: StaticSite;
/** A website whose every address answers 404 Not Found. */
let nothing: http.Server;
let nothingOrigin: string;
test.beforeAll(async () => {
  fixture = await startFixtureSite();
  nothing = http.createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  });
  await new Promise<void>((resolve) => nothing.listen(0, '127.0.0.1', resolve));
  nothingOrigin = `http://127.0.0.1:${(nothing.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  nothing.closeAllConnections();
  await new Promise((resolve) => nothing.close(resolve));
  await fixture.close();
});

const panelOf = (page: Page) => page.getByRole('region', { name: en('hero.panel.title') });

async function mirrorAsGuest(page: Page, address: string) {
  await page.getByLabel(en('hero.url.label')).fill(address);
  await page.getByRole('button', { name: en('hero.url.submitGuest') }).click();
}

/**
 * How often the hero and the toasts say `pattern` to a sighted reader (the hero's live region for
 * screen readers, visually hidden, is left out).
 */
function timesSaid(page: Page, pattern: RegExp): Promise<number> {
  return page.evaluate((source) => {
    const text = ['.hero', '.Toastify']
      .map((selector) => {
        const node = document.querySelector(selector)?.cloneNode(true) as HTMLElement | undefined;
        node?.querySelectorAll('.visually-hidden').forEach((hidden) => hidden.remove());
        return node?.textContent ?? '';
      })
      .join(' ');
    return text.match(new RegExp(source, 'gi'))?.length ?? 0;
  }, pattern.source);
}

function savedDemoIds(page: Page): Promise<string[]> {
  return page.evaluate(
    (key) => JSON.parse(localStorage.getItem(key) ?? '[]') as string[],
    STORAGE_KEYS.demoSites,
  );
}

/** Every text the preview's fidelity line shows, in order, to check them afterwards. */
async function recordFidelityTexts(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { fidelityTexts: string[] }).fidelityTexts = seen;
    new MutationObserver(() => {
      const line = document.querySelector('[data-testid="preview-fidelity"]')?.textContent ?? '';
      if (line && seen[seen.length - 1] !== line) seen.push(line);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () =>
    page.evaluate(() => (window as unknown as { fidelityTexts: string[] }).fidelityTexts);
}

/** A failed demo: said once, not celebrated, no link, and the offer that fits the failure. */
async function expectFailedOnce(page: Page, plain: string) {
  const panel = panelOf(page);
  await expect(panel.getByRole('alert')).toContainText(plain, { timeout: RUN_TIMEOUT });
  await expect(
    page.locator('.Toastify__toast', { hasText: en('toasts.mirrorFailed') }),
  ).toHaveCount(1);
  expect(await timesSaid(page, /mirror failed/)).toBe(1);
  await expect(page.getByText(en('mirror.messages.demoSaved'))).toHaveCount(0);
  await expect(panel.getByRole('link')).toHaveCount(0);
  await expect(panel.getByRole('button', { name: en('hero.panel.tryAgain') })).toHaveCount(0);
  await expect(
    panel.getByRole('button', { name: en('hero.panel.tryAnotherAddress') }),
  ).toBeVisible();
  expect(await savedDemoIds(page)).toEqual([]);
}

for (const viewport of [LAPTOP, PHONES[1]!] as Viewport[]) {
  test(`at ${viewport.width} px: failed demos are said once and never claimed; sign-up takes the blog and lands on it`, async ({
    page,
  }) => {
    test.setTimeout(600_000);
    await page.setViewportSize(viewport);
    // Every demo the server made for this visitor, in order.
    const demos: string[] = [];
    page.on('response', async (response) => {
      if (response.request().method() === 'POST' && response.url().endsWith('/api/domains/clone'))
        demos.push(((await response.json()) as { id: string }).id);
    });
    await page.goto('/');
    const panel = panelOf(page);

    // Item 7: an address that refuses the connection, then one with no page: each said once.
    await mirrorAsGuest(page, 'http://127.0.0.1:1');
    await expectFailedOnce(page, en('mirror.failure.kinds.refused'));
    await panel.getByRole('button', { name: en('hero.panel.tryAnotherAddress') }).click();
    await expect(panel).toHaveCount(0);
    await expect(page.getByLabel(en('hero.url.label'))).toHaveValue('http://127.0.0.1:1');
    await expect(page.getByLabel(en('hero.url.label'))).toBeFocused();

    await mirrorAsGuest(page, `${nothingOrigin}/blog`);
    await expectFailedOnce(page, en('mirror.failure.kinds.http-not-found'));

    // The blog: "Completed" once; the fidelity check shows how far it got, then its meaning.
    const fidelityTexts = await recordFidelityTexts(page);
    await mirrorAsGuest(page, fixture.origin);
    await expect(panel.getByText(en('mirror.status.completed'), { exact: true })).toBeVisible({
      timeout: RUN_TIMEOUT,
    });
    await expect(page.getByText(en('mirror.messages.demoSaved'))).toBeVisible();
    expect(await timesSaid(page, /completed/)).toBe(1);
    const blogIds = await savedDemoIds(page);
    expect(blogIds).toHaveLength(1);
    const fidelity = panel.getByTestId('preview-fidelity');
    const score = /^Fidelity \d+(\.\d)?% · 2 pages checked$/;
    // Item 10 (once, at the laptop width: a check takes minutes on a busy machine): the check
    // says how far it got, then the score with its meaning.
    const waitsForScore = viewport.width === LAPTOP.width;
    let scored = false;
    if (waitsForScore) {
      // The check ends with its score; or, on a machine too busy for its time limit, it fails,
      // which a visitor is not told about (the line goes).
      await expect
        .poll(
          async () =>
            (await fidelity.count()) === 0 || score.test((await fidelity.textContent()) ?? ''),
          { timeout: FIDELITY_TIMEOUT, intervals: [1_000] },
        )
        .toBe(true);
      const seen = await fidelityTexts();
      // The panel reads the check's progress each time it polls the run's status: a check whose
      // comparisons all end between two polls (a fast machine) goes from one of its first lines
      // (waiting for a browser, opening the pages) to its score. Its lines come in their order.
      const progressed = seen.some((line) => / of 4 comparisons done /.test(line));
      const betweenTwoPolls = seen.length >= 2 && score.test(seen.at(-1)!);
      expect(progressed || betweenTwoPolls, seen.join(' | ')).toBe(true);
      const order: ((line: string) => boolean)[] = [
        (line) => line === en('hero.panel.fidelityQueued'),
        (line) => line === en('hero.panel.fidelityStarting'),
        (line) => / comparisons done /.test(line),
        (line) => line === en('hero.panel.fidelityFinishing'),
        (line) => score.test(line),
      ];
      const steps = seen.map((line) => order.findIndex((isStep) => isStep(line)));
      expect(steps, seen.join(' | ')).not.toContain(-1);
      expect(steps, seen.join(' | ')).toEqual([...steps].sort((a, b) => a - b));
      if (!progressed)
        test.info().annotations.push({
          type: 'fidelity',
          description: 'The check finished between two polls: no progress line to see.',
        });
      for (const line of seen.filter((l) => !score.test(l)))
        expect(line).toMatch(/^Checking fidelity: \S/);
      scored = (await fidelity.count()) > 0;
      if (scored) await expect(panel.getByText(en('hero.panel.fidelityMeaning'))).toBeVisible();
      else
        test.info().annotations.push({
          type: 'fidelity',
          description: 'The check ran out of time on this machine: its score was not shown.',
        });
    } else {
      await expect(fidelity).toHaveText(/^Checking fidelity: \S|^Fidelity /);
    }

    // Item 10: after a reload the finished demo, its address (and its score) are still there.
    const previewUrl = (await panel.getByRole('link', { name: /^http:\/\// }).textContent())!;
    await page.reload();
    await expect(panel.getByRole('link', { name: previewUrl })).toBeVisible();
    await expect(panel.getByText(en('mirror.status.completed'), { exact: true })).toBeVisible();
    if (scored) await expect(fidelity).toHaveText(score);

    // The live preview says it is loading until its page has (the copy is held back a moment).
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(previewUrl, async (route) => {
      await held;
      await route.continue();
    });
    await panel.getByRole('button', { name: en('hero.panel.livePreview') }).click();
    const loading = panel.getByTestId('site-frame-loading');
    await expect(loading).toBeVisible();
    await expect(loading).toContainText(en('mirror.frameLoading'));
    release();
    const frame = page.frameLocator(`iframe[src="${previewUrl}"]`);
    await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Mirror fixture');
    // Gone once the page and all its files have loaded (a while on a busy machine).
    await expect(loading).toHaveCount(0, { timeout: 30_000 });

    // Item 1: registering from the blog claims the blog, and the new account lands on its page,
    // even from a browser that kept the failed demos first in its list (as the app did before).
    expect(demos).toHaveLength(3);
    expect(demos[2]).toBe(blogIds[0]);
    await page.evaluate(([key, ids]) => localStorage.setItem(key, JSON.stringify(ids)), [
      STORAGE_KEYS.demoSites,
      demos,
    ] as const);
    await panel.getByRole('button', { name: en('hero.panel.registerToCustomize') }).click();
    const account = newAccount('Sam Baker');
    const dialog = page.getByRole('dialog', { name: en('auth.register.title') });
    await dialog.getByLabel(en('auth.fields.name')).fill(account.name);
    await dialog.getByLabel(en('auth.fields.email')).fill(account.email);
    await dialog.getByLabel(en('auth.fields.password'), { exact: true }).fill(account.password);
    await dialog.getByLabel(en('auth.fields.confirmPassword')).fill(account.password);
    await dialog.getByRole('button', { name: en('auth.register.submit') }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/site/${blogIds[0]}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fixture home');

    // The account holds the blog alone: no failed demo took the free plan's slot.
    const token = await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.token);
    const sites = await page.request.get('/api/domains/clones', {
      headers: { Authorization: `Bearer ${token}` },
    });
    const owned = (await sites.json()) as { id: string; status: string; sourceUrl: string }[];
    expect(owned.map((site) => [site.id, site.status])).toEqual([[blogIds[0], 'completed']]);
  });
}
