import { escapeUTF8 } from 'entities';
import { isSafeUrl } from '@mirror/contract/url-safety';
import { colorKey, formatReplacement, parseColor } from './colors.js';
import type { Rgba } from './colors.js';
import { OpError } from './context.js';
import type { Outcome, PlanContext } from './context.js';
import {
  familiesOf,
  GENERIC_FAMILIES,
  quoteFamily,
  scanDeclarations,
  splitFamilies,
} from './css.js';
import type { CssMode } from './css.js';
import {
  getAttr,
  headInsertPoint,
  isText,
  nodeRange,
  outerRange,
  setAttrEdit,
  tagOf,
} from './html.js';
import type { Element, HtmlDoc } from './html.js';
import {
  COLOR_ATTRIBUTES,
  colorsOfDeclaration,
  ICON_FONT,
  MONO_FONT,
  VARIABLE_ROLES,
} from './palette.js';
import { checkSelector } from './selector.js';
import { shiftEdits, spliceEdits } from './splice.js';
import type { Edit } from './splice.js';
import type { ChangeColorOp, ChangeFontOp, ColorRole } from './types.js';

interface Rewrite {
  edits: Edit[];
  count: number;
}

/** A rewrite of CSS text: a stylesheet, a `<style>` block, or a `style` attribute of `element`. */
type CssRewrite = (css: string, mode: CssMode, element?: string) => Rewrite;

/** An extra rewrite of a page element's attributes (colour attributes). */
type AttributeRewrite = (page: HtmlDoc, el: Element) => Rewrite;

/** Applies a CSS rewrite to the stylesheets, `<style>` blocks and `style` attributes in scope. */
function rewriteStyles(
  ctx: PlanContext,
  pages: readonly string[] | undefined,
  rewrite: CssRewrite,
  out: Outcome,
  attributes?: AttributeRewrite,
): void {
  for (const doc of ctx.scope(pages, true)) {
    if (doc.kind === 'css') {
      const r = rewrite(doc.text, 'stylesheet');
      ctx.commit(doc, r.edits, r.count, out);
      continue;
    }
    const page = ctx.page(doc);
    const edits: Edit[] = [];
    let count = 0;
    for (const el of page.elements) {
      if (tagOf(el) === 'style') {
        for (const node of el.childNodes) {
          const range = isText(node) ? nodeRange(node) : undefined;
          if (!range) continue;
          const r = rewrite(page.html.slice(range.start, range.end), 'stylesheet');
          edits.push(...shiftEdits(r.edits, range.start));
          count += r.count;
        }
      }
      const style = getAttr(el, 'style');
      if (style) {
        const r = rewrite(style, 'declarations', tagOf(el));
        count += r.count;
        const edit =
          r.edits.length > 0 &&
          setAttrEdit(page.html, el, 'style', spliceEdits(style, r.edits).text);
        if (edit) edits.push(edit);
      }
      if (attributes) {
        const r = attributes(page, el);
        edits.push(...r.edits);
        count += r.count;
      }
    }
    ctx.commit(doc, edits, count, out);
  }
}

/** Adds (or updates) an element of ours in `<head>`, marked `data-mirror-edit="key"`. */
function injectEdit(page: HtmlDoc, key: string, markup: string): Edit | null {
  const existing = page.elements.find((e) => getAttr(e, 'data-mirror-edit') === key);
  const range = existing && outerRange(existing);
  if (range) {
    return page.html.slice(range.start, range.end) === markup ? null : { ...range, text: markup };
  }
  const at = headInsertPoint(page);
  return { start: at, end: at, text: markup };
}

/** Adds our elements to the head of every page in scope (each page counts as one match). */
function injectIntoPages(
  ctx: PlanContext,
  pages: readonly string[] | undefined,
  items: { key: string; markup: string }[],
  out: Outcome,
): void {
  for (const doc of ctx.scope(pages)) {
    const page = ctx.page(doc);
    const edits = items
      .map((item) => injectEdit(page, item.key, item.markup))
      .filter((e): e is Edit => e !== null);
    ctx.commit(doc, edits, 1, out);
  }
}

function styleMarkup(key: string, css: string): string {
  return `<style data-mirror-edit="${escapeUTF8(key)}">${css}</style>`;
}

/** Which properties a colour change touches: a role's own, or every one (`all`). */
type PropertyFilter = (property: string) => boolean;

const ANY_PROPERTY: PropertyFilter = () => true;

function roleVariable(role: ColorRole): RegExp {
  return VARIABLE_ROLES.find(([r]) => r === role)?.[1] ?? /^$/;
}

