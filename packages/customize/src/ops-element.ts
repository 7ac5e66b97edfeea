import { isSafeUrl, URL_ATTRIBUTES } from '@mirror/contract/url-safety';
import { OpError, outermost } from './context.js';
import type { DocState, Outcome, PlanContext } from './context.js';
import {
  childElements,
  getAttr,
  innerRange,
  outerRange,
  parentElement,
  removeAttrEdit,
  setAttrEdit,
  tagOf,
} from './html.js';
import type { Element, HtmlDoc } from './html.js';
import { findLogos, srcMatches, uploadPath } from './images.js';
import { sanitizeSnippet } from './sanitize.js';
import { selectAll } from './selector.js';
import type { Edit } from './splice.js';
import type {
  HideElementOp,
  InsertHtmlOp,
  RemoveElementOp,
  ReplaceImageOp,
  SetAttributeOp,
} from './types.js';

/** Attributes that would put another picture in place of a replaced `src`. */
const IMAGE_ALTERNATIVES = [
  'srcset',
  'sizes',
  'data-src',
  'data-srcset',
  'data-lazy-src',
  'data-lazy-srcset',
  'data-original',
  'data-original-src',
  'data-original-set',
  'data-original-srcset',
  'data-ll-src',
  'data-hi-res-src',
  'data-full-src',
  'data-fallback-src',
];

export function applySetAttribute(op: SetAttributeOp, ctx: PlanContext, out: Outcome): void {
  const lower = op.name.toLowerCase();
  if (lower.startsWith('on') || lower === 'srcdoc') {
    throw new OpError(`The attribute '${op.name}' cannot be set.`);
  }
  if (URL_ATTRIBUTES.includes(lower) && !isSafeUrl(op.value)) {
    throw new OpError(`'${op.value}' is not an address a page may link to.`);
  }
  for (const doc of ctx.scope(op.pages)) {
    const targets = ctx.targets(doc, op.selector, op.withText);
    if (targets.length === 0) continue;
    const page = ctx.page(doc);
    const edits: Edit[] = [];
    for (const el of targets) {
      // HTML lower-cases attribute names; SVG keeps viewBox and friends as written.
      const name = el.namespaceURI === 'http://www.w3.org/1999/xhtml' ? lower : op.name;
      if (getAttr(el, name) === op.value) continue;
      const edit = setAttrEdit(page.html, el, name, op.value);
      if (edit) edits.push(edit);
    }
    ctx.commit(doc, edits, targets.length, out);
  }
}

const HIDDEN = /display\s*:\s*none\s*!\s*important/i;

export function applyHideElement(op: HideElementOp, ctx: PlanContext, out: Outcome): void {
  for (const doc of ctx.scope(op.pages)) {
    const targets = outermost(ctx.targets(doc, op.selector, op.withText));
    if (targets.length === 0) continue;
    const page = ctx.page(doc);
    const edits: Edit[] = [];
    for (const el of targets) {
      const style = getAttr(el, 'style')?.trim() ?? '';
      if (HIDDEN.test(style)) continue;
      const value = style
        ? `${style.replace(/;?$/, ';')}display:none!important`
        : 'display:none!important';
      const edit = setAttrEdit(page.html, el, 'style', value);
      if (edit) edits.push(edit);
    }
    ctx.commit(doc, edits, targets.length, out);
  }
}

export function applyRemoveElement(op: RemoveElementOp, ctx: PlanContext, out: Outcome): void {
  let implied = 0;
  for (const doc of ctx.scope(op.pages)) {
    const edits: Edit[] = [];
    for (const el of outermost(ctx.targets(doc, op.selector, op.withText))) {
      const range = ['html', 'head', 'body'].includes(tagOf(el)) ? undefined : outerRange(el);
      if (range) edits.push({ ...range, text: '' });
      else implied++;
    }
    ctx.commit(doc, edits, edits.length, out);
  }
  if (implied > 0)
    out.notes.push(
      `${implied} matched element(s) cannot be removed (html, head, body or implied).`,
    );
}

function insertPoint(el: Element, position: InsertHtmlOp['position']): number | undefined {
  const outer = outerRange(el);
  if (!outer) return undefined;
  if (position === 'before') return outer.start;
  if (position === 'after') return outer.end;
  const inner = innerRange(el);
  if (!inner) return undefined;
  return position === 'prepend' ? inner.start : inner.end;
}

