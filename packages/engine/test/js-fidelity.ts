/**
 * The JavaScript fidelity check: what a visitor sees on an original site built by JavaScript and on
 * its copy, compared. Shared by `js-fidelity.test.ts` (the engine's export), the server's hosted
 * copy test and `bench/fidelity/run.mjs`.
 *
 * For one fixture of `fixtures/js-*` it loads pages of the original and of the copy in Chromium at
 * 1280×800 with reduced motion (full-page screenshots and visible text), runs the fixture's
 * SESSION (`fixtures/<name>/session.ts`: type, click, filter, navigate, reload, scroll) on both and
 * records at each step the visible text (every frame) and what is on screen, and collects the
 * copy's failed requests and requests to any origin but its own. `observe` the original, stop it,
 * `observe` the copy, then `compare`.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Manifest } from '../src/types.js';
import { pixelDifference } from './browser.js';
import { FIXTURES, serveFixture, type FixtureServer, type Handler } from './fixture-server.js';

export { launchBrowser } from './browser.js';
export { FIXTURES };

/**
 * The corpus, in report order. `js-modules` and `js-fetch-grid` are written alongside (ES-module
 * graphs, render on evidence); a name whose folder does not exist yet is left out.
 */
export const JS_FIXTURES = [
  'js-router',
  'js-css-in-js',
  'js-lazy',
  'js-infinite',
  'js-iframe-app',
  'js-todo',
  'js-vite',
  'js-modules',
  'js-fetch-grid',
] as const;

/** Screenshots of the original and the copy may differ by this share of pixels (0.5%). */
export const PIXEL_TOLERANCE = 0.005;

export interface SessionStep {
  name: string;
  /** What the visitor does next, on the page the previous step left. */
  run(page: Page, site: SessionSite): Promise<unknown>;
  /**
   * Loads an address the copy holds no file for (a reload on a client route, a typed deep link):
   * only a server that answers unknown addresses with the app's shell can pass it.
   */
  deepLink?: boolean;
}

/** Where the session runs (the original's or the copy's origin). */
export interface SessionSite {
  origin: string;
}

/** What a fixture's `session.ts` exports by default. */
export interface FixtureSpec {
  /** Folder served as the site's root, relative to the fixture (`site` for a built app). */
  root?: string;
  /** A second folder of the fixture served on another origin, named `{{CDN}}` in text files. */
  cdn?: string;
  /** Routes answered by code (APIs with query strings), by path. */
  routes?: Record<string, Handler>;
  /**
   * The original answers addresses it has no file for with this file and status 200, like the
   * hosts single-page apps are deployed on (Netlify, Vercel, `try_files … /index.html`).
   */
  appShell?: string;
  /** Where the session starts and the mirror is pointed at. */
  start?: string;
  /** More pages that exist as files in the copy, compared on load. */
  pages?: string[];
  /** Client routes loaded directly (deep links): the copy needs its app shell fallback. */
  deepLinks?: string[];
  session?: SessionStep[];
  /**
   * Waits, after every load and step, until what the page does on its own has finished (a search
   * worker that indexes the site, …), so that a busy machine cannot catch it half done. A page
   * that never gets there is looked at anyway (the difference is then the figure).
   */
  ready?: (page: Page) => Promise<unknown>;
}

export interface JsFixture extends Required<Pick<FixtureSpec, 'start' | 'session'>> {
  name: string;
  dir: string;
  spec: FixtureSpec;
  pages: string[];
  deepLinks: string[];
}

/** Whether the fixture loads client routes directly (a copy needs its app shell fallback). */
export function hasDeepLinks(fixture: JsFixture): boolean {
  return fixture.deepLinks.length > 0 || fixture.session.some((s) => s.deepLink);
}

/** The fixtures of `JS_FIXTURES` that exist on disk. */
export function presentFixtures(): string[] {
  return JS_FIXTURES.filter((name) => fs.existsSync(path.join(FIXTURES, name)));
}

/**
 * The fixtures one of the two corpus tests copies: the static export (`packages/engine/test/
 * js-fidelity.test.ts`) or the hosted copy (`apps/server/src/hosting/js-fidelity.test.ts`).
 * `MIRROR_FIDELITY_ONLY=js-router,js-todo` narrows both while working on a fixture. With
 * `MIRROR_FIDELITY_CORPUS=half` (CI sets it) each fixture is copied by one of the two, in turn, so
 * every fixture is still checked once; `npm run bench:fidelity` copies all of them both ways.
 */