/**
 * Background and text colours change only where they are the background or the text colour:
 * white text on a dark hero stays white when the page background turns dark.
 */
function propertiesOf(role: ColorRole | undefined): PropertyFilter {
  if (role === 'background') {
    return (p) => /^background(?:-color)?$/.test(p) || roleVariable('background').test(p);
  }
  if (role === 'text') return (p) => p === 'color' || roleVariable('text').test(p);
  return ANY_PROPERTY;
}

function attributesOf(role: ColorRole | undefined): string[] {
  if (role === 'background') return ['bgcolor'];
  if (role === 'text') return ['color'];
  return [...COLOR_ATTRIBUTES, 'theme-color'];
}

function recolor(
  match: (c: Rgba) => boolean,
  to: string,
  toColor: Rgba,
  properties: PropertyFilter,
): CssRewrite {
  return (css, mode) => {
    const edits: Edit[] = [];
    let count = 0;
    for (const decl of scanDeclarations(css, mode)) {
      if (!properties(decl.property)) continue;
      for (const token of colorsOfDeclaration(decl.property, decl.value)) {
        if (!match(token.color)) continue;
        count++;
        const text = formatReplacement(to, toColor, token.color.a);
        const start = decl.start + token.start;
        const end = decl.start + token.end;
        if (css.slice(start, end) !== text) edits.push({ start, end, text });
      }
    }
    return { edits, count };
  };
}

function recolorAttributes(
  match: (c: Rgba) => boolean,
  to: string,
  toColor: Rgba,
  attributes: readonly string[],
): AttributeRewrite {
  return (page, el) => {
    const edits: Edit[] = [];
    let count = 0;
    const names = attributes.filter((a) => a !== 'theme-color');
    const isThemeColor =
      tagOf(el) === 'meta' && (getAttr(el, 'name') ?? '').toLowerCase() === 'theme-color';
    if (isThemeColor && attributes.includes('theme-color')) names.push('content');
    for (const name of names) {
      const value = getAttr(el, name);
      const color = value === undefined ? undefined : parseColor(value);
      if (!color || !match(color)) continue;
      count++;
      const text = formatReplacement(to, toColor, color.a);
      const edit = value === text ? null : setAttrEdit(page.html, el, name, text);
      if (edit) edits.push(edit);
    }
    return { edits, count };
  };
}

function setVariable(name: string, to: string): CssRewrite {
  return (css, mode) => {
    const edits: Edit[] = [];
    let count = 0;
    for (const decl of scanDeclarations(css, mode)) {
      if (decl.property !== name) continue;
      count++;
      const lead = decl.value.length - decl.value.trimStart().length;
      const start = decl.start + lead;
      const end = decl.start + decl.value.trimEnd().length;
      if (css.slice(start, end) !== to) edits.push({ start, end, text: to });
    }
    return { edits, count };
  };
}

export function applyChangeColor(op: ChangeColorOp, ctx: PlanContext, out: Outcome): void {
  const to = op.to.trim();
  const toColor = parseColor(to);
  if (!toColor) throw new OpError(`'${op.to}' is not a colour.`);
  if (op.variable !== undefined) {
    rewriteStyles(ctx, op.pages, setVariable(op.variable, to), out);
    return;
  }
  let match: (c: Rgba) => boolean;
  if (op.from !== undefined) {
    const from = parseColor(op.from);
    if (!from) throw new OpError(`'${op.from}' is not a colour.`);
    const key = colorKey(from);
    match = (c) => colorKey(c) === key && (from.a >= 1 || Math.abs(c.a - from.a) < 0.01);
  } else {
    const role = op.role ?? 'primary';
    const key = ctx.analyze().roles[role];
    if (!key) {
      if (role === 'primary' || role === 'accent') {
        out.notes.push(`No ${role} colour was found in the site's styles.`);
        return;
      }
      // Nothing sets it: the browser default shows, so a rule of ours sets it instead.
      const property = role === 'background' ? 'background-color' : 'color';
      const key = `color-${role}`;
      injectIntoPages(
        ctx,
        op.pages,
        [{ key, markup: styleMarkup(key, `body{${property}:${to}}`) }],
        out,
      );
      out.notes.push(`The site sets no ${role} colour; a rule setting it was added to each page.`);
      return;
    }
    out.detail = key;
    match = (c) => colorKey(c) === key;
  }
  rewriteStyles(
    ctx,
    op.pages,
    recolor(match, to, toColor, propertiesOf(op.role)),
    out,
    recolorAttributes(match, to, toColor, attributesOf(op.role)),
  );
}

