import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportStatic, mirror } from '../src/index.js';
import { createMemoryBlobStore } from '../src/storage/memory-blob-store.js';
import { serveDirectory, serveFixture } from './fixture-server.js';
import {
  compare,
  corpusFor,
  hasDeepLinks,
  inParallel,
  launchBrowser,
  loadFixture,
  observe,
  PIXEL_TOLERANCE,
  renderDecision,
  saveObservation,
  serveExportLikeNetlify,
  startOriginal,
  summary,
  type FidelityFigures,
  type JsFixture,
  type Observation,
  type RenderDecision,
} from './js-fidelity.js';

// Every JavaScript-built fixture mirrored in `auto` mode and exported; the original is stopped
// before the export is looked at. A plain static server (serveDirectory) has no answer for a
// client route it holds no file for, so deep links and reloads on client routes are checked on the
// export served like Netlify serves it (404.html, `_redirects`, `/about` → `/about.html`).

interface Outcome {
  fixture: JsFixture;
  decision?: RenderDecision;
  plain?: FidelityFigures;
  /** Fixtures with deep links: the export on a host that honours 404.html and _redirects. */
  netlify?: FidelityFigures;
  error?: string;
  seconds: number;
  timings?: Record<string, number>;
}

// The corpus, or the part of it this test copies (`corpusFor`: MIRROR_FIDELITY_ONLY, CI's half).
const corpus = corpusFor('export');
const fixtures = await Promise.all(corpus.names.map(loadFixture));
const outcomes = new Map<string, Outcome>();
let browser: Browser;

async function run(fixture: JsFixture): Promise<Outcome> {
  const started = Date.now();
  const timings: Record<string, number> = {};
  const lap = (name: string, since: number) => (timings[name] = (Date.now() - since) / 1000);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), `mirror-${fixture.name}-`));
  const original = await startOriginal(fixture);
  const opened: { close(): Promise<void> }[] = [original];
  try {
    const store = createMemoryBlobStore();
    let since = Date.now();
    const manifest = await mirror({
      url: `${original.origin.origin}${fixture.start}`,
      store,
      allowPrivateNetworks: true,
    });
    await exportStatic(manifest, store, out);
    lap('mirror', since);
    since = Date.now();
    const before = await observe(browser, fixture, original.origin.origin, {
      allowed: original.origins,
      deepLinks: true,
      sessionTries: 2,
    });
    await original.close();
    lap('original', since);
    since = Date.now();
    const shots = process.env.MIRROR_FIDELITY_SHOTS;
    const keep = (label: string, observation: Observation) => {
      if (shots) saveObservation(path.join(shots, fixture.name), label, observation);
      return observation;
    };
    keep('original', before);

    const plain = await serveDirectory(out);
    opened.push(plain);
    const outcome: Outcome = {
      fixture,
      decision: renderDecision(manifest),
      plain: compare(
        fixture,
        before,
        keep(
          'plain',
          await observe(browser, fixture, plain.origin, {
            allowed: [plain.origin],
            deepLinks: false,
          }),
        ),
      ),
      seconds: 0,
      timings,
    };
    lap('plain', since);
    since = Date.now();
    if (hasDeepLinks(fixture)) {
      const netlify = await serveExportLikeNetlify(out);
      opened.push(netlify);
      outcome.netlify = compare(
        fixture,
        before,
        keep(
          'netlify',
          await observe(browser, fixture, netlify.origin, {
            allowed: [netlify.origin],
            deepLinks: true,
          }),
        ),
      );
    }
    lap('netlify', since);
    outcome.seconds = (Date.now() - started) / 1000;
    return outcome;
  } catch (error) {
    return {
      fixture,
      error: String((error as Error).stack),
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await Promise.all(opened.map((s) => s.close()));
    fs.rmSync(out, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  browser = await launchBrowser();
  // Three at a time: each mirror run starts a Chromium of its own besides the shared one.
  const results = await inParallel(fixtures, 3, run);
  for (const outcome of results) outcomes.set(outcome.fixture.name, outcome);
  if (process.env.MIRROR_FIDELITY_JSON) {
    const report = results.map(({ fixture, ...rest }) => ({ fixture: fixture.name, ...rest }));
    fs.writeFileSync(
      process.env.MIRROR_FIDELITY_JSON,
      JSON.stringify(report, (key, value) => (key === 'screenshot' ? undefined : value), 2),
    );
  }
}, 240_000);

afterAll(async () => {
  await browser?.close();
});

function expectFaithful(figures: FidelityFigures, decision: RenderDecision | undefined) {
  const context = `${summary(figures)}\nrender decision: ${JSON.stringify(decision)}`;
  expect
    .soft(figures.pixelDifference, `pixel difference\n${context}`)
    .toBeLessThanOrEqual(PIXEL_TOLERANCE);
  expect.soft(figures.failed, `failed requests\n${context}`).toEqual([]);
  expect.soft(figures.foreign, `foreign requests\n${context}`).toEqual([]);
  expect.soft(figures.firstDifference, `session\n${context}`).toBeNull();
}

describe('JavaScript-built sites: the static export, served with the original stopped', () => {
  it('has a corpus', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(corpus.narrowed ? 1 : 7);
  });

  for (const { name } of fixtures) {
    it(`${name}: looks and behaves like the original on a plain static server`, () => {
      const outcome = outcomes.get(name)!;
      expect(outcome.error, outcome.error).toBeUndefined();
      expectFaithful(outcome.plain!, outcome.decision);
    });
  }

  for (const { name } of fixtures.filter(hasDeepLinks)) {
    it(`${name}: deep links work where the host honours 404.html and _redirects`, () => {
      const outcome = outcomes.get(name)!;
      expect(outcome.error, outcome.error).toBeUndefined();
      expectFaithful(outcome.netlify!, outcome.decision);
    });
  }
});

describe('the check itself', () => {
  it('sees a copy that lost an API answer: the failed request, and where the session departs', async () => {
    const fixture = await loadFixture('js-todo');
    const original = await startOriginal(fixture);
    const broken = await serveFixture(fixture.dir, {
      '/api/todos.json': (_req, res) => void res.writeHead(404).end(),
    });
    try {
      const before = await observe(browser, fixture, original.origin.origin, {
        allowed: original.origins,
        deepLinks: true,
        sessionTries: 2,
      });
      const after = await observe(browser, fixture, broken.origin, {
        allowed: [original.origin.origin],
        deepLinks: true,
      });
      const figures = compare(fixture, before, after);
      expect(figures.failed).toEqual([`${broken.origin}/api/todos.json (HTTP 404)`]);
      expect(figures.foreign.length).toBeGreaterThan(0);
      expect(figures.pixelDifference).toBeGreaterThan(PIXEL_TOLERANCE);
      expect(figures.sessionEqual).toBe(false);
      expect(figures.firstDifference).toMatch(/^load \/: /);
    } finally {
      await Promise.all([original.close(), broken.close()]);
    }
  });
});
