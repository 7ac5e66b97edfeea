import { decodeHTML, decodeHTMLAttribute } from 'entities';

/**
 * A streaming HTML tokenizer for finding and rewriting references: it walks the source once and
 * reports tags, text and comments with their offsets, following the HTML tokenizer's rules for
 * where a tag, a comment or an attribute ends (quotes, `<!-->`, `--!>`, bogus comments, a tag cut
 * off by the end of the file, duplicate attributes). It builds no tree: what a tree would tell
 * (raw-text elements, foreign content, templates) is the caller's, through `rawText` and
 * `allowCdata`. Text between tags is skipped with `indexOf`, so a page costs little more than a
 * search for its `<` characters.
 */

export const enum Token {
  StartTag,
  EndTag,
  Text,
  Comment,
  Doctype,
  CData,
  End,
}

/** How a raw-text element's content ends (HTML tokenizer states). */
export type RawTextKind = 'script' | 'rawtext' | 'rcdata' | 'plaintext';

/** An attribute of a start tag. Its value is read from the source when it is first asked for. */
export class ScannedAttr {
  private decoded: string | undefined;

  constructor(
    /** Lowercased name as written (`xlink:href` stays one name). */
    readonly name: string,
    private readonly source: string,
    /** Source range of the whole attribute, name to closing quote. */
    readonly start: number,
    readonly end: number,
    private readonly valueStart: number,
    private readonly valueEnd: number,
  ) {}

  /** The value with character references decoded and newlines normalized. */
  get value(): string {
    this.decoded ??=
      this.valueStart === this.valueEnd
        ? ''
        : attrValue(this.source.slice(this.valueStart, this.valueEnd));
    return this.decoded;
  }
}

/**
 * Names that make up most of any page, by length: a name read from the source is one of these
 * strings instead of a new one (a page has thousands of `class` and `span`).
 */
const COMMON_NAMES: string[][] = [];
for (const name of (
  'a abbr alt article aside b br button charset class code content data-src dd div dl dt em ' +
  'figure footer form h1 h2 h3 h4 h5 h6 header height href hr i id img input label lang li link ' +
  'main meta name nav ol option p path picture pre rel role script section select small source ' +
  'span src srcset strong style svg table tbody td th thead title tr type ul use width'
).split(' ')) {
  (COMMON_NAMES[name.length] ??= []).push(name);
}

const NO_NAMES: ReadonlySet<string> = new Set();
const NO_ATTRS: ScannedAttr[] = [];

/** The lowercased name at `[start, end)`. */
function nameAt(s: string, start: number, end: number): string {
  const common = COMMON_NAMES[end - start];
  if (common) for (const name of common) if (s.startsWith(name, start)) return name;
  return s.slice(start, end).toLowerCase();
}

const enum C {
  Tab = 0x09,
  Lf = 0x0a,
  Ff = 0x0c,
  Cr = 0x0d,
  Space = 0x20,
  Bang = 0x21,
  Dquote = 0x22,
  Squote = 0x27,
  Dash = 0x2d,
  Slash = 0x2f,
  Lt = 0x3c,
  Eq = 0x3d,
  Gt = 0x3e,
  Question = 0x3f,
}

/** A tag or attribute name runs to a space, `/` or `>` (and an attribute name to `=`). */
const TAG_NAME = /[^\t\n\f\r />]*/y;
const ATTR_NAME = /[^\t\n\f\r />=]*/y;
const UNQUOTED_VALUE = /[^\t\n\f\r >]*/y;
const SPACES = /[\t\n\f\r ]*/y;

/** The end of the run matched by a sticky `pattern` from `from`. */
function runEnd(pattern: RegExp, s: string, from: number): number {
  pattern.lastIndex = from;
  pattern.test(s);
  return pattern.lastIndex;
}

function isSpace(c: number): boolean {
  return c === C.Space || c === C.Lf || c === C.Tab || c === C.Ff || c === C.Cr;
}

