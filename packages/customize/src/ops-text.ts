import { escapeUTF8 } from 'entities';
import { outermost } from './context.js';
import type { Outcome, PlanContext } from './context.js';
import {
  childElements,
  collapseWhitespace,
  copyTextNodes,
  getAttr,
  headInsertPoint,
  htmlElements,
  innerRange,
  mapTextNode,
  nodeRange,
  setAttrEdit,
  tagOf,
  textOf,
} from './html.js';
import type { Element, HtmlDoc, TextNode } from './html.js';
import type { Edit } from './splice.js';
import type {
  ReplaceTextOp,
  RewriteCopyOp,
  SetDescriptionOp,
  SetTextOp,
  SetTitleOp,
} from './types.js';

/** Human-readable attributes `replaceText` also edits when asked. */
const READABLE_ATTRIBUTES = [
  'alt',
  'title',
  'placeholder',
  'aria-label',
  'aria-description',
  'label',
];
const READABLE_META = new Set([
  'description',
  'og:title',
  'og:description',
  'og:site_name',
  'twitter:title',
  'twitter:description',
  'application-name',
  'apple-mobile-web-app-title',
]);
/** Inline formatting that `setText` may drop when it replaces an element's text. */
const PHRASING = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'br',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'font',
  'i',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'wbr',
]);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function readableAttributes(el: Element): string[] {
  const names = READABLE_ATTRIBUTES.filter((a) => getAttr(el, a) !== undefined);
  const tag = tagOf(el);
  if (tag === 'input' && /^(?:button|submit|reset)$/i.test(getAttr(el, 'type') ?? '')) {
    names.push('value');
  }
  if (tag === 'meta') {
    const key = (getAttr(el, 'name') ?? getAttr(el, 'property') ?? '').toLowerCase();
    if (READABLE_META.has(key)) names.push('content');
  }
  return names;
}

export function applyReplaceText(op: ReplaceTextOp, ctx: PlanContext, out: Outcome): void {
  const body = escapeRegExp(op.find);
  const pattern = new RegExp(
    op.wholeWord ? `(?<![\\p{L}\\p{N}_])${body}(?![\\p{L}\\p{N}_])` : body,
    op.caseSensitive === false ? 'giu' : 'gu',
  );
  const replacement = escapeUTF8(op.replace);
  // Plain words can be looked for in the source before parsing (no reference can spell them).
  const plain = /^[A-Za-z0-9]+(?: [A-Za-z0-9]+)*$/.test(op.find);
  for (const doc of ctx.scope(op.pages)) {
    if (plain && !doc.text.includes('&#')) {
      const found =
        op.caseSensitive === false
          ? ctx.lowerText(doc).includes(op.find.toLowerCase())
          : doc.text.includes(op.find);
      if (!found) continue;
    }
    const page = ctx.page(doc);
    const edits: Edit[] = [];
    let matches = 0;
    for (const node of copyTextNodes(page.document)) {
      const found = [...node.value.matchAll(pattern)];
      if (found.length === 0) continue;
      const map = mapTextNode(page.html, node);
      const spans = found.map((m) => {
        const start = map?.toSource(m.index) ?? null;
        const end = map?.toSource(m.index + m[0].length) ?? null;
        return start === null || end === null ? null : { start, end, text: replacement };
      });
      const range = nodeRange(node);
      const exact = spans.filter((s): s is Edit => s !== null);
      if (exact.length === spans.length) edits.push(...exact);
      else if (range) {
        // The source spells a match with character references: rewrite the whole text node.
        edits.push({ ...range, text: escapeUTF8(node.value.replace(pattern, () => op.replace)) });
      } else continue;
      matches += found.length;
    }
    if (op.includeAttributes) {
      for (const el of page.elements) {
        for (const name of readableAttributes(el)) {
          const value = getAttr(el, name) ?? '';
          const count = [...value.matchAll(pattern)].length;
          if (count === 0) continue;
          const edit = setAttrEdit(
            page.html,
            el,
            name,
            value.replace(pattern, () => op.replace),
          );
          if (edit) {
            edits.push(edit);
            matches += count;
          }
        }
      }
    }
    ctx.commit(doc, edits, matches, out);
  }
}

/** Replaces the text of a text node, keeping the whitespace around it. */
function replaceNodeText(html: string, node: TextNode, text: string): Edit | null {
  const value = node.value;
  const lead = value.length - value.trimStart().length;
  const trailStart = value.trimEnd().length;
  if (value.trim() === text.trim()) return null;
  const map = mapTextNode(html, node);
  const start = map?.toSource(lead) ?? null;
  const end = map?.toSource(Math.max(lead, trailStart)) ?? null;
  if (start !== null && end !== null) return { start, end, text: escapeUTF8(text.trim()) };
  const range = nodeRange(node);
  if (!range) return null;
  const full = value.slice(0, lead) + text.trim() + value.slice(Math.max(lead, trailStart));
  return { ...range, text: escapeUTF8(full) };
}