const HEADING_SELECTOR = /(?:^|[\s>+~,(])h[1-6](?=$|[\s>+~,:.[)])|heading|headline|title|display/i;
const FONT_VARIABLE =
  /^--[\w-]*font(?!-(?:size|weight|style|feature|variation|display|smoothing))/i;
const SERIF_FAMILY =
  /(?<!sans[\s-]?)serif|georgia|times|garamond|playfair|merriweather|lora|baskerville|didot|bodoni|cambria|caslon/i;

function fallbackFor(family: string): string {
  if (GENERIC_FAMILIES.has(family.toLowerCase())) return '';
  return SERIF_FAMILY.test(family) && !/sans/i.test(family) ? ', serif' : ', sans-serif';
}

function refont(family: string, role: ChangeFontOp['role']): CssRewrite {
  return (css, mode, element) => {
    // Single quotes inside `style="…"` read better than &quot;.
    const quoted = quoteFamily(family, mode === 'declarations' ? "'" : '"');
    const edits: Edit[] = [];
    let count = 0;
    for (const decl of scanDeclarations(css, mode)) {
      if (decl.atrule === 'font-face') continue;
      const variable = decl.property.startsWith('--');
      if (
        variable &&
        !(FONT_VARIABLE.test(decl.property) && /["',]|serif|system-ui/.test(decl.value))
      ) {
        continue;
      }
      const { offset, list } = familiesOf(variable ? 'font-family' : decl.property, decl.value);
      const families = splitFamilies(list);
      const first = families[0];
      if (!first || /^(?:inherit|initial|unset|revert|var\()/i.test(first.name)) continue;
      const names = families.map((f) => f.name.toLowerCase());
      if (
        names.some((n) => ICON_FONT.test(n)) ||
        names.includes('monospace') ||
        MONO_FONT.test(first.name)
      ) {
        continue;
      }
      if (variable && /mono|code|icon/i.test(decl.property)) continue;
      const heading = variable
        ? /heading|display|title/i.test(decl.property)
        : element !== undefined
          ? /^h[1-6]$/.test(element)
          : HEADING_SELECTOR.test(decl.selector);
      if ((role === 'headings' && !heading) || (role === 'body' && heading)) continue;
      count++;
      if (first.name.toLowerCase() === family.toLowerCase()) continue;
      const start = decl.start + offset + first.start;
      if (GENERIC_FAMILIES.has(first.name.toLowerCase())) {
        edits.push({ start, end: start, text: `${quoted}, ` });
      } else {
        edits.push({ start, end: decl.start + offset + first.end, text: quoted });
      }
    }
    return { edits, count };
  };
}

export function applyChangeFont(op: ChangeFontOp, ctx: PlanContext, out: Outcome): void {
  const family = op.family.trim().replace(/^["']|["']$/g, '');
  if (!family || /["';{}<>\\]/.test(family)) {
    throw new OpError(`'${op.family}' is not a font name.`);
  }
  if (op.stylesheetUrl !== undefined && !isSafeUrl(op.stylesheetUrl)) {
    throw new OpError(`'${op.stylesheetUrl}' is not a stylesheet address.`);
  }
  const stack = `${quoteFamily(family)}${fallbackFor(family)}`;
  const role = op.role ?? 'all';
  const items: { key: string; markup: string }[] = [];
  if (op.stylesheetUrl !== undefined) {
    items.push({
      key: 'font-stylesheet',
      markup: `<link rel="stylesheet" href="${escapeUTF8(op.stylesheetUrl)}" data-mirror-edit="font-stylesheet">`,
    });
  }
  if (op.selector !== undefined) {
    checkSelector(op.selector);
    if (/[{}<]/.test(op.selector)) throw new OpError(`'${op.selector}' cannot be used here.`);
    const key = `font ${op.selector}`;
    items.push({
      key,
      markup: styleMarkup(key, `${op.selector}{font-family:${stack} !important}`),
    });
    injectIntoPages(ctx, op.pages, items, out);
    return;
  }
  rewriteStyles(ctx, op.pages, refont(family, role), out);
  // Pages that set no font of their own show the browser default: a base rule of ours covers them.
  const rule =
    role === 'headings' ? `h1,h2,h3,h4,h5,h6{font-family:${stack}}` : `body{font-family:${stack}}`;
  const key = `font-${role}`;
  items.push({ key, markup: styleMarkup(key, rule) });
  injectIntoPages(ctx, op.pages, items, out);
}
