/**
 * Behaviours: after a page has loaded and settled, do what a visitor does, so that the files a site
 * loads only on interaction are requested (the renderer records every response, so requesting is
 * enough). In the spirit of Browsertrix's behaviours (webrecorder):
 * - open the site's search (an input, a search button or dialog trigger, the `/` and Ctrl/⌘+K
 *   shortcuts), type a frequent word of the page's own text, wait for the network, close it;
 * - hover same-origin links (routers prefetch chunks and payloads on hover), and follow one
 *   internal link by a real click when the page routes on the client, then go back;
 * - open tabs, closed `<details>`, collapsed expanders and the theme switch, each once, and restore.
 * Scrolling is the renderer's.
 *
 * Never: a link to another origin or another document (except the one client navigation, which
 * is undone), a `download` link, a form submission (submit and reset controls of a form, Enter),
 * a destructive-looking control (delete, remove, log out, buy, pay, submit, subscribe, …). Every
 * loop is bounded, every action is bounded by the deadline and the signal, and an action that fails
 * is counted in `errors`, never thrown: a behaviour must not fail the render. The page ends on its
 * original URL; a click that navigated the whole page away is undone with `goBack` (or a `goto` of
 * the original address, which loads it again).
 *
 * Elements are found by scripts kept as JavaScript source text (see in-page.ts) and acted on
 * through element handles, so nothing is written into the DOM that the renderer serializes.
 */
import type { ElementHandle, JSHandle, Page, Request } from 'playwright-core';
import { STATE_KEY } from './in-page.js';

export const BEHAVIOUR_DEFAULTS = {
  /** Same-origin links hovered, at most. */
  maxLinks: 40,
  /** Pause after each hover, for prefetch-on-hover handlers (often behind a short timer). */
  hoverDelayMs: 60,
  /** Links hovered with the mouse; the others get a pointer's events dispatched. */
  realHovers: 5,
  /** Search triggers (buttons, dialog openers) tried until one yields an input. */
  maxSearchTriggers: 4,
  /** How long an opened search may take to show (or focus) its input: dialogs load lazily. */
  searchOpenWaitMs: 1_500,
  /** After a keyboard shortcut, how long to wait for a focused input. */
  shortcutWaitMs: 400,
  /** Keyboard shortcuts that open many docs themes' search, tried in order. */
  searchShortcuts: ['/', 'Control+k', 'Meta+k'],
  /** Delay between typed characters: search boxes debounce. */
  typeDelayMs: 60,
  /** Typed when the page has no word of 4+ letters. */
  fallbackWord: 'help',
  /** Client navigations (clicks on an internal link, then back). */
  maxNavigations: 1,
  /** Tabs, `<details>`, expanders and the theme switch opened, together. */
  maxOpen: 24,
  /** Clicks to bring the theme back to what it was (a switch may cycle light → dark → system). */
  maxThemeRestoreClicks: 4,
  /** One click, hover or key press waits at most this long for its element. */
  actionTimeoutMs: 1_500,
  /** Pause after a click for the page to react (start its requests, open its menu). */
  settleMs: 200,
  /** A navigation started by a click (or `goBack`) may take this long, within the deadline. */
  navigationTimeoutMs: 8_000,
  /** How long `history.back()` may take to restore the original URL. */
  backWaitMs: 2_000,
  /**
   * Past the deadline, the page is still brought back to its original URL if it is elsewhere,
   * within this much more time (unless the signal was aborted).
   */
  returnGraceMs: 3_000,
} as const;

export interface BehaviourReport {
  /** Something was typed into the site's search. */
  searched: boolean;
  /** The word typed. */
  typed?: string;
  /** Links hovered. */
  hovered: number;
  /** Navigations made by clicking an internal link and undone (client routes or full loads). */
  navigated: number;
  /** Tabs, `<details>`, expanders and theme switches opened. */
  opened: number;
  /** Search shortcuts pressed (none where nothing listens for keys). */
  shortcuts: number;
  /** Actions that failed (timed out, element gone, page busy): swallowed. */
  errors: number;
}

