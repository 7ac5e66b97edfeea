import { createRequire } from 'node:module';
import type * as CssTree from 'css-tree';
import { RefSink } from './sink.js';
import { spliceText, type Edit } from './splice.js';
import type { Ref, RefKind, RefVisitor } from './types.js';

// css-tree's tokenizer alone (the package exports it as `css-tree/tokenizer`; its types name only
// the whole package): the whole package loads its lexer and the MDN syntax data, 125 modules that
// reading references never uses.
const { tokenize, tokenTypes } = createRequire(import.meta.url)('css-tree/tokenizer') as Pick<
  typeof CssTree,
  'tokenize' | 'tokenTypes'
>;

const T_IDENT = tokenTypes.Ident;
const T_FUNCTION = tokenTypes.Function;
const T_AT_KEYWORD = tokenTypes.AtKeyword;
const T_STRING = tokenTypes.String;
const T_URL = tokenTypes.Url;
const T_WHITESPACE = tokenTypes.WhiteSpace;
const T_COLON = tokenTypes.Colon;
const T_SEMICOLON = tokenTypes.Semicolon;
const T_LEFT_PAREN = tokenTypes.LeftParenthesis;
const T_RIGHT_PAREN = tokenTypes.RightParenthesis;
const T_LEFT_CURLY = tokenTypes.LeftCurlyBracket;
const T_RIGHT_CURLY = tokenTypes.RightCurlyBracket;
const T_COMMENT = tokenTypes.Comment;

/** Properties whose url() is not an image (SVG documents, HTC behaviours). */
const ASSET_PROPERTIES = new Set([
  'behavior',
  '-ms-behavior',
  'filter',
  'clip-path',
  'marker',
  'marker-start',
  'marker-mid',
  'marker-end',
]);
const IMAGE_SET = new Set(['image-set', '-webkit-image-set', '-moz-image-set', '-o-image-set']);

