import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Manifest } from '@mirror/engine';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifest } from '../modules/sites/manifests.js';
import { SERVICE_ENV, signUp, type SignedUp } from '../test/api-helpers.js';
import { createTestApp, waitFor, type TestApp } from '../test/test-app.js';

// The JavaScript fidelity corpus mirrored THROUGH THE SERVICE: a signed-in user asks for a clone
// through the API, the run renders in `auto` mode in its sandboxed child process, the original is
// stopped, and the copy is looked at where visitors see it: on its subdomain of the sites host
// (`{subdomain}.localhost:{port}`, which Chromium resolves to loopback), deep links included.

/**
 * What this test uses of the engine's fidelity check, `packages/engine/test/js-fidelity.ts`: the
 * same corpus and the same check as the engine's export test. Imported by path at run time: it is
 * test code, outside the engine's build (a static import would put the engine's sources under this
 * project's rootDir, which tsc refuses), so its shape is stated here.
 */
interface FidelityCheck {
  PIXEL_TOLERANCE: number;
  corpusFor(copy: 'export' | 'hosted'): { names: string[]; narrowed: boolean };
  loadFixture(name: string): Promise<JsFixture>;
  launchBrowser(): Promise<Browser>;
  startOriginal(
    fixture: JsFixture,
  ): Promise<{ origin: { origin: string }; origins: string[]; close(): Promise<void> }>;
  observe(
    browser: Browser,
    fixture: JsFixture,
    base: string,
    options: { allowed: string[]; deepLinks: boolean; sessionTries?: number },
  ): Promise<Observation>;
  compare(fixture: JsFixture, original: Observation, copy: Observation): FidelityFigures;
  renderDecision(manifest: Manifest): RenderDecision;
  summary(figures: FidelityFigures): string;
  inParallel<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]>;
}
interface JsFixture {
  name: string;
  start: string;
}
type Observation = { readonly observation: unique symbol };
interface FidelityFigures {
  pixelDifference: number;
  failed: string[];
  foreign: string[];
  firstDifference: string | null;
}
interface RenderDecision {
  pages: number;
  rendered: string[];
  notes: string[];
}

const check = (await import(
  fileURLToPath(new URL('../../../../packages/engine/test/js-fidelity.ts', import.meta.url))
)) as FidelityCheck;
const {
  compare,
  inParallel,
  launchBrowser,
  loadFixture,
  observe,
  PIXEL_TOLERANCE,
  corpusFor,
  renderDecision,
  startOriginal,
  summary,
} = check;

// The corpus, or the part of it this test copies (`corpusFor`: MIRROR_FIDELITY_ONLY, CI's half).
const corpus = corpusFor('hosted');
const fixtures = await Promise.all(corpus.names.map(loadFixture));

interface Outcome {
  figures?: FidelityFigures;
  decision?: RenderDecision;
  error?: string;
  seconds: number;
  /** Seconds until the original was observed, the run completed, the copy was observed. */
  timings: Record<string, number>;
}

const outcomes = new Map<string, Outcome>();
let t: TestApp;
let browser: Browser;

/** At most this many pages of Chromium at once, next to the sandboxed runs' own Chromiums. */
function limiter(limit: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    while (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await work();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
const browsing = limiter(3);

async function mirrorThroughService(
  fixture: JsFixture,
  owner: SignedUp,
  port: number,
): Promise<Outcome> {
  const started = Date.now();
  const timings: Record<string, number> = {};
  const mark = (name: string) => (timings[name] = (Date.now() - started) / 1000);
  const original = await startOriginal(fixture);
  try {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/domains/clone',
      payload: { sourceUrl: `${original.origin.origin}${fixture.start}` },
      headers: owner.headers,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { id, previewUrl } = res.json() as { id: string; previewUrl: string };
    const before = await browsing(() =>
      observe(browser, fixture, original.origin.origin, {
        allowed: original.origins,
        deepLinks: true,
        sessionTries: 2,
      }),
    );
    mark('original observed');
    // Runs wait for a slot (JOB_CONCURRENCY) and start a child process and Chromium each.
    const status = await waitFor(async () => {
      const reading = (
        await t.app.inject({ url: `/api/domains/clone/${id}/status`, headers: owner.headers })
      ).json() as { status: string; error: string | null };
      return reading.status === 'completed' || reading.status === 'failed' ? reading : undefined;
    }, 150_000);
    mark('run ended');
    await original.close();
    if (status.status !== 'completed') throw new Error(`the run failed: ${status.error}`);

    const record = (
      await t.app.inject({ url: `/api/domains/clone/${id}`, headers: owner.headers })
    ).json() as { liveVersionId: string };
    const manifest = await loadManifest(t.app.database.db, t.app.blobs, record.liveVersionId);
    const base = `http://${new URL(previewUrl).hostname}:${port}`;
    const after = await browsing(() =>
      observe(browser, fixture, base, { allowed: [base], deepLinks: true }),
    );
    mark('copy observed');
    return {
      timings,
      figures: compare(fixture, before, after),
      ...(manifest ? { decision: renderDecision(manifest) } : {}),
      seconds: (Date.now() - started) / 1000,
    };
  } catch (error) {
    return {
      error: String((error as Error).stack),
      seconds: (Date.now() - started) / 1000,
      timings,
    };
  } finally {
    await original.close();
  }
}

beforeAll(async () => {
  t = await createTestApp({ ...SERVICE_ENV, MIRROR_RENDER: 'auto', JOB_CONCURRENCY: '3' });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as AddressInfo;
  browser = await launchBrowser();
  const owner = await signUp(t, 'agency');
  const results = await inParallel(fixtures, fixtures.length, (fixture) =>
    mirrorThroughService(fixture, owner, port),
  );
  fixtures.forEach((fixture, i) => outcomes.set(fixture.name, results[i]!));
  if (process.env.MIRROR_FIDELITY_JSON) {
    const report = fixtures.map(({ name }) => ({ fixture: name, ...outcomes.get(name) }));
    fs.writeFileSync(
      process.env.MIRROR_FIDELITY_JSON,
      JSON.stringify(report, (key, value) => (key === 'screenshot' ? undefined : value), 2),
    );
  }
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('JavaScript-built sites mirrored through the service, on the sites host', () => {
  it('has a corpus', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(corpus.narrowed ? 1 : 7);
  });

  for (const { name } of fixtures) {
    it(`${name}: the hosted copy looks and behaves like the original`, () => {
      const outcome = outcomes.get(name)!;
      expect(outcome.error, outcome.error).toBeUndefined();
      const figures = outcome.figures!;
      const context = `${summary(figures)}\nrender decision: ${JSON.stringify(outcome.decision)}`;
      expect
        .soft(figures.pixelDifference, `pixel difference\n${context}`)
        .toBeLessThanOrEqual(PIXEL_TOLERANCE);
      expect.soft(figures.failed, `failed requests\n${context}`).toEqual([]);
      expect.soft(figures.foreign, `foreign requests\n${context}`).toEqual([]);
      expect.soft(figures.firstDifference, `session\n${context}`).toBeNull();
    });
  }
});
