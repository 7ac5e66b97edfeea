import { compile } from 'css-select';
import type { Options } from 'css-select';
import { parse } from 'css-what';
import type { Selector } from 'css-what';
import { isElement, tagOf } from './html.js';
import type { Element, HtmlDoc, Node } from './html.js';

/**
 * CSS selectors over the parse5 tree, matched by css-select (decision 012). Ops may use type,
 * universal, #id, .class, attribute selectors (`= ~= |= ^= $= *=`, optional ` i`), the four
 * combinators, lists, the structural pseudo-classes and :not(), :is(), :where(), :has(), :root,
 * :empty. Anything else (`:hover`, `::before`, namespaces) is refused with a SelectorError: a
 * state or pseudo-element means nothing in a static copy.
 */

export class SelectorError extends Error {
  override name = 'SelectorError';
}

const PSEUDO_CLASSES = new Set([
  'first-child',
  'last-child',
  'only-child',
  'first-of-type',
  'last-of-type',
  'only-of-type',
  'nth-child',
  'nth-last-child',
  'nth-of-type',
  'nth-last-of-type',
  'not',
  'is',
  'where',
  'has',
  'root',
  'empty',
]);

const COMBINATORS = new Set(['descendant', 'child', 'adjacent', 'sibling']);

function siblingsOf(node: Node): Node[] {
  const parent = 'parentNode' in node ? node.parentNode : null;
  return parent ? parent.childNodes : [node];
}

function attrValue(el: Element, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const a of el.attrs) {
    const full = a.prefix ? `${a.prefix}:${a.name}` : a.name;
    if (full.toLowerCase() === wanted || a.name.toLowerCase() === wanted) return a.value;
  }
  return undefined;
}

function textContent(node: Node): string {
  if (node.nodeName === '#text' && 'value' in node) return node.value;
  return 'childNodes' in node ? node.childNodes.map(textContent).join('') : '';
}

function hasAncestorIn(node: Node, nodes: Node[]): boolean {
  let parent = 'parentNode' in node ? node.parentNode : null;
  while (parent) {
    if (nodes.includes(parent)) return true;
    parent = 'parentNode' in parent ? parent.parentNode : null;
  }
  return false;
}

/** css-select's view of the parse5 tree: tag names lower-cased, `xlink:href` found as `href`. */
const adapter: NonNullable<Options<Node, Element>['adapter']> = {
  isTag: isElement,
  getName: tagOf,
  getAttributeValue: attrValue,
  hasAttrib: (el, name) => attrValue(el, name) !== undefined,
  getChildren: (node) => ('childNodes' in node ? node.childNodes : []),
  getParent: (el) => el.parentNode,
  getSiblings: siblingsOf,
  getText: textContent,
  removeSubsets: (nodes) =>
    nodes.filter((node, i) => nodes.indexOf(node) === i && !hasAncestorIn(node, nodes)),
};

interface Parsed {
  tokens: Selector[][];
  matches: (el: Element) => boolean;
}

const cache = new Map<string, Parsed>();

function fail(text: string, near?: string): never {
  if (text.trim() === '') throw new SelectorError(`Incomplete selector '${text}'`);
  throw new SelectorError(
    near === undefined
      ? `Unsupported selector '${text}'`
      : `Unsupported selector near '${near}' in '${text}'`,
  );
}

/** Refuses what an op cannot mean (states, pseudo-elements, namespaces), naming where it is. */
function check(text: string, tokens: Selector[][], relative = false): void {
  if (tokens.length === 0) fail(text);
  for (const complex of tokens) {
    if (complex.length === 0) fail(text);
    const first = complex[0];
    const last = complex[complex.length - 1];
    if (!first || !last || COMBINATORS.has(last.type)) fail(text);
    // Only :has() takes a relative selector (`:has(> img)`).
    if (COMBINATORS.has(first.type) && !relative) fail(text);
    for (const token of complex) {
      if (token.type === 'pseudo-element') {
        const at = text.toLowerCase().indexOf(`::${token.name}`);
        fail(text, at < 0 ? undefined : text.slice(at + 1, at + 21));
      }
      if (token.type === 'pseudo') {
        if (!PSEUDO_CLASSES.has(token.name)) {
          const at = text.toLowerCase().indexOf(`:${token.name}`);
          fail(text, at < 0 ? undefined : text.slice(at + 1, at + 21));
        }
        if (Array.isArray(token.data)) check(text, token.data, token.name === 'has');
      } else if ('namespace' in token && token.namespace !== null) fail(text);
      else if (token.type === 'parent' || token.type === 'column-combinator') fail(text);
    }
  }
}

function parseSelector(text: string): Parsed {
  const cached = cache.get(text);
  if (cached) return cached;
  let parsed: Parsed;
  try {
    const tokens = parse(text);
    check(text, tokens);
    parsed = { tokens, matches: compile<Node, Element>(tokens, { adapter }) };
  } catch (e) {
    if (e instanceof SelectorError) throw e;
    fail(text);
  }
  if (cache.size > 1_000) cache.clear();
  cache.set(text, parsed);
  return parsed;
}

/** Throws SelectorError when an op's selector cannot be used. */
export function checkSelector(selector: string): void {
  parseSelector(selector);
}

/** The elements of a page that match a selector, in document order. Throws SelectorError. */
export function selectAll(doc: HtmlDoc, selector: string): Element[] {
  const { matches } = parseSelector(selector);
  return doc.elements.filter(matches);
}

/**
 * Words a page must contain (lower-cased) for a selector to match anything in it: the ids,
 * classes and attribute names and values of the last compound of each selector in the list. Lets
 * the applier skip parsing pages that cannot match. Throws SelectorError.
 */
export function selectorHints(selector: string): string[][] {
  return parseSelector(selector).tokens.map((complex) => {
    let start = complex.length;
    while (start > 0 && !COMBINATORS.has(complex[start - 1]?.type ?? '')) start--;
    const words: string[] = [];
    for (const token of complex.slice(start)) {
      if (token.type !== 'attribute') continue;
      const shorthand =
        (token.name === 'id' && token.action === 'equals') ||
        (token.name === 'class' && token.action === 'element');
      if (!shorthand) words.push(token.name);
      if (token.action !== 'exists' && token.action !== 'not' && token.value !== '') {
        words.push(token.value);
      }
    }
    return words.map((w) => w.toLowerCase());
  });
}