/** Quick reject: no token in the text can hold a reference. */
const MAY_HOLD_REFS = /url\(|src\(|@import|image-set/i;

/** Decodes CSS escapes (hex escapes, escaped characters, escaped newlines in strings). */
export function cssUnescape(value: string): string {
  if (!value.includes('\\')) return value;
  return value.replace(
    /\\(?:([0-9a-fA-F]{1,6})(?:\r\n|[ \t\n\r\f])?|(\r\n|[\n\r\f])|([\s\S]))/g,
    (_m, hex: string | undefined, newline: string | undefined, char: string | undefined) => {
      if (hex !== undefined) {
        const cp = parseInt(hex, 16);
        return cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)
          ? '\uFFFD'
          : String.fromCodePoint(cp);
      }
      if (newline !== undefined) return '';
      return char ?? '';
    },
  );
}

/** A CSS string literal. */
export function cssString(value: string, quote: '"' | "'" = '"'): string {
  const escaped = value.replace(/[\\\n\r\f"']/g, (c) => {
    if (c === '\\') return '\\\\';
    if (c === '\n') return '\\a ';
    if (c === '\r') return '\\d ';
    if (c === '\f') return '\\c ';
    return c === quote ? `\\${c}` : c;
  });
  return `${quote}${escaped}${quote}`;
}

/** Whether a value can stay unquoted in url(): no whitespace, quotes, parentheses, backslashes, controls. */
function isPlainUrl(value: string): boolean {
  for (let k = 0; k < value.length; k++) {
    const c = value.charCodeAt(k);
    if (
      c <= 0x20 ||
      c === 0x7f ||
      c === 0x22 ||
      c === 0x27 ||
      c === 0x28 ||
      c === 0x29 ||
      c === 0x5c
    ) {
      return false;
    }
  }
  return true;
}

function cssUrl(value: string, quoted: '"' | "'" | ''): string {
  if (quoted === '' && isPlainUrl(value)) return `url(${value})`;
  return `url(${cssString(value, quoted || '"')})`;
}

function stringInner(token: string): string {
  const q = token[0];
  const closed =
    token.length >= 2 && token[token.length - 1] === q && token[token.length - 2] !== '\\';
  return cssUnescape(token.slice(1, closed ? -1 : undefined));
}

export type CssMode = 'stylesheet' | 'declarations';

/**
 * Finds and rewrites the references of a stylesheet (or of a declaration list, for `style`
 * attributes) by splicing replacements into the original text at token offsets: everything that is
 * not a rewritten reference stays byte-for-byte. Never throws on broken CSS.
 */
export function rewriteCss(css: string, base: string, sink: RefSink, mode: CssMode): string {
  if (!MAY_HOLD_REFS.test(css)) return css;
  const scanner = new CssScanner(css, base, sink, mode);
  tokenize(css, scanner.onToken);
  return spliceText(css, scanner.edits);
}

/** A state machine over the token stream: tracks blocks, at-rules, properties and functions. */
class CssScanner {
  readonly edits: Edit[] = [];
  /** Block stack: true for @font-face bodies. */
  private readonly blocks: boolean[] = [];
  /** Open functions / parentheses, lowercased names ('(' for a bare parenthesis). */
  private readonly funcs: string[] = [];
  private imageSetDepth = 0;
  private atRule: string | null = null;
  private importTaken = false;
  private property = '';
  private declStart: boolean;
  /** After `url(` / `src(`: the next significant token is its string argument. */
  private urlFunction = false;
  /** An identifier at the start of a declaration, waiting for its colon. */
  private identStart = -1;
  private identEnd = -1;

  constructor(
    private readonly css: string,
    private readonly base: string,
    private readonly sink: RefSink,
    private readonly mode: CssMode,
  ) {
    this.declStart = mode === 'declarations';
  }

  /** Kind and context for a url()/string at the current position; null to ignore. */
  private classify(fn: 'url' | 'string'): [RefKind, string] | null {
    if (this.atRule !== null) {
      if (
        this.atRule === 'import' &&
        !this.importTaken &&
        (fn === 'url' || this.funcs.length === 0)
      ) {
        this.importTaken = true;
        return ['stylesheet', 'css @import'];
      }
      return null; // @namespace url(), @-moz-document url(), … are not fetched
    }
    if (fn === 'string') {
      const top = this.funcs[this.funcs.length - 1];
      return top !== undefined && IMAGE_SET.has(top) ? ['image', 'css image-set()'] : null;
    }
    if (this.blocks[this.blocks.length - 1] === true && this.property === 'src') {
      return ['font', 'css @font-face src'];
    }
    if (this.imageSetDepth > 0) return ['image', 'css image-set()'];
    return [ASSET_PROPERTIES.has(this.property) ? 'asset' : 'image', 'css url()'];
  }

  private visit(value: string, kind: RefKind, context: string): string | undefined {
    const next = this.sink.visit(value, this.base, kind, context);
    return next === undefined || next === value.trim() ? undefined : next;
  }

  private string(start: number, end: number, fn: 'url' | 'string'): void {
    const cls = this.classify(fn);
    if (cls === null) return;
    const token = this.css.slice(start, end);
    const next = this.visit(stringInner(token), cls[0], cls[1]);
    if (next !== undefined) {
      this.edits.push({ start, end, text: cssString(next, token[0] === "'" ? "'" : '"') });
    }
  }

  private url(start: number, end: number): void {
    const cls = this.classify('url');
    if (cls === null) return;
    const text = this.css.slice(start, end);
    const inner = text.slice(text.indexOf('(') + 1, text.endsWith(')') ? -1 : undefined);
    const value = cssUnescape(inner.replace(/^[ \t\n\r\f]+|[ \t\n\r\f]+$/g, ''));
    const next = this.visit(value, cls[0], cls[1]);
    if (next !== undefined) this.edits.push({ start, end, text: cssUrl(next, '') });
  }

  private endBlockLevel(): void {
    this.atRule = null;
    this.property = '';
    this.declStart = true;
    this.funcs.length = 0;
    this.imageSetDepth = 0;
  }

  readonly onToken = (type: number, start: number, end: number): void => {
    if (type === T_WHITESPACE || type === T_COMMENT) return;
    if (this.urlFunction) {
      this.urlFunction = false;
      if (type === T_STRING) {
        this.string(start, end, 'url');
        return;
      }
    }
    if (this.identStart !== -1) {
      if (type === T_COLON) {
        this.property = this.css.slice(this.identStart, this.identEnd).toLowerCase();
      }
      this.identStart = -1;
    }
    switch (type) {
      case T_URL:
        this.declStart = false;
        this.url(start, end);
        return;
      case T_FUNCTION: {
        this.declStart = false;
        const name = this.css.slice(start, end - 1).toLowerCase();
        this.funcs.push(name);
        if (IMAGE_SET.has(name)) this.imageSetDepth++;
        else if (name === 'url' || name === 'src') this.urlFunction = true;
        return;
      }
      case T_STRING:
        this.declStart = false;
        this.string(start, end, 'string');
        return;
      case T_AT_KEYWORD:
        this.atRule = cssUnescape(this.css.slice(start + 1, end)).toLowerCase();
        this.importTaken = false;
        this.declStart = false;
        return;
      case T_LEFT_PAREN:
        this.funcs.push('(');
        this.declStart = false;
        return;
      case T_RIGHT_PAREN: {
        const name = this.funcs.pop();
        if (name !== undefined && IMAGE_SET.has(name)) this.imageSetDepth--;
        return;
      }
      case T_LEFT_CURLY:
        this.blocks.push(this.atRule === 'font-face');
        this.endBlockLevel();
        return;
      case T_RIGHT_CURLY:
        this.blocks.pop();
        this.endBlockLevel();
        return;
      case T_SEMICOLON:
        if (this.funcs.length === 0) {
          this.atRule = null;
          this.property = '';
          this.declStart = true;
        }
        return;
      case T_IDENT:
        if (this.declStart && (this.blocks.length > 0 || this.mode === 'declarations')) {
          this.identStart = start;
          this.identEnd = end;
        }
        this.declStart = false;
        return;
      default:
        this.declStart = false;
    }
  };
}

/**
 * Lists and rewrites the references of a stylesheet: url() (quoted or not), @import (string or
 * url(), kind stylesheet), image-set() strings, @font-face src (kind font), cursor, mask, filter,
 * behavior… Fragment-only url(#id), data: and other non-http(s) URLs are skipped.
 */
export function processCss(
  css: string,
  stylesheetUrl: string,
  visit: RefVisitor,
): { css: string; refs: Ref[] } {
  const sink = new RefSink(visit);
  const out = rewriteCss(css, stylesheetUrl, sink, 'stylesheet');
  return { css: out, refs: sink.refs };
}

/** Declares UTF-8 in a leading `@charset` rule (for a stylesheet re-encoded as UTF-8). */
export function cssCharsetRewrite(css: string): string {
  return css.replace(/^(\uFEFF?)@charset\s+(["'])[^"']*\2\s*;/i, '$1@charset "utf-8";');
}
