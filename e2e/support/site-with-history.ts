import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { newAccount, registerViaApi, type Account } from './accounts';

/**
 * A mirror run (or a customization) of the fixture, from the queue to its end, on a busy machine
 * (2 cores shared with other suites: a run waits behind the fidelity checks queued before it).
 */
export const RUN_TIMEOUT = 180_000;
/** A fidelity check of the fixture's pages after a run, on a busy machine. */
export const CHECK_TIMEOUT = 300_000;

const PERSON_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

export interface SiteWithHistory {
  account: Account;
  token: string;
  siteId: string;
  /** The hosted address, `http://{subdomain}.localhost:{port}/`. */
  previewUrl: string;
}

export function authHeaders(token: string) {
  return { Authorization: `Bearer ${token}` };
}

/** Waits until the site's run (mirror or customization) has ended; answers its status. */
export async function waitForRun(api: APIRequestContext, token: string, siteId: string) {
  let status = '';
  await expect
    .poll(
      async () => {
        const answer = await api.get(`/api/domains/clone/${siteId}/status`, {
          headers: authHeaders(token),
        });
        status = ((await answer.json()) as { status: string }).status;
        return status;
      },
      { timeout: RUN_TIMEOUT, intervals: [500] },
    )
    .toMatch(/^(completed|failed)$/);
  return status;
}

/**
 * Makes a site of `sourceUrl` through the API, as the owner of `token`, and waits until its first
 * run has completed: answers the site's id.
 */
export async function mirrorViaApi(api: APIRequestContext, token: string, sourceUrl: string) {
  const created = await api.post('/api/domains/clone', {
    headers: authHeaders(token),
    data: { sourceUrl, isDemo: false },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  expect(await waitForRun(api, token, id)).toBe('completed');
  return id;
}

/**
 * Waits until the live version's fidelity check has ended: completed, or (`settled`) failed too. A
 * check runs before the customizations asked for after it. A failed check fails the wait at once,
 * with its reason.
 */
export async function waitForFidelity(
  api: APIRequestContext,
  token: string,
  siteId: string,
  { settled = false } = {},
) {
  const deadline = Date.now() + CHECK_TIMEOUT;
  let last = '';
  while (Date.now() < deadline) {
    const answer = await api.get(`/api/domains/clone/${siteId}/fidelity`, {
      headers: authHeaders(token),
    });
    if (answer.status() === 200) {
      const report = (await answer.json()) as { state: string; error: string | null };
      last = report.state;
      if (report.state === 'completed' || (settled && report.state === 'failed')) return;
      if (report.state === 'failed') throw new Error(`The fidelity check failed: ${report.error}`);
    } else last = `HTTP ${answer.status()}`;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  throw new Error(`The fidelity check did not end in ${CHECK_TIMEOUT} ms (last: ${last})`);
}

/**
 * A site as an owner has it after a while (issue 31): mirrored, mirrored again (two versions), its
 * live version checked for fidelity, and visited a few times (analytics).
 */
export async function makeSiteWithHistory(
  api: APIRequestContext,
  page: Page,
  sourceUrl: string,
  name = 'Mary Jackson',
): Promise<SiteWithHistory> {
  const account = newAccount(name);
  const token = await registerViaApi(api, account);
  const headers = authHeaders(token);
  const created = await api.post('/api/domains/clone', {
    headers,
    data: { sourceUrl, isDemo: false },
  });
  expect(created.status()).toBe(201);
  const siteId = ((await created.json()) as { id: string }).id;
  expect(await waitForRun(api, token, siteId)).toBe('completed');
  const again = await api.post(`/api/domains/clone/${siteId}/remirror`, { headers });
  expect(again.ok(), await again.text()).toBe(true);
  expect(await waitForRun(api, token, siteId)).toBe('completed');
  const record = (await (await api.get(`/api/domains/clone/${siteId}`, { headers })).json()) as {
    previewUrl: string;
  };
  // Visitors: the hosted copy opened in a browser (the owner's own previews are not counted), as
  // a person's browser says it is (a headless one is counted as a bot).
  for (const path of ['', 'about.html']) {
    const visitor = await page.context().browser()!.newContext({ userAgent: PERSON_AGENT });
    try {
      await (await visitor.newPage()).goto(`${record.previewUrl}${path}`);
    } finally {
      await visitor.close();
    }
  }
  // On a machine shared with other suites a check may run out of time: asked again, as an owner
  // would with "Check again".
  for (let attempt = 1; ; attempt++) {
    try {
      await waitForFidelity(api, token, siteId);
      break;
    } catch (error) {
      if (attempt === 3) throw error;
      const again = await api.post(`/api/domains/clone/${siteId}/fidelity`, { headers, data: {} });
      expect(again.status(), await again.text()).toBe(202);
    }
  }
  return { account, token, siteId, previewUrl: record.previewUrl };
}
