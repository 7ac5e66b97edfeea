import { isElement, parentElement, tagOf } from './html.js';
import type { Element, HtmlDoc, Node } from './html.js';

/**
 * A practical CSS selector subset over the parse5 tree: type, universal, #id, .class,
 * [attr], [attr=|~=|^=|$=|*=||=value (i)], descendant / child / sibling combinators, selector lists,
 * :first-child, :last-child, :only-child, :first-of-type, :last-of-type, :only-of-type,
 * :nth-child(), :nth-last-child(), :nth-of-type(), :nth-last-of-type(), :not(), :is(), :where(),
 * :root, :empty.
 */

export class SelectorError extends Error {
  override name = 'SelectorError';
}

type AttrOperator = '=' | '~=' | '|=' | '^=' | '$=' | '*=';

interface AttrTest {
  name: string;
  op?: AttrOperator;
  value?: string;
  insensitive: boolean;
}

interface Nth {
  a: number;
  b: number;
}

type Pseudo =
  | { kind: 'nth'; nth: Nth; ofType: boolean; fromEnd: boolean }
  | { kind: 'only'; ofType: boolean }
  | { kind: 'not' | 'is'; list: Complex[] }
  | { kind: 'root' | 'empty' };

interface Compound {
  tag?: string;
  ids: string[];
  classes: string[];
  attrs: AttrTest[];
  pseudos: Pseudo[];
}

type Combinator = ' ' | '>' | '+' | '~';

interface Complex {
  compounds: Compound[];
  /** combinators[i] joins compounds[i] and compounds[i + 1]. */
  combinators: Combinator[];
}

export type SelectorList = Complex[];

const cache = new Map<string, SelectorList>();

export function parseSelector(text: string): SelectorList {
  const cached = cache.get(text);
  if (cached) return cached;
  const parser = new Parser(text);
  const list = parser.list(false);
  if (parser.pos < text.length) parser.fail();
  if (cache.size > 1_000) cache.clear();
  cache.set(text, list);
  return list;
}

/** The elements of a page that match a selector, in document order. Throws SelectorError. */
export function selectAll(doc: HtmlDoc, selector: string): Element[] {
  const list = parseSelector(selector);
  return doc.elements.filter((el) => matchesList(el, list));
}

/**
 * Words a page must contain (lower-cased) for a selector to match anything in it: the ids,
 * classes and attribute values of the last compound of each selector in the list. Lets the applier
 * skip parsing pages that cannot match. Throws SelectorError.
 */
export function selectorHints(selector: string): string[][] {
  return parseSelector(selector).map((c) => {
    const last = c.compounds[c.compounds.length - 1];
    if (!last) return [];
    const values = last.attrs
      .filter((a) => a.value !== undefined && a.value !== '')
      .map((a) => a.value as string);
    return [...last.ids, ...last.classes, ...last.attrs.map((a) => a.name), ...values].map((w) =>
      w.toLowerCase(),
    );
  });
}

export function matches(el: Element, selector: string): boolean {
  return matchesList(el, parseSelector(selector));
}

function matchesList(el: Element, list: SelectorList): boolean {
  return list.some((c) => matchComplex(el, c, c.compounds.length - 1));
}

class Parser {
  pos = 0;
  constructor(private readonly text: string) {}

  fail(): never {
    const at = this.text.slice(this.pos, this.pos + 20);
    throw new SelectorError(
      at
        ? `Unsupported selector near '${at}' in '${this.text}'`
        : `Incomplete selector '${this.text}'`,
    );
  }

  private peek(): string {
    return this.text[this.pos] ?? '';
  }

  private skipSpace(): boolean {
    const start = this.pos;
    while (/\s/.test(this.peek()) && this.pos < this.text.length) this.pos++;
    return this.pos > start;
  }

  list(nested: boolean): SelectorList {
    const list: Complex[] = [];
    for (;;) {
      this.skipSpace();
      list.push(this.complex());
      this.skipSpace();
      if (this.peek() === ',') {
        this.pos++;
        continue;
      }
      if (nested ? this.peek() === ')' : this.pos >= this.text.length) return list;
      this.fail();
    }
  }

  private complex(): Complex {
    const compounds = [this.compound()];
    const combinators: Combinator[] = [];
    for (;;) {
      const spaced = this.skipSpace();
      const c = this.peek();
      let comb: Combinator | undefined;
      if (c === '>' || c === '+' || c === '~') {
        this.pos++;
        this.skipSpace();
        comb = c;
      } else if (spaced && c !== '' && c !== ',' && c !== ')') {
        comb = ' ';
      }
      if (!comb) return { compounds, combinators };
      combinators.push(comb);
      compounds.push(this.compound());
    }
  }