export interface BehaviourOptions {
  /** Epoch ms: nothing new is started past it, and waits end at it. */
  deadline: number;
  signal?: AbortSignal;
  /** The renderer's network-idle wait (bounded by the renderer itself). */
  waitForIdle: () => Promise<void>;
  /** Links hovered, at most; default BEHAVIOUR_DEFAULTS.maxLinks. */
  maxLinks?: number;
}

/** Non-enumerable page-global set on the page behaviours start on: gone after a full navigation. */
const MARK_KEY = '__mirrorBehaviourPage';

const MARK_SCRIPT = `(() => {
  if (!Object.prototype.hasOwnProperty.call(window, '${MARK_KEY}'))
    Object.defineProperty(window, '${MARK_KEY}', { value: true, enumerable: false, configurable: true });
  return true;
})()`;

const MARKED_SCRIPT = `Object.prototype.hasOwnProperty.call(window, '${MARK_KEY}')`;

/**
 * Helpers shared by the scripts below (pasted into each, so every script stays self-contained).
 * - `deepAll`: querySelectorAll through open shadow roots (bounded);
 * - `shown`: rendered with a box;
 * - `label`: what names an element (aria-label, title, id, class, name, value, placeholder, text);
 * - `unsafe`: clicking it could leave the document, submit a form, download, or destroy something.
 */
const HELPERS = `
  const deepAll = (selector) => {
    const out = [];
    const roots = [document];
    for (let i = 0; i < roots.length && i < 200; i++) {
      out.push(...roots[i].querySelectorAll(selector));
      for (const el of roots[i].querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
    }
    return out;
  };
  const shown = (el) => {
    if (!el || !el.isConnected) return false;
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const label = (el) => [
    el.getAttribute('aria-label'), el.getAttribute('title'), el.id, el.getAttribute('class'),
    el.getAttribute('name'), el.getAttribute('value'), el.getAttribute('placeholder'),
    el.getAttribute('href'), (el.textContent || '').slice(0, 200),
  ].filter(Boolean).join(' ');
  const DESTRUCTIVE = /(^|[^a-z])(delete|remove|destroy|erase|trash|log[\\s_-]?(out|off)|sign[\\s_-]?(out|off)|buy|pay|purchase|checkout|submit|subscribe|unsubscribe|deactivate|close[\\s_-]?account|send)/i;
  const sameDocument = (href) => {
    try {
      const u = new URL(href, document.baseURI);
      return u.origin === location.origin && u.pathname === location.pathname && u.search === location.search;
    } catch { return false; }
  };
  const HARMLESS_JS = /^javascript:\\s*(void\\s*\\(?\\s*0\\s*\\)?)?\\s*;?\\s*$/i;
  const unsafe = (el, depth = 0) => {
    if (DESTRUCTIVE.test(label(el))) return true;
    const link = el.closest('a[href], area[href]');
    if (link) {
      if (link.hasAttribute('download')) return true;
      const target = link.getAttribute('target');
      if (target && target.toLowerCase() !== '_self') return true;
      const href = link.getAttribute('href').trim();
      if (/^javascript:/i.test(href) ? !HARMLESS_JS.test(href) : !sameDocument(link.href)) return true;
      if (link !== el && DESTRUCTIVE.test(label(link))) return true;
    }
    const control = el.closest('button, input');
    if (control) {
      const type = (control.getAttribute('type') || (control.localName === 'button' ? 'submit' : 'text')).toLowerCase();
      if (control.form && (type === 'submit' || type === 'image' || type === 'reset')) return true;
      if (control.hasAttribute('formaction')) return true;
      if (control !== el && DESTRUCTIVE.test(label(control))) return true;
    }
    if (el.localName === 'label' && el.control && el.control !== el && depth === 0) return unsafe(el.control, 1);
    return false;
  };
  const outermost = (els) => els.filter((el) => !els.some((other) => other !== el && other.contains(el)));
`;