export function corpusFor(copy: 'export' | 'hosted'): { names: string[]; narrowed: boolean } {
  const only = process.env.MIRROR_FIDELITY_ONLY?.split(',');
  const half = process.env.MIRROR_FIDELITY_CORPUS === 'half';
  const names = presentFixtures()
    .filter((name) => !only || only.includes(name))
    .filter((_, i) => !half || i % 2 === (copy === 'export' ? 0 : 1));
  return { names, narrowed: !!only || half };
}

/** A fixture with its session; one without `session.ts` is compared on its start page only. */
export async function loadFixture(name: string): Promise<JsFixture> {
  const dir = path.join(FIXTURES, name);
  const file = path.join(dir, 'session.ts');
  // Without a session.ts the folder layout says it: `site/` is the root, `cdn/` the second origin.
  const spec: FixtureSpec = fs.existsSync(file)
    ? ((await import(file)) as { default: FixtureSpec }).default
    : {
        ...(fs.existsSync(path.join(dir, 'site')) ? { root: 'site' } : {}),
        ...(fs.existsSync(path.join(dir, 'cdn')) ? { cdn: 'cdn' } : {}),
      };
  return fixtureOf(name, dir, spec);
}

/** A fixture from its spec: the corpus's own, or a site of another corpus (bench/js-sites). */
export function fixtureOf(name: string, dir: string, spec: FixtureSpec): JsFixture {
  return {
    name,
    dir,
    spec,
    start: spec.start ?? '/',
    pages: spec.pages ?? [],
    deepLinks: spec.deepLinks ?? [],
    session: spec.session ?? [],
  };
}

// ---- the original --------------------------------------------------------------------------

export interface Original {
  origin: FixtureServer;
  /** Every origin the original may use (itself and its CDN). */
  origins: string[];
  close(): Promise<void>;
}

/** Serves a fixture on 127.0.0.1 (and its CDN folder on a second port). */
export async function startOriginal(fixture: JsFixture): Promise<Original> {
  const { spec } = fixture;
  const root = path.join(fixture.dir, spec.root ?? '.');
  const cdn = spec.cdn ? await serveFixture(path.join(fixture.dir, spec.cdn)) : null;
  let routes: Record<string, Handler> = spec.routes ?? {};
  if (spec.appShell) {
    const shell = path.join(root, spec.appShell);
    const fallback: Handler = (req, res) => {
      const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      if (fs.existsSync(path.join(root, pathname))) return false;
      const body = fs.readFileSync(shell);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    };
    // Every path not routed by the spec falls back to the shell, unless a file answers it.
    routes = new Proxy(routes, {
      get: (target, key: string) => (Object.hasOwn(target, key) ? target[key] : fallback),
    });
  }
  // Text files may name `{{ORIGIN}}` and `{{CDN}}`, as in the engine's other fixtures.
  const origin = await serveFixture(root, routes);
  if (cdn) origin.vars.CDN = cdn.origin;
  let closing: Promise<unknown> | undefined;
  return {
    origin,
    origins: [origin.origin, ...(cdn ? [cdn.origin] : [])],
    close: async () => {
      closing ??= Promise.all([origin.close(), cdn?.close()]);
      await closing;
    },
  };
}

// ---- a static host for an export -----------------------------------------------------------

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.webmanifest': 'application/manifest+json',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves an exported folder the way Netlify and Cloudflare Pages do: files first (`/about` also
 * finds `/about.html`, a folder its `index.html`), then the `_redirects` rules (status 200 rewrites
 * only where no file exists; 30x redirects), then `404.html` with status 404. What a plain static
 * server (`serveDirectory`) adds none of: there, deep links of a client-routed app are 404.
 */
