import { escapeUTF8 } from 'entities';
import { parse, parseFragment } from 'parse5';
import type { DefaultTreeAdapterTypes } from 'parse5';
import type { Edit } from './splice.js';

export type Node = DefaultTreeAdapterTypes.Node;
export type ParentNode = DefaultTreeAdapterTypes.ParentNode;
export type Element = DefaultTreeAdapterTypes.Element;
export type TextNode = DefaultTreeAdapterTypes.TextNode;
export type Document = DefaultTreeAdapterTypes.Document;

/** A page parsed with source locations: every edit is a splice at these offsets. */
export interface HtmlDoc {
  html: string;
  document: Document;
  /** Every element in document order (template contents are not part of the page). */
  elements: Element[];
}

export const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

/** Elements whose text is not page copy (code, raw text, things not rendered). */
const NOT_COPY = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'iframe',
  'noembed',
  'noframes',
  'xmp',
  'plaintext',
]);

export function parseHtml(html: string): HtmlDoc {
  const document = parse(html, { sourceCodeLocationInfo: true });
  const elements: Element[] = [];
  const stack: Node[] = [...document.childNodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (!isElement(node)) continue;
    elements.push(node);
    for (let k = node.childNodes.length - 1; k >= 0; k--) stack.push(node.childNodes[k] as Node);
  }
  return { html, document, elements };
}

export function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

export function isText(node: Node): node is TextNode {
  return node.nodeName === '#text';
}

export function tagOf(el: Element): string {
  return el.tagName.toLowerCase();
}

export function getAttr(el: Element, name: string): string | undefined {
  for (const a of el.attrs) if (a.name === name && !a.prefix) return a.value;
  return undefined;
}

export function parentElement(el: Node): Element | undefined {
  const parent = 'parentNode' in el ? el.parentNode : null;
  return parent && isElement(parent) ? parent : undefined;
}

export function childElements(el: ParentNode): Element[] {
  return el.childNodes.filter(isElement);
}

export function collapseWhitespace(text: string): string {
  return text.replace(/[\s\u00a0]+/g, ' ').trim();
}

/** Whether the node sits inside an element whose text is not page copy. */
export function isInNonCopy(node: Node): boolean {
  for (let p = parentElement(node); p; p = parentElement(p))
    if (NOT_COPY.has(tagOf(p))) return true;
  return false;
}

/** Text nodes below `root` that are page copy, in document order (also `<title>`). */
export function copyTextNodes(root: ParentNode): TextNode[] {
  const out: TextNode[] = [];
  const stack: Node[] = [...root.childNodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    if (isText(node)) out.push(node);
    else if (isElement(node) && !NOT_COPY.has(tagOf(node))) {
      for (let k = node.childNodes.length - 1; k >= 0; k--) stack.push(node.childNodes[k] as Node);
    }
  }
  return out;
}

/** The text an element shows, whitespace collapsed. */
export function textOf(el: Element): string {
  return collapseWhitespace(
    copyTextNodes(el)
      .map((t) => t.value)
      .join(''),
  );
}

export interface Range {
  start: number;
  end: number;
}

/** The element from its start tag to its end tag (or its last content when the end is implied). */
export function outerRange(el: Element): Range | undefined {
  const loc = el.sourceCodeLocation;
  if (!loc?.startTag) return undefined;
  return { start: loc.startOffset, end: Math.max(loc.endOffset, loc.startTag.endOffset) };
}

/** Between the start tag and the end tag; undefined for void elements and implied tags. */
export function innerRange(el: Element): Range | undefined {
  const loc = el.sourceCodeLocation;
  if (!loc?.startTag || VOID_ELEMENTS.has(tagOf(el))) return undefined;
  const start = loc.startTag.endOffset;
  return { start, end: Math.max(start, loc.endTag ? loc.endTag.startOffset : loc.endOffset) };
}

