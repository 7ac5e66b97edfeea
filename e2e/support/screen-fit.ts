import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page } from '@playwright/test';

export interface Viewport {
  width: number;
  height: number;
}

/** The two phone widths of issue 20 (a small Android, an iPhone) and a laptop. */
export const PHONES: Viewport[] = [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
];
export const LAPTOP: Viewport = { width: 1280, height: 800 };
export const ALL_VIEWPORTS: Viewport[] = [...PHONES, LAPTOP];

// Screenshots for a reviewer (git-ignored): `SCREENSHOT_LABEL=before` keeps a set to compare with.
const screenshotDir = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'screenshots',
  process.env.SCREENSHOT_LABEL ?? 'after',
);

export interface WidthReport {
  scrollWidth: number;
  innerWidth: number;
  /** The boxes that stick out of the screen while their parent does not, described for a person. */
  offenders: string[];
}

/**
 * The page's width against the screen's, and when it is wider, which elements stick out: the
 * outermost ones whose parent still fits (where the overflow starts), each with the deepest
 * element inside it that sticks out furthest (usually the text or box that forces the width).
 */
export function measureWidth(page: Page): Promise<WidthReport> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const edge = root.clientWidth;
    const outside = (r: DOMRect) => r.right > edge + 0.5 || r.left < -0.5;
    const describe = (el: Element) => {
      const r = el.getBoundingClientRect();
      const id = el.id ? `#${el.id}` : '';
      const classes = Array.from(el.classList)
        .map((c) => `.${c}`)
        .join('');
      const label = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
      return `<${el.tagName.toLowerCase()}${id}${classes}> x ${Math.round(r.left)}..${Math.round(r.right)} "${label}"`;
    };
    /** Inside a box that clips or scrolls and itself fits: it cannot widen the page. */
    const contained = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== 'visible' && !outside(a.getBoundingClientRect()))
          return true;
      }
      return false;
    };
    const sticking = Array.from(document.body.querySelectorAll('*')).filter((el) => {
      const r = el.getBoundingClientRect();
      return (r.width > 0 || r.height > 0) && outside(r) && !contained(el);
    });
    const set = new Set(sticking);
    const offenders = sticking
      .filter((el) => !el.parentElement || !set.has(el.parentElement))
      .slice(0, 6)
      .map((el) => {
        const inner = sticking
          .filter((d) => d !== el && el.contains(d))
          .sort((a, b) => b.getBoundingClientRect().right - a.getBoundingClientRect().right)[0];
        // Does the page fit without it? (A box may stick out without widening the page.)
        const { display } = (el as HTMLElement).style;
        (el as HTMLElement).style.display = 'none';
        const without = root.scrollWidth;
        (el as HTMLElement).style.display = display;
        const text = inner ? `${describe(el)} ← ${describe(inner)}` : describe(el);
        return `${text} (page without it: ${without}px)`;
      });
    return { scrollWidth: root.scrollWidth, innerWidth: window.innerWidth, offenders };
  });
}

/** Fonts loaded and two frames drawn after a resize, so the layout measured is the one shown. */
async function settle(page: Page) {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        void document.fonts.ready.then(() =>
          requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
        );
      }),
  );
}

export interface ScreenCheck {
  viewports?: Viewport[];
  /** A dialog is shot as the screen shows it; a page whole. */
  fullPage?: boolean;
  /** What must be on screen before it is measured (after each resize). */
  ready?: (page: Page, viewport: Viewport) => Promise<void>;
}

/**
 * Issue 20, item 1: at each size the document is no wider than the screen (nothing scrolls
 * sideways); a screenshot of each is kept in `e2e/screenshots/<label>/<screen>-<w>x<h>.png`.
 */
export async function expectScreenFits(
  page: Page,
  screen: string,
  { viewports = ALL_VIEWPORTS, fullPage = true, ready }: ScreenCheck = {},
) {
  for (const viewport of viewports) {
    await page.setViewportSize(viewport);
    await ready?.(page, viewport);
    await settle(page);
    const report = await measureWidth(page);
    expect
      .soft(
        report.scrollWidth,
        `${screen} at ${viewport.width}x${viewport.height} is ${report.scrollWidth}px wide: ${report.offenders.join('; ') || 'no element found'}`,
      )
      .toBeLessThanOrEqual(report.innerWidth);
    // A whole page from its top, or the sticky header is drawn where the page was scrolled to.
    if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({
      path: path.join(screenshotDir, `${screen}-${viewport.width}x${viewport.height}.png`),
      fullPage,
      animations: 'disabled',
    });
  }
}

/**
 * The element is wholly on screen and nothing covers its middle (a dialog's close button, say): a
 * person sees it and can press it without scrolling.
 */
export async function expectOnScreen(page: Page, locator: Locator) {
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  expect(box, 'the element is rendered').not.toBeNull();
  const where = `at ${JSON.stringify(box)} in ${size.width}x${size.height}`;
  expect(box!.x >= 0 && box!.y >= 0, where).toBe(true);
  expect(box!.x + box!.width <= size.width && box!.y + box!.height <= size.height, where).toBe(
    true,
  );
  const cover = await locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    if (!hit || el.contains(hit)) return null;
    const classes = Array.from(hit.classList)
      .map((c) => `.${c}`)
      .join('');
    return `<${hit.tagName.toLowerCase()}${classes}> "${(hit.textContent ?? '').trim().slice(0, 60)}"`;
  });
  expect(cover, `nothing covers it (${where})`).toBeNull();
}