export async function serveExportLikeNetlify(dir: string): Promise<FixtureServer> {
  const rules = fs.existsSync(path.join(dir, '_redirects'))
    ? fs
        .readFileSync(path.join(dir, '_redirects'), 'utf8')
        .split('\n')
        .map((line) => line.trim().split(/\s+/))
        .filter((parts) => parts.length >= 2 && !parts[0]!.startsWith('#'))
        .map(([from, to, status]) => ({ from: from!, to: to!, status: Number(status ?? 301) }))
    : [];
  const fileOf = (pathname: string): string | null => {
    const file = path.join(dir, pathname);
    if (!file.startsWith(dir)) return null;
    const candidates = pathname.endsWith('/')
      ? [path.join(file, 'index.html')]
      : [file, `${file}.html`, path.join(file, 'index.html')];
    return candidates.find((f) => fs.existsSync(f) && fs.statSync(f).isFile()) ?? null;
  };
  const matches = (pattern: string, pathname: string) =>
    pattern.endsWith('/*') ? pathname.startsWith(pattern.slice(0, -1)) : pattern === pathname;
  const state: FixtureServer = {
    origin: '',
    host: '',
    requests: [],
    vars: {},
    close: async () => undefined,
  };
  const send = (res: http.ServerResponse, status: number, file: string, head: boolean) => {
    const body = fs.readFileSync(file);
    res.writeHead(status, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'content-length': String(body.length),
    });
    res.end(head ? undefined : body);
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    state.requests.push(`${url.pathname}${url.search}`);
    const pathname = decodeURIComponent(url.pathname);
    const head = req.method === 'HEAD';
    const file = fileOf(pathname);
    if (file) return send(res, 200, file, head);
    for (const rule of rules) {
      if (!matches(rule.from, pathname)) continue;
      if (rule.status >= 300 && rule.status < 400)
        return void res.writeHead(rule.status, { location: rule.to }).end();
      const target = fileOf(rule.to);
      if (target) return send(res, rule.status, target, head);
    }
    const notFound = fileOf('/404.html');
    if (notFound) return send(res, 404, notFound, head);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.origin = `http://127.0.0.1:${port}`;
  state.host = `127.0.0.1:${port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

// ---- observing a site ----------------------------------------------------------------------

export interface View {
  /** Path, query and fragment the browser shows. */
  url: string;
  /** `innerText` of every frame's body, main frame first. */
  text: string;
  screenshot: Buffer;
}

export interface Observation {
  /** The start page, `pages` and deep links, each loaded in a fresh browser context. */
  loads: Record<string, View & { status: number }>;
  steps: Record<string, View>;
  /** Steps and deep links this server cannot answer (`deepLinks: false`). */
  skipped: string[];
  failed: string[];
  foreign: string[];
  /** The session ended with an error (a control the visitor needed was missing, …). */
  error?: string;
}

export interface ObserveOptions {
  /** Origins the site may request (itself, its CDN); anything else is a foreign request. */
  allowed: string[];
  /** Whether the server answers addresses it has no file for with the app's shell. */
  deepLinks: boolean;
  /**
   * How many times the session runs before its failure stands (default 1). The original's: 2. A
   * session that fails on the original is a broken fixture, which fails again; on a loaded CI
   * machine (a run of the same site copying beside it) a click once waited past its 5 s there.
   * The copy's session runs once: its failure is a finding.
   */
  sessionTries?: number;
}

const VIEWPORT = { width: 1280, height: 800 };
const CHANGED_AT = '__fidelityChangedAt';
/**
 * Notes, in every frame, when the DOM last changed: in the page's own clock, so a busy machine
 * that delivers Chromium's events late cannot make a half-built view look settled.
 */
const WATCH_CHANGES = `(() => {
  let at = performance.now();
  Object.defineProperty(self, '${CHANGED_AT}', { get: () => at });
  new MutationObserver(() => { at = performance.now(); })
    .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})()`;
// Long enough that a busy machine's gap between a click's first change (a loading state) and
// the request it starts (a code-split chunk) is not taken for a settled page: 200 ms was not,
// with the whole suite running.
const QUIET_MS = 400;
const SETTLE_MAX_MS = 8_000;

/** One tab: counts requests in flight, and the failed and foreign ones. */
async function openTab(browser: Browser, options: ObserveOptions, log: Observation) {
  const context = await browser.newContext({
    viewport: VIEWPORT,
    reducedMotion: 'reduce',
    timezoneId: 'UTC',
    locale: 'en-US',
  });
  await context.addInitScript({ content: WATCH_CHANGES });
  const page = await context.newPage();
  // A control the visitor needs is there at once or not at all: fail the step quickly.
  page.setDefaultTimeout(5_000);
  let inFlight = 0;
  let lastActivity = Date.now();
  const activity = (delta: number) => {
    inFlight = Math.max(0, inFlight + delta);
    lastActivity = Date.now();
  };
  page.on('request', (request) => {
    activity(1);
    const url = request.url();
    if (!/^https?:/.test(url)) return;
    if (!options.allowed.includes(new URL(url).origin)) log.foreign.push(url);
  });
  page.on('requestfinished', () => activity(-1));
  page.on('requestfailed', (request) => {
    activity(-1);
    log.failed.push(`${request.url()} (${request.failure()?.errorText ?? 'failed'})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) log.failed.push(`${response.url()} (HTTP ${response.status()})`);
  });
  /** Milliseconds since the DOM of any frame last changed. */
  const unchangedFor = async () => {
    let least = Infinity;
    for (const frame of page.frames()) {
      const ms = await frame
        .evaluate(`performance.now() - (self.${CHANGED_AT} ?? 0)`)
        .catch(() => Infinity);
      least = Math.min(least, Number(ms));
    }
    return least;
  };
  /**
   * Until nothing has been in flight and no DOM has changed for a moment, fonts are loaded, every
   * image in view has decoded and two frames were drawn: the page a visitor looks at once it
   * stopped changing.
   */
  const settle = async () => {
    // What the last action starts (an observer's fetch a frame later) counts: quiet from now on.
    lastActivity = Date.now();
    const until = Date.now() + SETTLE_MAX_MS;
    const networkQuiet = () => inFlight === 0 && Date.now() - lastActivity >= QUIET_MS;
    while (Date.now() < until) {
      // Asked again after the round trip: request events that were queued behind it count.
      if (networkQuiet() && (await unchangedFor()) >= QUIET_MS && networkQuiet()) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await page
      .waitForFunction(
        `Array.from(document.images).every((img) => {
          const box = img.getBoundingClientRect();
          const inView = box.bottom > 0 && box.top < innerHeight && box.width > 0;
          return !inView || !img.currentSrc || img.complete;
        })`,
        undefined,
        { timeout: 5_000 },
      )
      .catch(() => undefined);
    await page.evaluate('document.fonts.ready.then(() => undefined)').catch(() => undefined);
    await page
      .evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))')
      .catch(() => undefined);
  };
  return { context, page, settle };
}