export function applyInsertHtml(op: InsertHtmlOp, ctx: PlanContext, out: Outcome): void {
  const snippet = sanitizeSnippet(op.html);
  if (!snippet.trim()) throw new OpError('Nothing is left of the HTML once it is made safe.');
  let skipped = 0;
  for (const doc of ctx.scope(op.pages)) {
    const targets = ctx.targets(doc, op.selector, op.withText);
    if (targets.length === 0) continue;
    const page = ctx.page(doc);
    const edits: Edit[] = [];
    let matches = 0;
    for (const el of targets) {
      const at = insertPoint(el, op.position);
      if (at === undefined) {
        skipped++;
        continue;
      }
      matches++;
      // Already there (the plan ran before): inserting again would duplicate it.
      const already =
        op.position === 'before' || op.position === 'append'
          ? page.html.slice(0, at).endsWith(snippet)
          : page.html.startsWith(snippet, at);
      if (!already) edits.push({ start: at, end: at, text: snippet });
    }
    ctx.commit(doc, edits, matches, out);
  }
  if (skipped > 0) {
    out.notes.push(
      `${skipped} matched element(s) cannot hold inserted HTML there (void or implied).`,
    );
  }
}

function firstImage(el: Element): Element | undefined {
  if (tagOf(el) === 'img') return el;
  for (const child of childElements(el)) {
    const img = firstImage(child);
    if (img) return img;
  }
  return undefined;
}

/** Quick check before parsing: the page has images, the selector's words or the file's name. */
function mayHoldImage(op: ReplaceImageOp, ctx: PlanContext, doc: DocState): boolean {
  if (op.selector !== undefined) return ctx.mayMatch(doc, op.selector);
  const lower = ctx.lowerText(doc);
  if (op.currentSrc === undefined) return lower.includes('<img');
  const name = op.currentSrc.split(/[?#]/)[0]?.split('/').pop() ?? '';
  return lower.includes(name.toLowerCase());
}

function imageTargets(op: ReplaceImageOp, page: HtmlDoc, path: string): Element[] {
  if (op.logo) return findLogos(page);
  if (op.selector !== undefined) {
    const imgs = selectAll(page, op.selector).map(firstImage);
    return [...new Set(imgs.filter((i): i is Element => i !== undefined))];
  }
  const current = op.currentSrc ?? '';
  return page.elements.filter(
    (e) => tagOf(e) === 'img' && srcMatches(getAttr(e, 'src'), current, path),
  );
}

function replaceImageEdits(page: HtmlDoc, img: Element, src: string, alt?: string): Edit[] {
  const edits: Edit[] = [];
  const push = (edit: Edit | null) => edit && edits.push(edit);
  if (getAttr(img, 'src') !== src) push(setAttrEdit(page.html, img, 'src', src));
  for (const name of IMAGE_ALTERNATIVES) {
    if (getAttr(img, name) !== undefined) push(removeAttrEdit(page.html, img, name));
  }
  if (alt !== undefined && getAttr(img, 'alt') !== alt)
    push(setAttrEdit(page.html, img, 'alt', alt));
  const picture = parentElement(img);
  if (picture && tagOf(picture) === 'picture') {
    for (const source of childElements(picture)) {
      const range = tagOf(source) === 'source' ? outerRange(source) : undefined;
      if (range) edits.push({ ...range, text: '' });
    }
  }
  return edits;
}

export function applyReplaceImage(op: ReplaceImageOp, ctx: PlanContext, out: Outcome): void {
  if (op.src !== undefined && !isSafeUrl(op.src)) {
    throw new OpError(`'${op.src}' is not an image address.`);
  }
  const src = op.upload ? uploadPath(op.upload.hash, op.upload.contentType) : op.src;
  if (src === undefined) throw new OpError('The new image is missing.');
  for (const doc of ctx.scope(op.pages)) {
    if (!mayHoldImage(op, ctx, doc)) continue;
    const page = ctx.page(doc);
    const targets = imageTargets(op, page, doc.path);
    const edits = targets.flatMap((img) => replaceImageEdits(page, img, src, op.alt));
    ctx.commit(doc, edits, targets.length, out);
  }
  if (op.upload && out.matches > 0) ctx.addUpload(op.upload);
}