/** A frequent word of 4+ letters in the page's visible text (null when there is none). */
const WORD_SCRIPT = `(() => {
  ${HELPERS}
  const text = (document.body && document.body.innerText) || '';
  const stop = new Set(['that', 'this', 'with', 'from', 'your', 'have', 'will', 'what', 'when',
    'which', 'there', 'their', 'about', 'more', 'some', 'they', 'them', 'then', 'than', 'been',
    'were', 'into', 'also', 'only', 'other', 'such', 'each', 'these', 'those', 'here', 'just',
    'like', 'does', 'should', 'would', 'could', 'make', 'must', 'over', 'very', 'most', 'many',
    'http', 'https', 'www', 'html', 'page', 'next', 'previous', 'search', 'menu', 'skip', 'main',
    'content', 'home', 'toggle', 'theme', 'dark', 'light', 'mode']);
  const counts = new Map();
  let n = 0;
  for (const match of text.toLowerCase().matchAll(/\\p{L}{4,20}/gu)) {
    if (++n > 50000) break;
    const word = match[0];
    if (!stop.has(word) && !DESTRUCTIVE.test(word)) counts.set(word, (counts.get(word) || 0) + 1);
  }
  let best = null;
  let most = 0;
  for (const [word, count] of counts) if (count > most) { best = word; most = count; }
  return best;
})()`;

const SEARCH_WORDS = '/search|docsearch|pagefind/i';

/** Visible, editable inputs that look like a site search. */
const SEARCH_INPUTS_SCRIPT = `(() => {
  ${HELPERS}
  const words = ${SEARCH_WORDS};
  const names = new Set(['q', 'query', 's', 'search', 'keyword', 'keywords', 'term']);
  const found = [];
  for (const el of deepAll('input, textarea, [role=searchbox], [role=combobox], [contenteditable]')) {
    if (el.localName === 'input') {
      const type = (el.getAttribute('type') || 'text').toLowerCase();
      if (type !== 'text' && type !== 'search') continue;
    }
    if (el.disabled || el.readOnly || !shown(el)) continue;
    let looks = el.getAttribute('type') === 'search' || names.has((el.getAttribute('name') || '').toLowerCase()) ||
      el.getAttribute('role') === 'searchbox' || words.test(label(el));
    for (let up = el.parentElement, i = 0; !looks && up && i < 4; up = up.parentElement, i++)
      looks = up.localName === 'pagefind-ui' || up.getAttribute('role') === 'search' || up.localName === 'search' ||
        words.test([up.id, up.getAttribute('class'), up.getAttribute('aria-label')].join(' '));
    if (looks) found.push(el);
  }
  return found.slice(0, 5);
})()`;

/** Buttons and dialog triggers of a search, best first. */
const SEARCH_TRIGGERS_SCRIPT = `((max) => {
  ${HELPERS}
  const words = ${SEARCH_WORDS};
  const selector = 'button, [role=button], a, [tabindex], [aria-haspopup], [aria-keyshortcuts], .DocSearch-Button, [class*=search i], [id*=search i], [aria-label*=search i], [title*=search i]';
  const candidates = [];
  for (const el of deepAll(selector)) {
    if (/^(input|textarea|select|form|label|html|body|main|header|nav|footer|aside)$/.test(el.localName)) continue;
    if (el.querySelector('input, textarea')) continue;
    if (!words.test(label(el)) || !shown(el) || unsafe(el)) continue;
    candidates.push(el);
  }
  const rank = (el) =>
    el.matches('.DocSearch-Button') ? 0
    : el.matches('button, [role=button]') && (el.getAttribute('aria-label') || el.getAttribute('title')) ? 1
    : el.matches('button, [role=button]') ? 2 : 3;
  return outermost(candidates).sort((a, b) => rank(a) - rank(b)).slice(0, max);
})`;

/** The focused editable element (through shadow roots), or null. */
const FOCUSED_EDITABLE_SCRIPT = `(() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  if (!el || el === document.body || el === document.documentElement) return null;
  if (el.isContentEditable) return el;
  if (el.localName === 'textarea') return el.readOnly || el.disabled ? null : el;
  if (el.localName !== 'input') return null;
  const type = (el.getAttribute('type') || 'text').toLowerCase();
  return (type === 'text' || type === 'search') && !el.readOnly && !el.disabled ? el : null;
})()`;

const BLUR_SCRIPT = `(() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  if (el && el.blur) el.blur();
})()`;

/**
 * Same-origin links to other documents, safe to hover: those in the viewport first, then those of
 * navigation landmarks and sidebars. `forNavigation` keeps only links to pages (not files) and
 * prefers navigation landmarks.
 */