/**
 * The text a visitor reads in one frame: the body's `innerText`, then that of every open shadow
 * root in document order (innerText does not enter shadow trees; custom elements live there).
 */
const VISIBLE_TEXT = `(() => {
  const parts = [document.body ? document.body.innerText : ''];
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (!el.shadowRoot) continue;
      const text = Array.from(el.shadowRoot.childNodes, (node) =>
        node.nodeType === Node.TEXT_NODE ? node.textContent
          : node instanceof HTMLElement && !['STYLE', 'SCRIPT'].includes(node.tagName) && node.checkVisibility()
            ? node.innerText : '').join('\\n').trim();
      if (text) parts.push(text);
      visit(el.shadowRoot);
    }
  };
  visit(document);
  return parts.join('\\n');
})()`;

async function viewOf(page: Page, base: string, fullPage: boolean): Promise<View> {
  const texts: string[] = [];
  for (const frame of page.frames()) {
    const text = await frame.evaluate(VISIBLE_TEXT).catch(() => '(frame gone)');
    texts.push(
      String(text)
        .replace(/[ \t]+\n/g, '\n')
        .trim(),
    );
  }
  const url = page.url();
  return {
    url: url.startsWith(base) ? url.slice(base.length) : url,
    text: texts.join('\n\n[frame]\n'),
    // A screenshot is no control a visitor waits for: on a busy machine it takes seconds.
    screenshot: await page.screenshot({
      fullPage,
      animations: 'disabled',
      caret: 'hide',
      timeout: 30_000,
    }),
  };
}