export function nodeRange(node: TextNode): Range | undefined {
  const loc = node.sourceCodeLocation;
  return loc ? { start: loc.startOffset, end: loc.endOffset } : undefined;
}

/** A stretch of the source as parsed, with a map back to source offsets. */
export interface TextMap {
  value: string;
  /** Source offset of a parsed offset; null inside a character reference. */
  toSource(offset: number): number | null;
}

interface Atom {
  dec: number;
  decEnd: number;
  src: number;
  srcEnd: number;
}

const REFERENCE = /&(?:#[xX][0-9a-fA-F]+;?|#[0-9]+;?|[A-Za-z][A-Za-z0-9]*;?)/y;
const referenceCache = new Map<string, string>();

/** Decodes one character reference the way parse5 does in text or in an attribute value. */
function decodeReference(ref: string, inAttribute: boolean): string {
  const key = `${inAttribute ? 'a' : 't'}${ref}`;
  let decoded = referenceCache.get(key);
  if (decoded === undefined) {
    if (inAttribute) {
      const el = parseFragment(`<i title="${ref}">`).childNodes[0];
      decoded = el && isElement(el) ? (getAttr(el, 'title') ?? ref) : ref;
    } else {
      const text = parseFragment(ref).childNodes[0];
      decoded = text && isText(text) ? text.value : ref;
    }
    if (referenceCache.size > 5_000) referenceCache.clear();
    referenceCache.set(key, decoded);
  }
  return decoded;
}

/**
 * Decodes `html[start, end)` as text (character references, CR/CRLF as LF) keeping a map to the
 * source, so an edit of the parsed text becomes a splice of the source. `references: false` for raw
 * text (style, script).
 */
export function mapSource(
  html: string,
  start: number,
  end: number,
  references: 'text' | 'attribute' | false,
): TextMap {
  let value = '';
  const atoms: Atom[] = [];
  let i = start;
  let plainStart = start;
  const push = (srcEnd: number, decoded: string) => {
    value += html.slice(plainStart, i);
    atoms.push({ dec: value.length, decEnd: value.length + decoded.length, src: i, srcEnd });
    value += decoded;
    i = srcEnd;
    plainStart = i;
  };
  while (i < end) {
    const c = html.charCodeAt(i);
    if (c === 13) {
      push(i + 1 < end && html.charCodeAt(i + 1) === 10 ? i + 2 : i + 1, '\n');
      continue;
    }
    if (c === 38 && references !== false) {
      REFERENCE.lastIndex = i;
      const m = REFERENCE.exec(html);
      if (m && i + m[0].length <= end) {
        const decoded = decodeReference(m[0], references === 'attribute');
        if (decoded !== m[0]) {
          push(i + m[0].length, decoded);
          continue;
        }
      }
    }
    i++;
  }
  value += html.slice(plainStart, end);
  return {
    value,
    toSource(offset) {
      let delta = start;
      for (const a of atoms) {
        if (offset < a.dec) break;
        if (offset === a.dec) return a.src;
        if (offset < a.decEnd) return null;
        delta = a.srcEnd - a.decEnd;
      }
      return offset + delta;
    },
  };
}

/** The map of a text node, or undefined when the source does not decode to its value. */
export function mapTextNode(html: string, node: TextNode): TextMap | undefined {
  const range = nodeRange(node);
  if (!range) return undefined;
  const parent = parentElement(node);
  const raw = parent !== undefined && NOT_COPY.has(tagOf(parent));
  const map = mapSource(html, range.start, range.end, raw ? false : 'text');
  return map.value === node.value ? map : undefined;
}

/** Where an attribute sits in the source: the whole `name=value` and its value. */
export interface AttrSpan extends Range {
  /** The value including its quotes; empty at `end` when the attribute has no value. */
  valueStart: number;
  valueEnd: number;
  quote: '"' | "'" | '';
}

export function attrSpan(html: string, el: Element, name: string): AttrSpan | undefined {
  // Locations are keyed as the tokenizer saw the name (lower case), SVG attributes as adjusted.
  const locs = el.sourceCodeLocation?.attrs;
  const loc = locs?.[name] ?? locs?.[name.toLowerCase()];
  if (!loc) return undefined;
  const raw = html.slice(loc.startOffset, loc.endOffset);
  const m = /^[^\s=]+\s*=\s*/.exec(raw);
  if (!m) {
    return { ...range(loc), valueStart: loc.endOffset, valueEnd: loc.endOffset, quote: '' };
  }
  const valueStart = loc.startOffset + m[0].length;
  const first = html[valueStart];
  const quote = first === '"' || first === "'" ? first : '';
  return { ...range(loc), valueStart, valueEnd: loc.endOffset, quote };
}

function range(loc: { startOffset: number; endOffset: number }): Range {
  return { start: loc.startOffset, end: loc.endOffset };
}

/** Where a new attribute goes: before `>` (or `/>`) of the start tag. */
function attrInsertPoint(html: string, el: Element): number | undefined {
  const tag = el.sourceCodeLocation?.startTag;
  if (!tag) return undefined;
  let p = tag.endOffset - 1;
  if (html[p] !== '>') return undefined;
  const attrs = el.sourceCodeLocation?.attrs ?? {};
  const lastAttrEnd = Math.max(0, ...Object.values(attrs).map((a) => a.endOffset));
  if (html[p - 1] === '/' && lastAttrEnd <= p - 1) p--;
  return p;
}

/** Sets an attribute: its value is rewritten in place, or the attribute is added to the tag. */
export function setAttrEdit(html: string, el: Element, name: string, value: string): Edit | null {
  const span = attrSpan(html, el, name);
  if (span) {
    if (span.valueStart === span.valueEnd) {
      return { start: span.end, end: span.end, text: `="${escapeUTF8(value)}"` };
    }
    const quote = span.quote || '"';
    return {
      start: span.valueStart,
      end: span.valueEnd,
      text: `${quote}${escapeUTF8(value)}${quote}`,
    };
  }
  const at = attrInsertPoint(html, el);
  return at === undefined ? null : { start: at, end: at, text: ` ${name}="${escapeUTF8(value)}"` };
}

/** Removes an attribute and the whitespace before it. */
export function removeAttrEdit(html: string, el: Element, name: string): Edit | null {
  const span = attrSpan(html, el, name);
  if (!span) return null;
  let start = span.start;
  while (start > 0 && /\s/.test(html[start - 1] ?? '')) start--;
  return { start, end: span.end, text: '' };
}

/** Where elements added to `<head>` go: after `<head>` (and a leading `<meta charset>`). */
export function headInsertPoint(doc: HtmlDoc): number {
  const head = doc.elements.find((e) => tagOf(e) === 'head');
  const loc = head?.sourceCodeLocation;
  if (head && loc?.startTag) {
    const first = childElements(head)[0];
    const firstEnd = first?.sourceCodeLocation?.endOffset;
    if (first && tagOf(first) === 'meta' && getAttr(first, 'charset') !== undefined && firstEnd) {
      return firstEnd;
    }
    return loc.startTag.endOffset;
  }
  const firstInHead = head?.childNodes.find((n) => n.sourceCodeLocation)?.sourceCodeLocation;
  if (firstInHead) return firstInHead.startOffset;
  const html = doc.elements.find((e) => tagOf(e) === 'html')?.sourceCodeLocation?.startTag;
  if (html) return html.endOffset;
  const doctype = doc.document.childNodes.find((n) => n.nodeName === '#documentType');
  return doctype?.sourceCodeLocation?.endOffset ?? 0;
}

/** The HTML elements of a tag (not same-named ones inside inline SVG), in document order. */
export function htmlElements(doc: HtmlDoc, tag: string): Element[] {
  return doc.elements.filter(
    (e) => tagOf(e) === tag && e.namespaceURI === 'http://www.w3.org/1999/xhtml',
  );
}