/**
 * Runs in the page: sends each link what a pointer moving onto it sends (routers prefetch on
 * `mouseenter`/`mouseover`). Self-contained: Playwright ships its source to the page.
 */
function pointAt(links: unknown[]): void {
  const page = globalThis as unknown as {
    PointerEvent: new (type: string, init: object) => unknown;
    MouseEvent: new (type: string, init: object) => unknown;
  };
  for (const link of links as { dispatchEvent(event: unknown): boolean }[]) {
    for (const type of ['pointerover', 'pointerenter', 'mouseover', 'mouseenter']) {
      const Event = type.startsWith('pointer') ? page.PointerEvent : page.MouseEvent;
      link.dispatchEvent(new Event(type, { bubbles: !type.endsWith('enter'), view: globalThis }));
    }
  }
}

const LINKS_SCRIPT = `((max, forNavigation) => {
  ${HELPERS}
  const inViewport = (el) => {
    const r = el.getBoundingClientRect();
    return r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
  };
  const NAV = 'nav, aside, header, [role=navigation], [class*=sidebar i], [class*=menu i], [class*=navbar i], [class*=toc i]';
  const FILE = /\\.(?!html?$|php$|aspx?$|jsp$)[a-z0-9]{1,5}$/i;
  const seen = new Set([location.href.split('#')[0]]);
  const front = [];
  const side = [];
  for (const a of deepAll('a[href]')) {
    if (front.length + side.length >= max * 4) break;
    let url;
    try { url = new URL(a.href, document.baseURI); } catch { continue; }
    if (!/^https?:$/.test(url.protocol) || url.origin !== location.origin) continue;
    if (a.hasAttribute('download')) continue;
    const target = a.getAttribute('target');
    if (target && target.toLowerCase() !== '_self') continue;
    if (DESTRUCTIVE.test(label(a)) || DESTRUCTIVE.test(url.pathname)) continue;
    if (forNavigation && FILE.test(url.pathname)) continue;
    const key = url.href.split('#')[0];
    if (seen.has(key) || !shown(a)) continue;
    seen.add(key);
    const nav = !!a.closest(NAV);
    if (forNavigation ? nav : inViewport(a)) front.push(a);
    else if (forNavigation || nav) side.push(a);
  }
  return front.concat(side).slice(0, max);
})`;

/** What to open, by kind: unselected tabs, closed `<details>`, collapsed expanders, theme switches. */
const OPENERS_SCRIPT = `((kind, max) => {
  ${HELPERS}
  const THEME = /theme|dark|(^|[^a-z])light($|[^a-z])|colou?r[\\s_-]?(scheme|mode)/i;
  const SEARCH = ${SEARCH_WORDS};
  const pick = (selector, keep) => {
    const out = [];
    for (const el of deepAll(selector)) {
      if (out.length >= max) break;
      if (shown(el) && !unsafe(el) && keep(el)) out.push(el);
    }
    return out;
  };
  if (kind === 'tabs')
    return pick('[role=tab]', (el) => el.getAttribute('aria-selected') !== 'true' && !el.hasAttribute('disabled') && el.getAttribute('aria-disabled') !== 'true');
  if (kind === 'selectedTabs') return pick('[role=tab][aria-selected=true]', () => true);
  if (kind === 'details') return pick('details:not([open]) > summary', (el) => el.parentElement.firstElementChild === el || el.parentElement.querySelector(':scope > summary') === el);
  if (kind === 'expanders')
    return pick('button[aria-expanded=false], [role=button][aria-expanded=false], summary[aria-expanded=false]', (el) =>
      !el.disabled && el.localName !== 'summary' && !SEARCH.test(label(el)) && !THEME.test(label(el)));
  if (kind === 'theme')
    return outermost(pick('button, [role=button], [role=switch], label, input[type=checkbox], input[type=radio], a', (el) => {
      const own = [el.getAttribute('aria-label'), el.getAttribute('title'), el.id, el.getAttribute('class'), el.getAttribute('name'),
        el.localName === 'input' ? '' : (el.textContent || '').slice(0, 60)].join(' ');
      return THEME.test(own) && !el.matches('[role=tab]');
    }));
  return [];
})`;