/** Loads the fixture's pages and runs its session on `base` (an origin, no trailing slash). */
export async function observe(
  browser: Browser,
  fixture: JsFixture,
  base: string,
  options: ObserveOptions,
): Promise<Observation> {
  const log: Observation = { loads: {}, steps: {}, skipped: [], failed: [], foreign: [] };
  const loads = [
    ...new Set([fixture.start, ...fixture.pages]),
    ...fixture.deepLinks.map((p) => `deep:${p}`),
  ];
  for (const entry of loads) {
    const deep = entry.startsWith('deep:');
    const address = deep ? entry.slice(5) : entry;
    if (deep && !options.deepLinks) {
      log.skipped.push(`load ${address}`);
      continue;
    }
    const tab = await openTab(browser, options, log);
    try {
      const response = await tab.page.goto(`${base}${address}`, { waitUntil: 'load' });
      await fixture.spec.ready?.(tab.page).catch(() => undefined);
      await tab.settle();
      log.loads[address] = {
        status: response?.status() ?? 0,
        ...(await viewOf(tab.page, base, true)),
      };
    } finally {
      await tab.context.close();
    }
  }
  if (fixture.session.length === 0) return log;

  const tries = options.sessionTries ?? 1;
  for (let attempt = 1; attempt <= tries; attempt++) {
    log.steps = {};
    delete log.error;
    await runSession(browser, fixture, base, options, log);
    if (log.error === undefined) break;
  }
  return log;
}

/** The fixture's session in one tab: each step's view in `log.steps`, or the failing step. */
async function runSession(
  browser: Browser,
  fixture: JsFixture,
  base: string,
  options: ObserveOptions,
  log: Observation,
): Promise<void> {
  const tab = await openTab(browser, options, log);
  try {
    await tab.page.goto(`${base}${fixture.start}`, { waitUntil: 'load' });
    await fixture.spec.ready?.(tab.page).catch(() => undefined);
    await tab.settle();
    log.steps['open'] = await viewOf(tab.page, base, false);
    for (const step of fixture.session) {
      if (step.deepLink && !options.deepLinks) {
        if (!log.skipped.includes(step.name)) log.skipped.push(step.name);
        continue;
      }
      try {
        await step.run(tab.page, { origin: base });
      } catch (error) {
        log.error = `step "${step.name}": ${(error as Error).message.split('\n')[0]}`;
        break;
      }
      await fixture.spec.ready?.(tab.page).catch(() => undefined);
      await tab.settle();
      log.steps[step.name] = await viewOf(tab.page, base, false);
    }
  } finally {
    await tab.context.close();
  }
}

/** Writes an observation's screenshots and texts to `dir` (to look at a difference). */
export function saveObservation(dir: string, label: string, observation: Observation): void {
  fs.mkdirSync(dir, { recursive: true });
  const views = {
    ...Object.fromEntries(Object.entries(observation.loads).map(([p, v]) => [`load ${p}`, v])),
    ...observation.steps,
  };
  let index = 0;
  for (const [name, view] of Object.entries(views)) {
    const file = `${label}-${String(index++).padStart(2, '0')}-${name.replace(/[^\w]+/g, '_')}`;
    fs.writeFileSync(path.join(dir, `${file}.png`), view.screenshot);
    fs.writeFileSync(path.join(dir, `${file}.txt`), `${view.url}\n\n${view.text}\n`);
  }
}

// ---- comparing -------------------------------------------------------------------------------

export interface StepFigures {
  name: string;
  equal: boolean;
  pixelDifference: number;
  textEqual: boolean;
  /** The original's and the copy's address at that step, when they differ. */
  url?: [string, string];
  /** The HTTP status of a page loaded directly, original then copy, when they differ. */
  status?: [number, number];
  /** First line that differs, original then copy. */
  textDiff?: [string, string];
  skipped?: boolean;
}

export interface FidelityFigures {
  fixture: string;
  /** Largest pixel difference of the pages loaded directly (0..1). */
  pixelDifference: number;
  loads: StepFigures[];
  failed: string[];
  foreign: string[];
  steps: StepFigures[];
  sessionEqual: boolean;
  /** The first step (or load) that differs, and how. */
  firstDifference: string | null;
  skipped: string[];
  sessionError?: string;
}

function firstDifferentLine(a: string, b: string): [string, string] {
  const al = a.split('\n');
  const bl = b.split('\n');
  for (let i = 0; i < Math.max(al.length, bl.length); i++) {
    if (al[i] !== bl[i]) return [al[i] ?? '(end)', bl[i] ?? '(end)'];
  }
  return ['', ''];
}

