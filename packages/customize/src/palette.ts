import { colorKey, findColors, isSaturated, parseColor } from './colors.js';
import type { Rgba } from './colors.js';
import { familiesOf, GENERIC_FAMILIES, scanDeclarations, splitFamilies } from './css.js';
import type { CssDeclaration, CssMode } from './css.js';
import { getAttr, isText, nodeRange, tagOf } from './html.js';
import type { HtmlDoc } from './html.js';
import type { ColorRole } from './types.js';

/** CSS of a site: a stylesheet, a `<style>` block or a `style` attribute (with its element). */
export interface StyleSource {
  css: string;
  mode: CssMode;
  /** Tag of the element a `style` attribute belongs to. */
  element?: string;
}

export interface PaletteEntry {
  /** `#rrggbb` */
  color: string;
  count: number;
  roles?: ColorRole[];
}

export interface StyleAnalysis {
  palette: PaletteEntry[];
  roles: Partial<Record<ColorRole, string>>;
  fonts: { family: string; count: number }[];
}

/** Properties where a bare word can be a colour name (`font-family: Red Hat` is not red). */
const COLOR_PROPERTIES =
  /^(?:color|background(?:-color|-image)?|border(?:-(?:top|right|bottom|left|block|inline)(?:-(?:start|end))?)?(?:-color)?|outline(?:-color)?|fill|stroke|stop-color|flood-color|lighting-color|caret-color|accent-color|text-decoration(?:-color)?|text-emphasis(?:-color)?|column-rule(?:-color)?|box-shadow|text-shadow|scrollbar-color|-webkit-text-fill-color|-webkit-text-stroke(?:-color)?|-webkit-tap-highlight-color)$/;
/** Properties where a `#hash` cannot be a colour. */
const NOT_COLOR_PROPERTIES = /^(?:font|font-family|content|quotes|grid-area|grid-template-areas)$/;

/** The colours a declaration holds (custom properties: only a value that is one colour). */
export function colorsOfDeclaration(property: string, value: string) {
  if (NOT_COLOR_PROPERTIES.test(property)) return [];
  if (property.startsWith('--')) {
    // A bare word is a colour only as the whole value (`--brand: red`, not `--font: Red Hat`).
    return findColors(value, true).filter(
      (c) => c.kind !== 'name' || value.trim() === value.slice(c.start, c.end),
    );
  }
  return findColors(value, COLOR_PROPERTIES.test(property));
}

/** Colour attributes of SVG and legacy HTML, matched like CSS colours. */
export const COLOR_ATTRIBUTES = ['fill', 'stroke', 'stop-color', 'flood-color', 'bgcolor', 'color'];

/** `<style>` blocks, `style` attributes and colour attributes of a page. */
export function styleSourcesOfPage(doc: HtmlDoc): StyleSource[] {
  const out: StyleSource[] = [];
  for (const el of doc.elements) {
    const tag = tagOf(el);
    if (tag === 'style') {
      const text = el.childNodes[0];
      const range = text && isText(text) ? nodeRange(text) : undefined;
      if (range) out.push({ css: doc.html.slice(range.start, range.end), mode: 'stylesheet' });
    }
    const style = getAttr(el, 'style');
    if (style) out.push({ css: style, mode: 'declarations', element: tag });
    const bg = getAttr(el, 'bgcolor');
    if (bg) out.push({ css: `background-color:${bg}`, mode: 'declarations', element: tag });
    for (const name of ['fill', 'stroke']) {
      const value = getAttr(el, name);
      if (value) out.push({ css: `${name}:${value}`, mode: 'declarations', element: tag });
    }
  }
  return out;
}