/** What the theme is: the attributes of `<html>` and `<body>`. */
const THEME_STATE_SCRIPT = `(() => [document.documentElement, document.body]
  .filter(Boolean)
  .map((el) => Array.from(el.attributes).map((a) => a.name + '=' + a.value).sort().join(' '))
  .join(' | '))()`;

/** Whether the page routes on the client (null: the renderer's init script is not there to tell). */
const ROUTED_SCRIPT = `(() => {
  const state = window['${STATE_KEY}'];
  if (!state) return null;
  return state.historyCalls > 0 || state.routeListeners > 0 || typeof window.onpopstate === 'function';
})()`;

/**
 * Whether a key press could do anything: a key listener on the window, document, html or body, or
 * an `on…` key handler there (null when the init script did not run: then it could).
 */
const KEYS_HEARD_SCRIPT = `(() => {
  const state = window['${STATE_KEY}'];
  if (!state) return null;
  const targets = [window, document, document.documentElement, document.body];
  return state.keyListeners > 0 ||
    targets.some((t) => t && (typeof t.onkeydown === 'function' || typeof t.onkeyup === 'function' || typeof t.onkeypress === 'function'));
})()`;

/** The current entry's place in the session history (Navigation API; history.length before it). */
const HISTORY_INDEX_SCRIPT = `(window.navigation && navigation.currentEntry
  ? navigation.currentEntry.index : history.length - 1)`;

const SCROLL_POSITION_SCRIPT = `[window.scrollX, window.scrollY]`;

/**
 * Whether an opener is open ('true') or not ('false'): a `<summary>` by its `<details>`, the others
 * by aria-expanded or aria-selected. Runs in the page (typed structurally: no DOM library here).
 */
function openState(el: {
  localName: string;
  parentElement: { open?: boolean } | null;
  getAttribute(name: string): string | null;
}): string {
  if (el.localName === 'summary') return String(!!(el.parentElement && el.parentElement.open));
  return el.getAttribute('aria-expanded') === 'true' || el.getAttribute('aria-selected') === 'true'
    ? 'true'
    : 'false';
}

class Expired extends Error {}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