  private compound(): Compound {
    const compound: Compound = { ids: [], classes: [], attrs: [], pseudos: [] };
    const start = this.pos;
    if (this.peek() === '*') this.pos++;
    else if (this.isIdentStart()) compound.tag = this.ident().toLowerCase();
    for (;;) {
      const c = this.peek();
      if (c === '#') {
        this.pos++;
        compound.ids.push(this.ident());
      } else if (c === '.') {
        this.pos++;
        compound.classes.push(this.ident());
      } else if (c === '[') {
        compound.attrs.push(this.attr());
      } else if (c === ':') {
        compound.pseudos.push(this.pseudo());
      } else break;
    }
    if (this.pos === start) this.fail();
    return compound;
  }

  private isIdentStart(): boolean {
    const c = this.peek();
    return /[A-Za-z_\u0080-\uffff\\-]/.test(c) && c !== '';
  }

  private ident(): string {
    let out = '';
    while (this.pos < this.text.length) {
      const c = this.peek();
      if (c === '\\') {
        const m = /^\\([0-9a-fA-F]{1,6})\s?|^\\([\s\S])/.exec(this.text.slice(this.pos));
        if (!m) this.fail();
        out += m[1] ? String.fromCodePoint(parseInt(m[1], 16)) : m[2];
        this.pos += m[0].length;
      } else if (/[-\w\u0080-\uffff]/.test(c)) {
        out += c;
        this.pos++;
      } else break;
    }
    if (out === '') this.fail();
    return out;
  }

  private attr(): AttrTest {
    this.pos++;
    this.skipSpace();
    const name = this.ident().toLowerCase();
    this.skipSpace();
    const m = /^(=|~=|\|=|\^=|\$=|\*=)/.exec(this.text.slice(this.pos));
    let test: AttrTest = { name, insensitive: false };
    if (m) {
      this.pos += m[0].length;
      this.skipSpace();
      const value = this.peek() === '"' || this.peek() === "'" ? this.string() : this.ident();
      this.skipSpace();
      let insensitive = false;
      if (/[iIsS]/.test(this.peek()) && /[\s\]]/.test(this.text[this.pos + 1] ?? '')) {
        insensitive = this.peek().toLowerCase() === 'i';
        this.pos++;
        this.skipSpace();
      }
      test = { name, op: m[0] as AttrOperator, value, insensitive };
    }
    if (this.peek() !== ']') this.fail();
    this.pos++;
    return test;
  }

  private string(): string {
    const quote = this.peek();
    this.pos++;
    let out = '';
    while (this.pos < this.text.length && this.peek() !== quote) {
      if (this.peek() === '\\') this.pos++;
      out += this.peek();
      this.pos++;
    }
    if (this.peek() !== quote) this.fail();
    this.pos++;
    return out;
  }

  private pseudo(): Pseudo {
    this.pos++;
    if (this.peek() === ':') this.fail();
    const name = this.ident().toLowerCase();
    const simple: Record<string, Pseudo> = {
      'first-child': { kind: 'nth', nth: { a: 0, b: 1 }, ofType: false, fromEnd: false },
      'last-child': { kind: 'nth', nth: { a: 0, b: 1 }, ofType: false, fromEnd: true },
      'first-of-type': { kind: 'nth', nth: { a: 0, b: 1 }, ofType: true, fromEnd: false },
      'last-of-type': { kind: 'nth', nth: { a: 0, b: 1 }, ofType: true, fromEnd: true },
      'only-child': { kind: 'only', ofType: false },
      'only-of-type': { kind: 'only', ofType: true },
      root: { kind: 'root' },
      empty: { kind: 'empty' },
    };
    const found = simple[name];
    if (found) return found;
    if (this.peek() !== '(') {
      this.pos -= name.length;
      this.fail();
    }
    this.pos++;
    let pseudo: Pseudo;
    if (name === 'not' || name === 'is' || name === 'where') {
      pseudo = { kind: name === 'not' ? 'not' : 'is', list: this.list(true) };
    } else if (/^nth-(last-)?(child|of-type)$/.test(name)) {
      const close = this.text.indexOf(')', this.pos);
      if (close < 0) this.fail();
      const nth = parseNth(this.text.slice(this.pos, close));
      if (!nth) this.fail();
      this.pos = close;
      pseudo = {
        kind: 'nth',
        nth,
        ofType: name.endsWith('of-type'),
        fromEnd: name.includes('last'),
      };
    } else {
      this.pos -= name.length + 1;
      this.fail();
    }
    this.skipSpace();
    if (this.peek() !== ')') this.fail();
    this.pos++;
    return pseudo;
  }
}