const ROOT_SELECTOR = /^(?:html|body|:root)$/i;
const INTERACTIVE =
  /(?:^|[\s>+~,(])(?:a|button|h[1-6])(?=$|[\s>+~,:.[)])|btn|button|primary|cta|link|brand/i;
export const VARIABLE_ROLES: [ColorRole, RegExp][] = [
  ['primary', /^--(?:[\w-]*-)?(?:primary|brand|main)(?:-colou?r)?$/i],
  ['accent', /^--(?:[\w-]*-)?(?:accent|secondary|highlight)(?:-colou?r)?$/i],
  ['background', /^--(?:[\w-]*-)?(?:bg|background)(?:-colou?r)?$/i],
  ['text', /^--(?:[\w-]*-)?(?:text|foreground|fg|body)(?:-colou?r)?$/i],
];

function targetsRoot(decl: CssDeclaration, element: string | undefined): boolean {
  if (element !== undefined) return element === 'html' || element === 'body';
  return decl.selector.split(',').some((part) => {
    const last =
      part
        .trim()
        .split(/[\s>+~]+/)
        .pop() ?? '';
    return ROOT_SELECTOR.test(last);
  });
}

export const ICON_FONT =
  /icon|awesome|glyph|material|symbols|dashicons|ionicons|feather|fontello|icomoon|eicons|themify/i;
export const MONO_FONT = /mono|courier|consolas|menlo|monaco|code/i;

function addTo(map: Map<string, number>, key: string, n: number) {
  map.set(key, (map.get(key) ?? 0) + n);
}

function best(map: Map<string, number>, except?: string): string | undefined {
  let top: string | undefined;
  let topScore = 0;
  for (const [key, score] of map) {
    if (key !== except && score > topScore) {
      top = key;
      topScore = score;
    }
  }
  return top;
}

/**
 * The palette of a site with guessed roles: primary = the most used saturated colour, weighted
 * toward links, buttons and headings (or a `--primary`/`--brand` variable); accent = the next one
 * (or `--accent`/`--secondary`); background and text = what html/body/:root declare (or
 * `--background`/`--text` variables, else the most used text colour). Fonts by first family.
 */
export function analyzeStyles(sources: readonly StyleSource[], maxColors = 12): StyleAnalysis {
  const counts = new Map<string, number>();
  const saturated = new Map<string, number>();
  const textColors = new Map<string, number>();
  const fonts = new Map<string, number>();
  const fontNames = new Map<string, string>();
  const fromVariables: Partial<Record<ColorRole, string>> = {};
  let background: string | undefined;
  let text: string | undefined;
  for (const source of sources) {
    for (const decl of scanDeclarations(source.css, source.mode)) {
      if (decl.atrule === 'font-face') continue;
      const families = familiesOf(decl.property, decl.value);
      const first = splitFamilies(families.list)[0];
      if (first && !GENERIC_FAMILIES.has(first.name.toLowerCase())) {
        const key = first.name.toLowerCase();
        addTo(fonts, key, 1);
        if (!fontNames.has(key)) fontNames.set(key, first.name);
      }
      const colors = colorsOfDeclaration(decl.property, decl.value)
        .map((c) => c.color)
        .filter((c: Rgba) => c.a > 0);
      if (colors.length === 0) continue;
      const root = targetsRoot(decl, source.element);
      const interactive =
        source.element !== undefined
          ? /^(?:a|button|h[1-6])$/.test(source.element)
          : INTERACTIVE.test(decl.selector);
      for (const c of colors) {
        const key = colorKey(c);
        addTo(counts, key, 1);
        if (isSaturated(c)) addTo(saturated, key, interactive ? 4 : 1);
        if (decl.property === 'color') addTo(textColors, key, 1);
      }
      const key = colorKey(colors[0] as Rgba);
      if (decl.property.startsWith('--')) {
        for (const [role, pattern] of VARIABLE_ROLES) {
          if (pattern.test(decl.property) && !fromVariables[role]) fromVariables[role] = key;
        }
      } else if (root && /^background(?:-color)?$/.test(decl.property)) background = key;
      else if (root && decl.property === 'color') text = key;
    }
  }
  const roles: Partial<Record<ColorRole, string>> = {};
  const primary = fromVariables.primary ?? best(saturated);
  if (primary) roles.primary = primary;
  const accent = fromVariables.accent ?? best(saturated, primary);
  if (accent && accent !== primary) roles.accent = accent;
  const bg = background ?? fromVariables.background;
  if (bg) roles.background = bg;
  const fg = text ?? fromVariables.text ?? best(textColors);
  if (fg) roles.text = fg;
  const palette = [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, maxColors)
    .map(([color, count]) => {
      const entry: PaletteEntry = { color, count };
      const its = (Object.keys(roles) as ColorRole[]).filter((r) => roles[r] === color);
      if (its.length > 0) entry.roles = its;
      return entry;
    });
  for (const role of Object.keys(roles) as ColorRole[]) {
    const color = roles[role] as string;
    if (!palette.some((p) => p.color === color)) {
      palette.push({ color, count: counts.get(color) ?? 0, roles: [role] });
    }
  }
  const fontList = [...fonts]
    .sort((a, b) => b[1] - a[1])
    .map(([key, count]) => ({ family: fontNames.get(key) ?? key, count }));
  return { palette, roles, fonts: fontList };
}

/** Normalizes a user-given colour to `#rrggbb`, or undefined when it is not a colour. */
export function colorKeyOf(text: string): string | undefined {
  const c = parseColor(text);
  return c ? colorKey(c) : undefined;
}