export async function runBehaviours(
  page: Page,
  options: BehaviourOptions,
): Promise<BehaviourReport> {
  const D = BEHAVIOUR_DEFAULTS;
  const report: BehaviourReport = {
    searched: false,
    hovered: 0,
    navigated: 0,
    opened: 0,
    shortcuts: 0,
    errors: 0,
  };
  const { signal } = options;
  /** Moved past the deadline only to bring the page home at the end. */
  let limit = options.deadline;
  const alive = () => !signal?.aborted && Date.now() < limit;
  const left = () => limit - Date.now();
  if (!alive()) return report;

  /** Rejects with Expired when the signal aborts (handled here, so never unhandled). */
  const cancelled = new Promise<never>((_, reject) => {
    if (!signal) return;
    if (signal.aborted) reject(new Expired());
    else signal.addEventListener('abort', () => reject(new Expired()), { once: true });
  });
  cancelled.catch(() => undefined);

  /** The promise, or Expired when the limit passes (or the signal aborts) first. */
  const bounded = async <T>(work: Promise<T>): Promise<T> => {
    work.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const expiry = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Expired()), Math.max(0, left()));
    });
    expiry.catch(() => undefined);
    try {
      return await Promise.race([work, expiry, cancelled]);
    } finally {
      clearTimeout(timer);
    }
  };
  const pause = (ms: number) => bounded(sleep(Math.min(ms, left()))).catch(() => undefined);
  const idle = () =>
    bounded(options.waitForIdle()).catch((error: unknown) => {
      if (!(error instanceof Expired)) report.errors++;
    });
  const evaluate = async <T>(script: string): Promise<T | undefined> => {
    try {
      return (await bounded(page.evaluate(script))) as T;
    } catch {
      return undefined;
    }
  };
  const actionTimeout = () => Math.max(0, Math.min(D.actionTimeoutMs, left()));

  /** Element handles returned by a script (an array); every handle is disposed at the end. */
  const handles: JSHandle[] = [];
  const elements = async (script: string): Promise<ElementHandle[]> => {
    try {
      const array = await bounded(page.evaluateHandle(script));
      handles.push(array);
      const out: ElementHandle[] = [];
      for (const item of (await bounded(array.getProperties())).values()) {
        handles.push(item);
        const element = item.asElement();
        if (element) out.push(element);
      }
      return out;
    } catch {
      return [];
    }
  };
  const element = async (script: string): Promise<ElementHandle | undefined> => {
    try {
      const handle = await bounded(page.evaluateHandle(script));
      handles.push(handle);
      return handle.asElement() ?? undefined;
    } catch {
      return undefined;
    }
  };
  const stateOf = async (handle: ElementHandle): Promise<string | undefined> => {
    try {
      return String(await bounded(handle.evaluate(openState)));
    } catch {
      return undefined;
    }
  };

  // Navigations of the main frame in flight, to tell a click that loads another document.
  const pendingNavigations = new Set<Request>();
  let navigationRequests = 0;
  const onRequest = (request: Request) => {
    try {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
        pendingNavigations.add(request);
        navigationRequests++;
      }
    } catch {
      // Requests of workers have no frame.
    }
  };
  const onRequestDone = (request: Request) => {
    pendingNavigations.delete(request);
  };
  page.on('request', onRequest);
  page.on('requestfinished', onRequestDone);
  page.on('requestfailed', onRequestDone);

  const original = page.url();
  const startIndex = await evaluate<number>(HISTORY_INDEX_SCRIPT);
  const scroll = await evaluate<[number, number]>(SCROLL_POSITION_SCRIPT);
  await evaluate(MARK_SCRIPT);
  const marked = async () => (await evaluate<boolean>(MARKED_SCRIPT)) === true;

  /** After an action: if it started a navigation of the main frame, let it end. */
  const settleNavigation = async (before: number) => {
    if (navigationRequests === before) return;
    const until = Date.now() + Math.min(D.navigationTimeoutMs, left());
    while (pendingNavigations.size > 0 && Date.now() < until && alive()) await pause(50);
    await bounded(
      page.waitForLoadState('load', {
        timeout: Math.max(1, Math.min(D.navigationTimeoutMs, left())),
      }),
    ).catch(() => undefined);
  };

  /** Same address, or (`strict` false) the same but for the fragment. */
  const isOriginal = (url: string, strict: boolean) =>
    url === original || (!strict && url.split('#')[0] === original.split('#')[0]);

  /**
   * Brings the page back to its original document and history entry: `history.go(-n)` after
   * client routes, `goBack` after a full navigation, `goto` as the last resort. An address the
   * page replaced itself (a scroll-spy's fragment) is left alone; with `strict`, only its
   * fragment may differ. False if it could not.
   */
  const returnHome = async (strict = false): Promise<boolean> => {
    for (let attempt = 0; attempt < 5 && alive(); attempt++) {
      const same = await marked();
      const url = page.url();
      if (!same && isOriginal(url, false)) {
        // Loaded again (not from the back-forward cache): mark it and let it settle.
        await evaluate(MARK_SCRIPT);
        await idle();
        return true;
      }
      const index = same ? await evaluate<number>(HISTORY_INDEX_SCRIPT) : undefined;
      if (same) {
        if (url === original || index === undefined || startIndex === undefined) return true;
        if (index === startIndex && (!strict || isOriginal(url, false))) return true;
      }
      if (attempt === 4) break;
      const timeout = Math.max(1, Math.min(D.navigationTimeoutMs, left()));
      const before = navigationRequests;
      try {
        if (same && attempt === 0 && index !== undefined && index > (startIndex ?? index)) {
          await evaluate(`history.go(${(startIndex ?? index) - index})`);
          const until = Date.now() + Math.min(D.backWaitMs, left());
          while (Date.now() < until && alive()) {
            if ((await evaluate<number>(HISTORY_INDEX_SCRIPT)) !== index) break;
            await pause(50);
          }
          await pause(D.settleMs);
          await settleNavigation(before);
        } else if (!same && attempt < 2) {
          await bounded(page.goBack({ waitUntil: 'load', timeout }));
        } else {
          await bounded(page.goto(original, { waitUntil: 'load', timeout }));
        }
      } catch {
        report.errors++;
      }
    }
    return false;
  };

  /** Clicks, lets the page react, and undoes a navigation to another document. */
  const click = async (handle: ElementHandle): Promise<boolean> => {
    const timeout = actionTimeout();
    if (timeout <= 0) return false;
    const before = navigationRequests;
    try {
      await bounded(handle.click({ timeout, noWaitAfter: true }));
    } catch {
      report.errors++;
      return false;
    }
    await pause(D.settleMs);
    await settleNavigation(before);
    if (!(await marked())) {
      // The click loaded another document: go back, and count it.
      if (await returnHome()) report.navigated++;
      return false;
    }
    return true;
  };

  const press = async (key: string) => {
    try {
      await bounded(page.keyboard.press(key));
    } catch {
      report.errors++;
    }
  };

  // --- Search ------------------------------------------------------------------------------
  const searchInput = async (waitMs: number): Promise<ElementHandle | undefined> => {
    const until = Date.now() + Math.min(waitMs, left());
    for (let i = 0; i < 40; i++) {
      const focused = await element(FOCUSED_EDITABLE_SCRIPT);
      if (focused) return focused;
      const [input] = await elements(SEARCH_INPUTS_SCRIPT);
      if (input) return input;
      if (Date.now() >= until || !alive()) return undefined;
      await pause(100);
    }
    return undefined;
  };

  const search = async () => {
    const word = (await evaluate<string | null>(WORD_SCRIPT)) ?? D.fallbackWord;
    let input = (await elements(SEARCH_INPUTS_SCRIPT))[0];
    if (!input) {
      const triggers = await elements(`(${SEARCH_TRIGGERS_SCRIPT})(${D.maxSearchTriggers})`);
      for (const trigger of triggers) {
        if (!alive()) return;
        if (!(await click(trigger))) continue;
        input = await searchInput(D.searchOpenWaitMs);
        if (input) break;
        await press('Escape');
      }
    }
    // A shortcut is only tried where something listens for keys (each waits shortcutWaitMs).
    const heard = input ? false : (await evaluate<boolean | null>(KEYS_HEARD_SCRIPT)) !== false;
    for (const shortcut of heard ? D.searchShortcuts : []) {
      if (!alive()) return;
      await evaluate(BLUR_SCRIPT);
      await press(shortcut);
      report.shortcuts++;
      input = await searchInput(D.shortcutWaitMs);
      if (input) break;
    }
    if (!input || !alive()) return;
    let target = (await element(FOCUSED_EDITABLE_SCRIPT)) ?? input;
    if (target === input) {
      // Click it like a visitor (some open a dialog with an input of their own on click).
      await bounded(input.click({ timeout: actionTimeout(), noWaitAfter: true })).catch(() => {
        report.errors++;
      });
      await pause(D.settleMs);
      target = (await element(FOCUSED_EDITABLE_SCRIPT)) ?? input;
    }
    try {
      // Emptied first (a shortcut may have typed its own key into it); focused at least.
      await bounded(target.fill('', { timeout: actionTimeout() })).catch(async (error) => {
        if (error instanceof Expired) throw error;
        report.errors++;
        await bounded(target.focus());
      });
      await bounded(page.keyboard.type(word, { delay: D.typeDelayMs }));
      report.searched = true;
      report.typed = word;
    } catch {
      report.errors++;
    }
    await idle();
    // Leave the input as it was (the serializer keeps form values), then close the dialog.
    await bounded(target.fill('', { timeout: actionTimeout() })).catch(() => undefined);
    await press('Escape');
    await evaluate(BLUR_SCRIPT);
    await pause(D.settleMs);
  };

  // --- Links -------------------------------------------------------------------------------
  const hover = async () => {
    const max = Math.max(0, Math.floor(options.maxLinks ?? D.maxLinks));
    if (max === 0) return;
    const links = await elements(`(${LINKS_SCRIPT})(${max}, false)`);
    // The first few with the mouse itself (a handler may want a trusted event); the others by
    // the events a pointer sends, without scrolling to each one (40 real hovers took 6 s).
    for (const link of links.slice(0, D.realHovers)) {
      if (!alive()) return;
      try {
        await bounded(link.hover({ timeout: actionTimeout() }));
        report.hovered++;
        await pause(D.hoverDelayMs);
      } catch {
        report.errors++;
      }
    }
    const rest = links.slice(D.realHovers);
    if (rest.length > 0 && alive()) {
      try {
        await bounded(page.evaluate(pointAt, rest));
        report.hovered += rest.length;
      } catch {
        report.errors++;
      }
    }
    await pause(D.hoverDelayMs);
    await idle();
  };

  const navigate = async () => {
    // A page that does not route on the client would only load another page: not worth it.
    if ((await evaluate<boolean | null>(ROUTED_SCRIPT)) === false) return;
    const links = await elements(`(${LINKS_SCRIPT})(${D.maxNavigations}, true)`);
    for (const link of links.slice(0, D.maxNavigations)) {
      if (!alive()) return;
      const before = page.url();
      if (!(await click(link))) continue; // failed, or a full navigation already undone
      if (page.url() === before) continue; // nothing routed
      await idle();
      if (await returnHome(true)) report.navigated++;
      else return;
      await idle();
    }
  };

  // --- Tabs, details, expanders, theme -------------------------------------------------------
  const open = async () => {
    let budget: number = D.maxOpen;
    const selected = await elements(`(${OPENERS_SCRIPT})('selectedTabs', ${D.maxOpen})`);
    const tabs = await elements(`(${OPENERS_SCRIPT})('tabs', ${budget})`);
    for (const tab of tabs) {
      if (!alive() || budget <= 0) break;
      if ((await stateOf(tab)) !== 'false') continue;
      if (await click(tab)) {
        report.opened++;
        budget--;
      }
    }
    if (tabs.length > 0) {
      await idle();
      for (const tab of selected) {
        if (!alive()) break;
        if ((await stateOf(tab)) === 'false') await click(tab);
      }
    }

    // Opened and closed again one by one: an open menu would cover the next one.
    for (const kind of ['details', 'expanders'] as const) {
      const found = await elements(`(${OPENERS_SCRIPT})('${kind}', ${Math.max(0, budget)})`);
      for (const handle of found) {
        if (!alive() || budget <= 0) break;
        if ((await stateOf(handle)) !== 'false') continue;
        if (!(await click(handle))) continue;
        report.opened++;
        budget--;
        if ((await stateOf(handle)) === 'true' && !(await click(handle))) await press('Escape');
      }
    }

    if (budget > 0 && alive()) await theme();
    await idle();
  };

  const theme = async () => {
    const [toggle] = await elements(`(${OPENERS_SCRIPT})('theme', 1)`);
    const before = await evaluate<string>(THEME_STATE_SCRIPT);
    if (!toggle || before === undefined || !(await click(toggle))) return;
    report.opened++;
    await idle();
    // Click the (current) switch until the theme is what it was.
    for (let i = 0; i < D.maxThemeRestoreClicks && alive(); i++) {
      if ((await evaluate<string>(THEME_STATE_SCRIPT)) === before) return;
      const [again] = await elements(`(${OPENERS_SCRIPT})('theme', 1)`);
      if (!again || !(await click(again))) return;
    }
  };

  try {
    for (const behaviour of [search, hover, navigate, open]) {
      if (!alive()) break;
      try {
        await behaviour();
      } catch {
        report.errors++;
      }
      // A behaviour that ended away from the page (or on another URL) is undone before the next.
      if (alive() && !(await returnHome())) break;
    }
  } finally {
    if (!signal?.aborted) {
      if (Date.now() >= limit) limit = Date.now() + D.returnGraceMs;
      await returnHome().catch(() => undefined);
      limit = Math.max(limit, Date.now() + 500);
      await bounded(page.mouse.move(0, 0)).catch(() => undefined);
      await evaluate(BLUR_SCRIPT);
      if (scroll) await evaluate(`window.scrollTo(${Number(scroll[0])}, ${Number(scroll[1])})`);
    }
    page.off('request', onRequest);
    page.off('requestfinished', onRequestDone);
    page.off('requestfailed', onRequestDone);
    for (const handle of handles) handle.dispose().catch(() => undefined);
  }
  return report;
}