function isAlpha(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

/** An attribute value as the tokenizer hands it on. */
function attrValue(raw: string): string {
  let value = raw;
  if (value.includes('&')) value = decodeHTMLAttribute(value);
  if (value.includes('\r')) value = value.replace(/\r\n?/g, '\n');
  if (value.includes('\0')) value = value.replace(/\0/g, '\uFFFD');
  return value;
}

/** Text of an RCDATA element or of markup, with character references decoded. */
export function decodeText(raw: string): string {
  let value = raw;
  if (value.includes('&')) value = decodeHTML(value);
  if (value.includes('\r')) value = value.replace(/\r\n?/g, '\n');
  if (value.includes('\0')) value = value.replace(/\0/g, '\uFFFD');
  return value;
}

export class HtmlScanner {
  /** Set by `next()`: the token's source range. */
  start = 0;
  end = 0;
  /** Start and end tags: the lowercased name. */
  name = '';
  /** Start tags: the attributes, first of each name only. */
  attrs: ScannedAttr[] = [];
  selfClosing = false;
  /** Text and CDATA: the range of the text itself (CDATA without its `<![CDATA[` and `]]>`). */
  textStart = 0;
  textEnd = 0;
  /** `<![CDATA[` opens a CDATA section (foreign content) instead of a bogus comment. */
  allowCdata = false;

  private pos: number;

  /**
   * `ignored`: attribute names the caller never reads (`class`, `alt`…); they are stepped over
   * without an object each, which is most of the attributes of most pages.
   */
  constructor(
    readonly source: string,
    from = 0,
    readonly limit = source.length,
    private readonly ignored: ReadonlySet<string> = NO_NAMES,
  ) {
    this.pos = from;
  }

  next(): Token {
    const s = this.source;
    const n = this.limit;
    for (;;) {
      const at = this.pos;
      if (at >= n) return Token.End;
      if (s.charCodeAt(at) !== C.Lt) return this.text(at, s.indexOf('<', at + 1));
      const c = at + 1 < n ? s.charCodeAt(at + 1) : -1;
      if (isAlpha(c)) {
        if (this.tag(at, at + 1, true)) return Token.StartTag;
        return Token.End; // a tag cut off by the end of the file is dropped, and so is the rest
      }
      if (c === C.Slash) {
        const c2 = at + 2 < n ? s.charCodeAt(at + 2) : -1;
        if (isAlpha(c2)) return this.tag(at, at + 2, false) ? Token.EndTag : Token.End;
        if (c2 === C.Gt) {
          this.pos = at + 3; // `</>` is dropped
          continue;
        }
        if (c2 === -1) return this.text(at, -1);
        return this.bogusComment(at, at + 2);
      }
      if (c === C.Bang) return this.markupDeclaration(at);
      if (c === C.Question) return this.bogusComment(at, at + 1);
      return this.text(at, s.indexOf('<', at + 1));
    }
  }

  /**
   * The content of the raw-text element whose start tag was just read, up to (not including) its
   * end tag, as a Text token (`textStart`/`textEnd`); the end tag is the next token.
   */
  rawText(kind: RawTextKind, tagName: string): void {
    const from = this.pos;
    const to = kind === 'plaintext' ? this.limit : this.rawTextEnd(kind, tagName, from);
    this.start = this.textStart = from;
    this.end = this.textEnd = to;
    this.pos = to;
  }

  private text(at: number, lt: number): Token {
    const end = lt === -1 || lt > this.limit ? this.limit : lt;
    this.start = this.textStart = at;
    this.end = this.textEnd = end;
    this.pos = end;
    return Token.Text;
  }

  private markupDeclaration(at: number): Token {
    const s = this.source;
    if (s.startsWith('<!--', at)) return this.comment(at);
    if (this.allowCdata && s.startsWith('<![CDATA[', at)) {
      const close = s.indexOf(']]>', at + 9);
      const end = close === -1 || close + 3 > this.limit ? this.limit : close + 3;
      this.start = at;
      this.end = end;
      this.textStart = at + 9;
      this.textEnd = close === -1 || close + 3 > this.limit ? this.limit : close;
      this.pos = end;
      return Token.CData;
    }
    const token = this.bogusComment(at, at + 2);
    if (s.slice(at + 2, at + 9).toLowerCase() === 'doctype') return Token.Doctype;
    return token;
  }

  private comment(at: number): Token {
    const s = this.source;
    const p = at + 4;
    let end: number;
    if (s.charCodeAt(p) === C.Gt)
      end = p + 1; // <!-->
    else if (s.startsWith('->', p))
      end = p + 2; // <!--->
    else {
      const a = s.indexOf('-->', p);
      const b = s.indexOf('--!>', p);
      if (a === -1 && b === -1) end = this.limit;
      else if (b === -1 || (a !== -1 && a < b)) end = a + 3;
      else end = b + 4;
    }
    return this.finishComment(at, Math.min(end, this.limit));
  }

  private bogusComment(at: number, from: number): Token {
    const gt = this.source.indexOf('>', from);
    return this.finishComment(at, gt === -1 || gt >= this.limit ? this.limit : gt + 1);
  }

  private finishComment(at: number, end: number): Token {
    this.start = at;
    this.end = end;
    this.pos = end;
    return Token.Comment;
  }

  /** Reads a tag from `<` at `at`; the name starts at `nameStart`. False when the file ends inside. */
  private tag(at: number, nameStart: number, isStart: boolean): boolean {
    const s = this.source;
    const n = this.limit;
    let p = Math.min(n, runEnd(TAG_NAME, s, nameStart));
    this.name = nameAt(s, nameStart, p);
    if (this.name.includes('\0')) this.name = this.name.replace(/\0/g, '\uFFFD');
    let attrs = NO_ATTRS;
    /** Names seen, once a tag has many attributes: a hostile tag with 100,000 stays linear. */
    let names: Set<string> | undefined;
    this.selfClosing = false;
    for (;;) {
      if (p < n && isSpace(s.charCodeAt(p))) p = Math.min(n, runEnd(SPACES, s, p));
      if (p >= n) return false;
      let c = s.charCodeAt(p);
      if (c === C.Gt) {
        p++;
        break;
      }
      if (c === C.Slash) {
        p++;
        if (p < n && s.charCodeAt(p) === C.Gt) {
          this.selfClosing = true;
          p++;
          break;
        }
        continue;
      }
      // An attribute: its name runs to a space, `/`, `>` or `=` (a leading `=` belongs to it).
      const attrStart = p;
      const nameEnd = Math.min(n, runEnd(ATTR_NAME, s, p + 1));
      p = nameEnd;
      if (p < n && isSpace(s.charCodeAt(p))) p = Math.min(n, runEnd(SPACES, s, p));
      let valueStart = nameEnd;
      let valueEnd = nameEnd;
      let end = nameEnd;
      if (p < n && s.charCodeAt(p) === C.Eq) {
        p++;
        if (p < n && isSpace(s.charCodeAt(p))) p = Math.min(n, runEnd(SPACES, s, p));
        if (p >= n) return false;
        c = s.charCodeAt(p);
        if (c === C.Dquote || c === C.Squote) {
          const close = s.indexOf(c === C.Dquote ? '"' : "'", p + 1);
          if (close === -1 || close >= n) return false;
          valueStart = p + 1;
          valueEnd = close;
          p = close + 1;
        } else if (c !== C.Gt) {
          valueStart = p;
          p = Math.min(n, runEnd(UNQUOTED_VALUE, s, p));
          valueEnd = p;
        }
        end = p;
      } else {
        // No value: the whitespace after the name is not part of the attribute.
        p = nameEnd;
      }
      if (!isStart) continue;
      const name = nameAt(s, attrStart, nameEnd);
      if (this.ignored.has(name)) continue;
      if (attrs === NO_ATTRS) attrs = [];
      else if (names ? names.has(name) : attrs.some((a) => a.name === name)) continue; // the first of a name wins
      attrs.push(new ScannedAttr(name, s, attrStart, end, valueStart, valueEnd));
      if (names) names.add(name);
      else if (attrs.length === 16) names = new Set(attrs.map((a) => a.name));
    }
    this.attrs = attrs;
    this.start = at;
    this.end = p;
    this.pos = p;
    return true;
  }

  /** Where the content of a raw-text element ends: at `</name` followed by a space, `/` or `>`. */
  private rawTextEnd(kind: RawTextKind, tagName: string, from: number): number {
    const s = this.source;
    const n = this.limit;
    if (kind === 'script') return this.scriptEnd(from);
    let p = from;
    for (;;) {
      const lt = s.indexOf('</', p);
      if (lt === -1 || lt >= n) return n;
      if (this.closes(lt, tagName)) return lt;
      p = lt + 2;
    }
  }

  /** `</name` at `lt` followed by a space, `/` or `>` (or the end of the file). */
  private closes(lt: number, tagName: string): boolean {
    const s = this.source;
    const after = lt + 2 + tagName.length;
    if (after > this.limit) return false;
    if (s.slice(lt + 2, after).toLowerCase() !== tagName) return false;
    if (after === this.limit) return false;
    const c = s.charCodeAt(after);
    return isSpace(c) || c === C.Slash || c === C.Gt;
  }

  /**
   * Script data, with its escaped states: inside `<!--`, a `<script>` opens a "double escaped"
   * stretch in which `</script>` does not end the element (old pages hide scripts that write
   * scripts that way).
   */
  private scriptEnd(from: number): number {
    const s = this.source;
    const n = this.limit;
    let p = from;
    for (;;) {
      // script data
      const lt = s.indexOf('<', p);
      if (lt === -1 || lt >= n) return n;
      if (s.charCodeAt(lt + 1) === C.Slash && this.closes(lt, 'script')) return lt;
      if (!s.startsWith('<!--', lt)) {
        p = lt + 1;
        continue;
      }
      // escaped: from the first dash, so that `<!-->` and `<!--->` close at once
      p = lt + 2;
      let doubleEscaped = false;
      for (;;) {
        if (p >= n) return n;
        const c = s.charCodeAt(p);
        if (c === C.Dash && s.startsWith('-->', p)) {
          p += 3;
          break; // back to script data
        }
        if (c === C.Lt) {
          if (s.charCodeAt(p + 1) === C.Slash && this.closes(p, 'script')) {
            if (!doubleEscaped) return p;
            doubleEscaped = false;
            p += 8;
            continue;
          }
          if (!doubleEscaped && this.opensScript(p)) {
            doubleEscaped = true;
            p += 7;
            continue;
          }
        }
        p++;
      }
    }
  }

  private opensScript(lt: number): boolean {
    const s = this.source;
    if (s.slice(lt + 1, lt + 7).toLowerCase() !== 'script') return false;
    const c = lt + 7 < this.limit ? s.charCodeAt(lt + 7) : -1;
    return isSpace(c) || c === C.Slash || c === C.Gt;
  }
}
