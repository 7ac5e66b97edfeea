import { isUtf8 as validUtf8 } from 'node:buffer';
import { parseMediaType } from '../net/media-type.js';

/**
 * Decoding of fetched bodies per the WHATWG encoding sniffing rules: BOM, then the Content-Type
 * charset, then the document's own declaration (`<meta>` prescan of the first 1024 bytes for HTML,
 * a leading `@charset` for CSS), then a fallback.
 */

/** Canonical encoding name for a label (`latin1` → `windows-1252`), or undefined when unknown. */
export function encodingForLabel(label: string): string | undefined {
  const trimmed = label.trim();
  if (trimmed === '') return undefined;
  try {
    const encoding = new TextDecoder(trimmed).encoding;
    return encoding === 'replacement' ? undefined : encoding;
  } catch {
    return undefined;
  }
}

function sniffBom(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

/** The charset parameter of a Content-Type header value. */
export function charsetFromContentType(header: string | undefined): string | undefined {
  return parseMediaType(header)?.charset;
}

/** WHATWG "algorithm for extracting a character encoding from a meta element". */
export function charsetFromMetaContent(content: string): string | undefined {
  let pos = 0;
  const lower = content.toLowerCase();
  for (;;) {
    const at = lower.indexOf('charset', pos);
    if (at === -1) return undefined;
    let i = at + 7;
    while (i < content.length && /[\t\n\f\r ]/.test(content[i]!)) i++;
    if (content[i] !== '=') {
      pos = i;
      continue;
    }
    i++;
    while (i < content.length && /[\t\n\f\r ]/.test(content[i]!)) i++;
    const c = content[i];
    if (c === '"' || c === "'") {
      const close = content.indexOf(c, i + 1);
      return close === -1 ? undefined : content.slice(i + 1, close);
    }
    let j = i;
    while (j < content.length && !/[\t\n\f\r ;]/.test(content[j]!)) j++;
    return j > i ? content.slice(i, j) : undefined;
  }
}

const WS = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const isAlpha = (c: number | undefined) =>
  c !== undefined && ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a));

/** WHATWG "prescan a byte stream to determine its encoding" over the first 1024 bytes. */
export function prescanHtml(bytes: Uint8Array): string | undefined {
  const b = bytes.subarray(0, 1024);
  const n = b.length;
  let i = 0;

  const startsWith = (s: string, at: number) => {
    for (let k = 0; k < s.length; k++) {
      let c = b[at + k];
      if (c === undefined) return false;
      if (c >= 0x41 && c <= 0x5a) c += 0x20;
      if (c !== s.charCodeAt(k)) return false;
    }
    return true;
  };

  /** Returns [name, value] or null when there is no further attribute (or input ended). */
  const getAttribute = (): [string, string] | null => {
    while (i < n && (WS.has(b[i]!) || b[i] === 0x2f)) i++;
    if (i >= n || b[i] === 0x3e) return null;
    let name = '';
    let value = '';
    for (;;) {
      if (i >= n) return null;
      const c = b[i]!;
      if (c === 0x3d && name !== '') {
        i++;
        break;
      }
      if (WS.has(c)) {
        while (i < n && WS.has(b[i]!)) i++;
        if (b[i] !== 0x3d) return [name, ''];
        i++;
        break;
      }
      if (c === 0x2f || c === 0x3e) return [name, ''];
      name += String.fromCharCode(c >= 0x41 && c <= 0x5a ? c + 0x20 : c);
      i++;
    }
    while (i < n && WS.has(b[i]!)) i++;
    if (i >= n) return null;
    const q = b[i]!;
    if (q === 0x22 || q === 0x27) {
      i++;
      for (;;) {
        if (i >= n) return null;
        const c = b[i]!;
        i++;
        if (c === q) return [name, value];
        value += String.fromCharCode(c >= 0x41 && c <= 0x5a ? c + 0x20 : c);
      }
    }
    if (q === 0x3e) return [name, ''];
    for (;;) {
      if (i >= n) return null;
      const c = b[i]!;
      if (WS.has(c) || c === 0x3e) return [name, value];
      value += String.fromCharCode(c >= 0x41 && c <= 0x5a ? c + 0x20 : c);
      i++;
    }
  };

  while (i < n) {
    if (startsWith('<!--', i)) {
      let j = i + 2;
      while (j + 2 < n && !(b[j] === 0x2d && b[j + 1] === 0x2d && b[j + 2] === 0x3e)) j++;
      if (j + 2 >= n) return undefined;
      i = j + 3;
      continue;
    }
    if (startsWith('<meta', i) && (WS.has(b[i + 5] ?? 0) || b[i + 5] === 0x2f)) {
      i += 6;
      const seen = new Set<string>();
      let gotPragma = false;
      let needPragma: boolean | null = null;
      let charset: string | null = null;
      for (;;) {
        const attr = getAttribute();
        if (attr === null) break;
        const [name, value] = attr;
        if (seen.has(name)) continue;
        seen.add(name);
        if (name === 'http-equiv' && value === 'content-type') gotPragma = true;
        else if (name === 'content' && charset === null) {
          const c = charsetFromMetaContent(value);
          if (c !== undefined) {
            charset = c;
            needPragma = true;
          }
        } else if (name === 'charset') {
          charset = value;
          needPragma = false;
        }
      }
      if (needPragma !== null && !(needPragma && !gotPragma) && charset !== null) {
        if (charset.trim() === 'x-user-defined') return 'windows-1252';
        const enc = encodingForLabel(charset);
        if (enc !== undefined) {
          if (enc === 'utf-16le' || enc === 'utf-16be') return 'utf-8';
          if (enc === 'x-user-defined') return 'windows-1252';
          return enc;
        }
      }
      i++;
      continue;
    }
    if (b[i] === 0x3c && (isAlpha(b[i + 1]) || (b[i + 1] === 0x2f && isAlpha(b[i + 2])))) {
      while (i < n && !WS.has(b[i]!) && b[i] !== 0x3e) i++;
      while (getAttribute() !== null);
      i++;
      continue;
    }
    if (b[i] === 0x3c && (b[i + 1] === 0x21 || b[i + 1] === 0x2f || b[i + 1] === 0x3f)) {
      while (i < n && b[i] !== 0x3e) i++;
      i++;
      continue;
    }
    i++;
  }
  return undefined;
}