function compareView(name: string, original: View | undefined, copy: View | undefined) {
  if (!original || !copy) {
    return {
      name,
      equal: false,
      pixelDifference: 1,
      textEqual: false,
      textDiff: [original ? 'seen' : 'missing', copy ? 'seen' : 'missing'] as [string, string],
    };
  }
  const difference = pixelDifference(original.screenshot, copy.screenshot);
  const textEqual = original.text === copy.text;
  const figures: StepFigures = {
    name,
    equal: textEqual && difference <= PIXEL_TOLERANCE,
    pixelDifference: difference,
    textEqual,
  };
  if (!textEqual) figures.textDiff = firstDifferentLine(original.text, copy.text);
  if (original.url !== copy.url) figures.url = [original.url, copy.url];
  return figures;
}

function describe(step: StepFigures): string {
  const parts = [];
  if (step.pixelDifference > PIXEL_TOLERANCE)
    parts.push(`${(step.pixelDifference * 100).toFixed(2)}% of pixels differ`);
  if (step.textDiff)
    parts.push(`text "${step.textDiff[0].slice(0, 80)}" became "${step.textDiff[1].slice(0, 80)}"`);
  if (step.url) parts.push(`address ${step.url[0]} became ${step.url[1]}`);
  if (step.status) parts.push(`status ${step.status[0]} became ${step.status[1]}`);
  return `${step.name}: ${parts.join('; ')}`;
}

/** The copy against the original; steps the copy's server cannot answer are listed as skipped. */
export function compare(
  fixture: JsFixture,
  original: Observation,
  copy: Observation,
): FidelityFigures {
  const loads = Object.keys(original.loads)
    .filter((p) => !copy.skipped.includes(`load ${p}`))
    .map((p) => {
      const figures = compareView(`load ${p}`, original.loads[p], copy.loads[p]);
      const statuses: [number, number] = [
        original.loads[p]?.status ?? 0,
        copy.loads[p]?.status ?? 0,
      ];
      if (statuses[0] === statuses[1]) return figures;
      return { ...figures, equal: false, status: statuses };
    });
  const steps = ['open', ...fixture.session.map((s) => s.name)].map((name) =>
    copy.skipped.includes(name)
      ? { name, equal: true, pixelDifference: 0, textEqual: true, skipped: true }
      : compareView(name, original.steps[name], copy.steps[name]),
  );
  const sessionSteps = fixture.session.length > 0 ? steps : [];
  const differing = [...loads, ...sessionSteps].find((s) => !s.equal);
  // A session that fails on the original is a broken fixture, not a finding about the copy.
  const broken = original.error ? `the session fails on the original: ${original.error}` : null;
  return {
    fixture: fixture.name,
    pixelDifference: Math.max(0, ...loads.map((l) => l.pixelDifference)),
    loads,
    failed: [...new Set(copy.failed)],
    foreign: [...new Set(copy.foreign)],
    steps: sessionSteps,
    sessionEqual: sessionSteps.every((s) => s.equal) && !copy.error && !broken,
    firstDifference:
      broken ??
      (differing &&
      copy.error &&
      differing.name in original.steps &&
      !(differing.name in copy.steps)
        ? copy.error
        : differing
          ? describe(differing)
          : (copy.error ?? null)),
    skipped: copy.skipped,
    ...(copy.error ? { sessionError: copy.error } : {}),
  };
}

// ---- the render decision -----------------------------------------------------------------------

export interface RenderDecision {
  pages: number;
  rendered: string[];
  notes: string[];
  failures: string[];
}

/** What the run decided to render, from its manifest. */
export function renderDecision(manifest: Manifest): RenderDecision {
  return {
    pages: manifest.entries.filter((e) => e.kind === 'page' && e.status === 200).length,
    rendered: manifest.entries.filter((e) => e.rendered).map((e) => e.path),
    notes: manifest.notes,
    failures: manifest.failures.map((f) => `${f.url} (${f.reason})`),
  };
}

/** A one-line summary of figures, for assertion messages and reports. */
export function summary(figures: FidelityFigures): string {
  const pct = (n: number) => `${(n * 100).toFixed(2)}%`;
  const steps = figures.steps.filter((s) => !s.skipped);
  return (
    `${figures.fixture}: pixels ${pct(figures.pixelDifference)}, ` +
    `${figures.failed.length} failed, ${figures.foreign.length} foreign, session ` +
    (figures.sessionEqual
      ? `equal (${steps.length} steps)`
      : `differs (${figures.firstDifference})`) +
    (figures.skipped.length ? `; skipped: ${figures.skipped.join(', ')}` : '')
  );
}

/** Runs `work` over `items` with at most `limit` at once, in order of the results. */
export async function inParallel<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
