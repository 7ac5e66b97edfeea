import { parse, walk } from 'css-tree';
import type { Raw } from 'css-tree';

/** A declaration of a stylesheet or declaration list, with the offsets of its value. */
export interface CssDeclaration {
  /** Lowercased; custom properties (`--Brand`) as written. */
  property: string;
  value: string;
  start: number;
  end: number;
  /** The rule's selector text; '' in a declaration list (a `style` attribute). */
  selector: string;
  /** Name of the nearest enclosing at-rule (`media`, `font-face`…). */
  atrule?: string;
}

export type CssMode = 'stylesheet' | 'declarations';

/** Every declaration of a stylesheet (css-tree, tolerant of broken CSS; never throws). */
export function scanDeclarations(css: string, mode: CssMode): CssDeclaration[] {
  const out: CssDeclaration[] = [];
  if (!css.includes(':')) return out;
  try {
    const ast = parse(css, {
      context: mode === 'declarations' ? 'declarationList' : 'stylesheet',
      positions: true,
      parseValue: false,
      parseRulePrelude: false,
      parseAtrulePrelude: false,
      parseCustomProperty: false,
      onParseError: () => undefined,
    });
    walk(ast, {
      visit: 'Declaration',
      enter(node) {
        const value = node.value as Raw;
        const loc = value.loc;
        if (!loc) return;
        const prelude = this.rule?.prelude;
        const property = node.property.startsWith('--')
          ? node.property
          : node.property.toLowerCase();
        const decl: CssDeclaration = {
          property,
          value: css.slice(loc.start.offset, loc.end.offset),
          start: loc.start.offset,
          end: loc.end.offset,
          selector: prelude?.type === 'Raw' ? prelude.value : '',
        };
        if (this.atrule) decl.atrule = this.atrule.name.toLowerCase();
        out.push(decl);
      },
    });
  } catch {
    // A stylesheet css-tree cannot read at all is left alone.
  }
  return out;
}

/** A family in a `font-family` list: offsets within the list and the unquoted name. */
export interface FontFamily {
  start: number;
  end: number;
  name: string;
}

export const GENERIC_FAMILIES = new Set([
  'serif',
  'sans-serif',
  'monospace',
  'cursive',
  'fantasy',
  'system-ui',
  'ui-serif',
  'ui-sans-serif',
  'ui-monospace',
  'ui-rounded',
  'math',
  'emoji',
  'fangsong',
  '-apple-system',
  'blinkmacsystemfont',
  'inherit',
  'initial',
  'unset',
  'revert',
]);

/** Splits a family list at top-level commas (quotes respected). */
export function splitFamilies(list: string): FontFamily[] {
  const out: FontFamily[] = [];
  let start = 0;
  let quote = '';
  const push = (end: number) => {
    const raw = list.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const name = raw.trim();
    if (name) {
      out.push({
        start: start + lead,
        end: start + lead + name.length,
        name: name.replace(/^["']|["']$/g, '').replace(/\s+/g, ' '),
      });
    }
  };
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ',') {
      push(i);
      start = i + 1;
    }
  }
  push(list.length);
  return out;
}

const FONT_SIZE =
  /^(?:[+-]?(?:\d+\.?\d*|\.\d+)(?:px|em|rem|%|pt|pc|vw|vh|vmin|vmax|ex|ch|cm|mm|in|q|lh|rlh|cap|ic)|0|xx-small|x-small|small|medium|large|x-large|xx-large|xxx-large|smaller|larger|(?:calc|clamp|min|max|var)\(.*\))$/i;

interface Token {
  start: number;
  end: number;
  text: string;
}

/** Whitespace-separated tokens outside quotes and parentheses. */
function topLevelTokens(value: string): Token[] {
  const out: Token[] = [];
  let start = -1;
  let quote = '';
  let depth = 0;
  for (let i = 0; i <= value.length; i++) {
    const c = value[i] ?? ' ';
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (/\s/.test(c) && depth === 0) {
      if (start >= 0) out.push({ start, end: i, text: value.slice(start, i) });
      start = -1;
      continue;
    }
    if (start < 0) start = i;
    if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
  }
  return out;
}

/** Offset where the family list of a `font` shorthand starts, or -1 (system fonts, keywords). */
export function fontShorthandFamilyStart(value: string): number {
  const tokens = topLevelTokens(value);
  for (let k = 0; k < tokens.length; k++) {
    const text = (tokens[k] as Token).text;
    if (/^["']/.test(text)) return -1;
    const slash = text.indexOf('/');
    if (!FONT_SIZE.test(slash > 0 ? text.slice(0, slash) : text)) continue;
    let last = k;
    const following = tokens[k + 1]?.text;
    if (slash < 0 && following?.startsWith('/')) last = following === '/' ? k + 2 : k + 1;
    return tokens[last + 1]?.start ?? -1;
  }
  return -1;
}

/** Where the families of a `font-family` or `font` value are: offsets within the value. */
export function familiesOf(property: string, value: string): { offset: number; list: string } {
  if (property === 'font') {
    const at = fontShorthandFamilyStart(value);
    return at < 0 ? { offset: 0, list: '' } : { offset: at, list: value.slice(at) };
  }
  return property === 'font-family' ? { offset: 0, list: value } : { offset: 0, list: '' };
}

/** Quotes a family name for CSS. */
export function quoteFamily(name: string, quote: '"' | "'" = '"'): string {
  if (GENERIC_FAMILIES.has(name.toLowerCase())) return name;
  return `${quote}${name.replace(/["'\\]/g, '')}${quote}`;
}