/** The label of a leading `@charset "…";` rule (CSS Syntax §3.2). */
export function cssCharsetRule(bytes: Uint8Array): string | undefined {
  const prefix = '@charset "';
  for (let k = 0; k < prefix.length; k++) if (bytes[k] !== prefix.charCodeAt(k)) return undefined;
  const limit = Math.min(bytes.length, 1024);
  for (let k = prefix.length; k + 1 < limit; k++) {
    if (bytes[k] === 0x22) {
      if (bytes[k + 1] !== 0x3b) return undefined;
      return String.fromCharCode(...bytes.subarray(prefix.length, k));
    }
  }
  return undefined;
}

function isUtf8(bytes: Uint8Array): boolean {
  // Valid throughout: checked in place (simdutf), without decoding a string that is thrown away.
  if (validUtf8(bytes)) return true;
  try {
    // stream: a multi-byte sequence cut off by a truncated body does not count against UTF-8, as
    // long as the rest holds some evidence (a complete non-ASCII sequence, or nothing to decide).
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const text = decoder.decode(bytes, { stream: true });
    try {
      decoder.decode();
      return true;
    } catch {
      return /[\u0080-\uffff]/.test(text);
    }
  } catch {
    return false;
  }
}

/**
 * Decodes a fetched HTML, CSS or JavaScript body. Order: BOM, Content-Type charset, in-document
 * declaration (`<meta>` prescan / `@charset`), then for HTML and JavaScript: UTF-8 when the bytes
 * are valid UTF-8 (what browsers' encoding detectors conclude; a classic script without a charset
 * takes its legacy page's), else windows-1252; for CSS: UTF-8.
 */
export function decodeBody(
  bytes: Uint8Array,
  contentTypeHeader: string | undefined,
  kind: 'html' | 'css' | 'js',
): { text: string; charset: string } {
  let charset = sniffBom(bytes);
  if (charset === undefined) {
    const header = charsetFromContentType(contentTypeHeader);
    if (header !== undefined) charset = encodingForLabel(header);
  }
  if (charset === undefined) {
    if (kind === 'html') charset = prescanHtml(bytes);
    else if (kind === 'css') {
      const rule = cssCharsetRule(bytes);
      if (rule !== undefined) {
        charset = encodingForLabel(rule);
        if (charset === 'utf-16le' || charset === 'utf-16be') charset = 'utf-8';
      }
    }
  }
  if (charset === undefined) {
    charset = kind === 'css' || isUtf8(bytes) ? 'utf-8' : 'windows-1252';
  }
  return { text: new TextDecoder(charset).decode(bytes), charset };
}