function parseNth(text: string): Nth | undefined {
  const t = text.trim().toLowerCase().replace(/\s+/g, '');
  if (t === 'odd') return { a: 2, b: 1 };
  if (t === 'even') return { a: 2, b: 0 };
  if (/^[+-]?\d+$/.test(t)) return { a: 0, b: parseInt(t, 10) };
  const m = /^([+-]?\d*)n([+-]\d+)?$/.exec(t);
  if (!m) return undefined;
  const a = m[1] === '' || m[1] === '+' ? 1 : m[1] === '-' ? -1 : parseInt(m[1] ?? '1', 10);
  return { a, b: m[2] ? parseInt(m[2], 10) : 0 };
}

function siblingsOf(el: Element): Element[] {
  const parent = el.parentNode as Node | null;
  if (!parent || !('childNodes' in parent)) return [el];
  return parent.childNodes.filter(isElement);
}

function matchComplex(el: Element, c: Complex, i: number): boolean {
  const compound = c.compounds[i];
  if (!compound || !matchCompound(el, compound)) return false;
  if (i === 0) return true;
  switch (c.combinators[i - 1]) {
    case '>': {
      const parent = parentElement(el);
      return parent !== undefined && matchComplex(parent, c, i - 1);
    }
    case ' ':
      for (let p = parentElement(el); p; p = parentElement(p)) {
        if (matchComplex(p, c, i - 1)) return true;
      }
      return false;
    case '+': {
      const sibs = siblingsOf(el);
      const prev = sibs[sibs.indexOf(el) - 1];
      return prev !== undefined && matchComplex(prev, c, i - 1);
    }
    case '~': {
      const sibs = siblingsOf(el);
      return sibs.slice(0, sibs.indexOf(el)).some((s) => matchComplex(s, c, i - 1));
    }
    default:
      return false;
  }
}

function attrValue(el: Element, name: string): string | undefined {
  for (const a of el.attrs) {
    const full = a.prefix ? `${a.prefix}:${a.name}` : a.name;
    if (full.toLowerCase() === name || a.name.toLowerCase() === name) return a.value;
  }
  return undefined;
}

function matchAttr(el: Element, test: AttrTest): boolean {
  let actual = attrValue(el, test.name);
  if (actual === undefined) return false;
  if (test.op === undefined || test.value === undefined) return true;
  let wanted = test.value;
  if (test.insensitive) {
    actual = actual.toLowerCase();
    wanted = wanted.toLowerCase();
  }
  switch (test.op) {
    case '=':
      return actual === wanted;
    case '~=':
      return wanted !== '' && actual.split(/\s+/).includes(wanted);
    case '|=':
      return actual === wanted || actual.startsWith(`${wanted}-`);
    case '^=':
      return wanted !== '' && actual.startsWith(wanted);
    case '$=':
      return wanted !== '' && actual.endsWith(wanted);
    case '*=':
      return wanted !== '' && actual.includes(wanted);
  }
}

function matchNth(el: Element, p: Extract<Pseudo, { kind: 'nth' }>): boolean {
  let sibs = siblingsOf(el);
  if (p.ofType) sibs = sibs.filter((s) => tagOf(s) === tagOf(el));
  const index = p.fromEnd ? sibs.length - sibs.indexOf(el) : sibs.indexOf(el) + 1;
  const { a, b } = p.nth;
  if (a === 0) return index === b;
  const n = (index - b) / a;
  return Number.isInteger(n) && n >= 0;
}

function matchPseudo(el: Element, p: Pseudo): boolean {
  switch (p.kind) {
    case 'nth':
      return matchNth(el, p);
    case 'only': {
      const sibs = siblingsOf(el);
      return (p.ofType ? sibs.filter((s) => tagOf(s) === tagOf(el)) : sibs).length === 1;
    }
    case 'not':
      return !matchesList(el, p.list);
    case 'is':
      return matchesList(el, p.list);
    case 'root':
      return tagOf(el) === 'html' && parentElement(el) === undefined;
    case 'empty':
      return el.childNodes.every((n) => n.nodeName === '#comment');
  }
}

function matchCompound(el: Element, c: Compound): boolean {
  if (c.tag !== undefined && tagOf(el) !== c.tag) return false;
  if (c.ids.length > 0) {
    const id = attrValue(el, 'id');
    if (id === undefined || c.ids.some((x) => x !== id)) return false;
  }
  if (c.classes.length > 0) {
    const classes = (attrValue(el, 'class') ?? '').split(/\s+/);
    if (c.classes.some((x) => !classes.includes(x))) return false;
  }
  return c.attrs.every((a) => matchAttr(el, a)) && c.pseudos.every((p) => matchPseudo(el, p));
}