function isPhrasingOnly(el: Element): boolean {
  return childElements(el).every((c) => PHRASING.has(tagOf(c)) && isPhrasingOnly(c));
}

function setElementText(page: HtmlDoc, el: Element, text: string): Edit | null | undefined {
  const inner = innerRange(el);
  if (!inner) return undefined;
  if (textOf(el) === collapseWhitespace(text)) return null;
  if (isPhrasingOnly(el)) {
    const current = page.html.slice(inner.start, inner.end);
    const lead = /^\s*/.exec(current)?.[0] ?? '';
    const trail = current.trim() ? (/\s*$/.exec(current)?.[0] ?? '') : '';
    return { ...inner, text: lead + escapeUTF8(text.trim()) + trail };
  }
  // Structure inside (blocks, images): only the first text changes, the structure stays.
  const first = copyTextNodes(el).find((t) => t.value.trim() !== '');
  if (first) return replaceNodeText(page.html, first, text);
  return { start: inner.start, end: inner.start, text: escapeUTF8(text.trim()) };
}

export function applySetText(op: SetTextOp, ctx: PlanContext, out: Outcome): void {
  let skipped = 0;
  for (const doc of ctx.scope(op.pages)) {
    const targets = outermost(ctx.targets(doc, op.selector, op.withText));
    if (targets.length === 0) continue;
    const page = ctx.page(doc);
    const edits: Edit[] = [];
    let matches = 0;
    for (const el of targets) {
      const edit = setElementText(page, el, op.text);
      if (edit === undefined) {
        skipped++;
        continue;
      }
      matches++;
      if (edit) edits.push(edit);
    }
    ctx.commit(doc, edits, matches, out);
  }
  if (skipped > 0) out.notes.push(`${skipped} matched element(s) hold no text and were skipped.`);
}

export function applyRewriteCopy(op: RewriteCopyOp, ctx: PlanContext, out: Outcome): void {
  let leftOver = 0;
  for (const doc of ctx.scope(op.pages)) {
    const targets = outermost(ctx.targets(doc, op.selector, op.withText));
    if (targets.length === 0) continue;
    const page = ctx.page(doc);
    const edits: Edit[] = [];
    let matches = 0;
    for (const el of targets) {
      const nodes = copyTextNodes(el).filter((t) => t.value.trim() !== '');
      nodes.slice(0, op.texts.length).forEach((node, k) => {
        const edit = replaceNodeText(page.html, node, op.texts[k] ?? '');
        if (edit) edits.push(edit);
        matches++;
      });
      leftOver = Math.max(leftOver, op.texts.length - nodes.length);
    }
    ctx.commit(doc, edits, matches, out);
  }
  if (leftOver > 0) out.notes.push(`${leftOver} text(s) had no place in the section.`);
}

/** `og:`/`twitter:` copies of the title or description that follow it. */
function metaCopies(page: HtmlDoc, keys: readonly string[]): Element[] {
  return htmlElements(page, 'meta').filter((m) => {
    const key = (getAttr(m, 'property') ?? getAttr(m, 'name') ?? '').toLowerCase();
    return keys.includes(key);
  });
}

function setMetaContents(page: HtmlDoc, metas: readonly Element[], value: string): Edit[] {
  const edits: Edit[] = [];
  for (const meta of metas) {
    if (getAttr(meta, 'content') === value) continue;
    const edit = setAttrEdit(page.html, meta, 'content', value);
    if (edit) edits.push(edit);
  }
  return edits;
}

export function applySetTitle(op: SetTitleOp, ctx: PlanContext, out: Outcome): void {
  for (const doc of ctx.scope(op.pages)) {
    const page = ctx.page(doc);
    const edits: Edit[] = [];
    const title = htmlElements(page, 'title')[0];
    const inner = title && innerRange(title);
    if (title && inner) {
      if (textOf(title) !== collapseWhitespace(op.title)) {
        edits.push({ ...inner, text: escapeUTF8(op.title) });
      }
    } else {
      const at = headInsertPoint(page);
      edits.push({ start: at, end: at, text: `<title>${escapeUTF8(op.title)}</title>` });
    }
    edits.push(...setMetaContents(page, metaCopies(page, ['og:title', 'twitter:title']), op.title));
    ctx.commit(doc, edits, 1, out);
  }
}

export function applySetDescription(op: SetDescriptionOp, ctx: PlanContext, out: Outcome): void {
  for (const doc of ctx.scope(op.pages)) {
    const page = ctx.page(doc);
    const keys = ['description', 'og:description', 'twitter:description'];
    const metas = metaCopies(page, keys);
    const edits = setMetaContents(page, metas, op.description);
    const hasOwn = metas.some((m) => (getAttr(m, 'name') ?? '').toLowerCase() === 'description');
    if (!hasOwn) {
      const at = headInsertPoint(page);
      const tag = `<meta name="description" content="${escapeUTF8(op.description)}">`;
      edits.push({ start: at, end: at, text: tag });
    }
    ctx.commit(doc, edits, 1, out);
  }
}
