import { initSync, parse, type ImportSpecifier } from 'es-module-lexer';
import { resolveModuleSpecifier, type ImportMap } from './import-map.js';
import { RefSink, resolveRef } from './sink.js';
import { ordered, spliceText, type Edit } from './splice.js';
import type { Ref, RefKind, RefVisitor } from './types.js';

export interface ProcessJsOptions {
  /**
   * The page that runs the script: workers and worklets resolve their URL against it, not against
   * the script. Defaults to the script's own URL (right for a worker's nested workers).
   */
  documentUrl?: string;
  /** Import maps the script may run under; bare specifiers resolve only through them. */
  importMaps?: readonly ImportMap[];
}

export interface ProcessJsResult {
  /** The script with references replaced; the input string itself when nothing changed. */
  code: string;
  refs: Ref[];
}

const CONTEXT = {
  import: 'js import',
  dynamic: 'js import()',
  metaUrl: 'js new URL(import.meta.url)',
  worker: 'js new Worker()',
  sharedWorker: 'js new SharedWorker()',
  importScripts: 'js importScripts()',
  worklet: 'js addModule()',
} as const;

const DOCUMENT_RELATIVE: readonly string[] = [
  CONTEXT.worker,
  CONTEXT.sharedWorker,
  CONTEXT.worklet,
];

/** Whether a reference found by `processJs` resolves against the page rather than the script. */
export function resolvesAgainstDocument(ref: Ref): boolean {
  return DOCUMENT_RELATIVE.some((context) => ref.context.endsWith(context));
}

type CallKind = 'url' | 'worker' | 'sharedWorker' | 'importScripts' | 'worklet';

let lexerReady = false;

function lex(code: string): readonly ImportSpecifier[] {
  if (!lexerReady) {
    initSync();
    lexerReady = true;
  }
  return parse(code)[0];
}

function isIdentChar(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    c === '_' ||
    c === '$' ||
    code > 127
  );
}

function isSpace(c: string | undefined): boolean {
  return (
    c === ' ' ||
    c === '\t' ||
    c === '\n' ||
    c === '\r' ||
    c === '\v' ||
    c === '\f' ||
    c === '\u00a0' ||
    c === '\ufeff' ||
    c === '\u2028' ||
    c === '\u2029'
  );
}

/** Skips whitespace and comments forward from a position known to be in code. */
function skipTrivia(code: string, pos: number): number {
  for (;;) {
    while (isSpace(code[pos])) pos++;
    if (code[pos] !== '/') return pos;
    if (code[pos + 1] === '/') {
      while (pos < code.length && code[pos] !== '\n' && code[pos] !== '\r') pos++;
    } else if (code[pos + 1] === '*') {
      const close = code.indexOf('*/', pos + 2);
      if (close === -1) return code.length;
      pos = close + 2;
    } else {
      return pos;
    }
  }
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
};

/** The value of a string literal's body (escapes decoded); undefined for a malformed escape. */
function unescapeJs(body: string): string | undefined {
  if (!body.includes('\\')) return body;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const n = body[++i];
    if (n === undefined) return undefined;
    const simple = SIMPLE_ESCAPES[n];
    if (simple !== undefined) out += simple;
    else if (n === '\r' || n === '\n' || n === '\u2028' || n === '\u2029') {
      if (n === '\r' && body[i + 1] === '\n') i++;
    } else if (n === 'x' || n === 'u') {
      let hex: string;
      if (n === 'u' && body[i + 1] === '{') {
        const close = body.indexOf('}', i);
        if (close === -1) return undefined;
        hex = body.slice(i + 2, close);
        i = close;
      } else {
        hex = body.slice(i + 1, i + (n === 'x' ? 3 : 5));
        i += hex.length;
      }
      const cp = /^[0-9a-fA-F]+$/.test(hex) ? parseInt(hex, 16) : NaN;
      if (!(cp <= 0x10ffff)) return undefined;
      out += String.fromCodePoint(cp);
    } else out += n;
  }
  return out;
}

interface StringLiteral {
  value: string;
  /** Offsets of the body, quotes excluded. */
  start: number;
  end: number;
  quote: string;
}

/** A string literal (or a template without substitutions) starting at `pos`. */
function readString(code: string, pos: number): StringLiteral | undefined {
  const quote = code[pos];
  if (quote !== '"' && quote !== "'" && quote !== '`') return undefined;
  for (let i = pos + 1; i < code.length; i++) {
    const c = code[i];
    if (c === '\\') i++;
    else if (c === quote) {
      const value = unescapeJs(code.slice(pos + 1, i));
      return value === undefined ? undefined : { value, start: pos + 1, end: i, quote };
    } else if (quote === '`' ? c === '$' && code[i + 1] === '{' : c === '\n' || c === '\r') {
      return undefined;
    }
  }
  return undefined;
}

/** A literal written back with the quote it had. */
function jsString(value: string, quote: string): string {
  let out = '';
  for (const c of value) {
    if (c === '\\' || c === quote) out += `\\${c}`;
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\u2028' || c === '\u2029') out += `\\u${c.charCodeAt(0).toString(16)}`;
    else if (quote === '`' && c === '$') out += '\\$';
    else out += c;
  }
  return out;
}

/**
 * Calls that load a URL but are not import syntax, found by name and confirmed by the lexer: each
 * callee is overwritten (same length, so offsets hold) with an `import` keyword, and the lexer
 * reports a dynamic import at that spot only when it is code, not a comment, string or regex.
 */
function maskCalls(code: string): { masked: string; calls: Map<number, CallKind> } {
  const calls = new Map<number, CallKind>();
  const edits: Edit[] = [];
  const callee = (from: number, to: number, at: number, kind: CallKind) => {
    const padded = `${' '.repeat(at - from)}import`.padEnd(to - from, ' ');
    edits.push({ start: from, end: to, text: padded });
    calls.set(at, kind);
  };
  const each = (name: string, fn: (start: number, end: number) => void) => {
    for (let at = code.indexOf(name); at !== -1; at = code.indexOf(name, at + name.length)) {
      const end = at + name.length;
      if (isIdentChar(code[end]) || code[skipTrivia(code, end)] !== '(') continue;
      fn(at, end);
    }
  };
  // `new Name(`: the `new` keyword, spaces, the constructor. Not across lines: blanking a line break
  // could pull the code after it into a `//` comment that ended there.
  const construct = (name: string, kind: CallKind) =>
    each(name, (start, end) => {
      let j = start - 1;
      while (code[j] === ' ' || code[j] === '\t') j--;
      if (j === start - 1 || code.slice(j - 2, j + 1) !== 'new') return;
      const before = code[j - 3];
      if (isIdentChar(before) || before === '.') return;
      callee(j - 2, end, j - 2, kind);
    });
  construct('Worker', 'worker');
  construct('SharedWorker', 'sharedWorker');
  if (code.includes('import.meta')) construct('URL', 'url');
  each('importScripts', (start, end) => {
    const before = code[start - 1];
    if (isIdentChar(before)) return;
    if (before === '.') callee(start - 1, end, start, 'importScripts');
    else callee(start, end, start, 'importScripts');
  });
  // Only on a worklet (`CSS.paintWorklet`, `context.audioWorklet`): other objects' addModule take names.
  each('addModule', (start, end) => {
    if (code[start - 1] !== '.') return;
    const receiverEnd = code[start - 2] === '?' ? start - 2 : start - 1;
    if (!code.startsWith('Worklet', receiverEnd - 7)) return;
    callee(receiverEnd, end, start, 'worklet');
  });
  if (edits.length === 0) return { masked: code, calls };
  return { masked: splice(code, edits), calls };
}

function splice(code: string, edits: Edit[]): string {
  return spliceText(code, ordered(edits));
}

class JsScanner {
  readonly edits: Edit[] = [];

  constructor(
    private readonly code: string,
    private readonly scriptUrl: string,
    private readonly documentUrl: string,
    private readonly maps: readonly ImportMap[],
    private readonly sink: RefSink,
  ) {}

  private edit(literal: StringLiteral, next: string | undefined, raw: string): void {
    if (next === undefined || next === raw) return;
    this.edits.push({
      start: literal.start,
      end: literal.end,
      text: jsString(next, literal.quote),
    });
  }

  /** An import specifier: the import maps decide bare ones, and the maps' own entries stay as written. */
  specifier(literal: StringLiteral, context: string): void {
    const { urls, mapped } = resolveModuleSpecifier(literal.value, this.scriptUrl, this.maps);
    for (const resolved of urls) {
      const url = resolveRef(resolved, resolved);
      if (url === undefined) continue;
      const next = this.sink.visitResolved(url, literal.value, 'module', context);
      if (!mapped && urls.length === 1) this.edit(literal, next, literal.value);
    }
  }

  /** A plain URL (workers, worklets, `new URL`): no import map applies. */
  url(literal: StringLiteral, base: string, kind: RefKind, context: string): void {
    this.edit(literal, this.sink.visit(literal.value, base, kind, context), literal.value.trim());
  }

  /** `new URL('…', import.meta.url)`: the second argument must be exactly `import.meta.url`. */
  private metaUrlArgument(imp: ImportSpecifier, metas: Map<number, number>): boolean {
    const code = this.code;
    const metaEnd = metas.get(skipTrivia(code, imp.a));
    if (metaEnd === undefined) return false;
    let pos = skipTrivia(code, metaEnd);
    if (code[pos] !== '.') return false;
    pos = skipTrivia(code, pos + 1);
    if (code.slice(pos, pos + 3) !== 'url' || isIdentChar(code[pos + 3])) return false;
    pos = skipTrivia(code, pos + 3);
    if (code[pos] === ',') pos = skipTrivia(code, pos + 1);
    return code[pos] === ')' && pos === imp.se - 1;
  }

  call(kind: CallKind, imp: ImportSpecifier, metas: Map<number, number>): void {
    const first = readString(this.code, imp.s);
    if (!first || first.end + 1 !== imp.e) return;
    switch (kind) {
      case 'url':
        if (imp.a !== -1 && this.metaUrlArgument(imp, metas))
          this.url(first, this.scriptUrl, 'asset', CONTEXT.metaUrl);
        return;
      case 'worker':
      case 'sharedWorker':
        return this.url(first, this.documentUrl, 'script', CONTEXT[kind]);
      case 'worklet':
        return this.url(first, this.documentUrl, 'module', CONTEXT.worklet);
      case 'importScripts': {
        // importScripts('a.js', 'b.js', …): every argument is a script.
        let literal: StringLiteral | undefined = first;
        while (literal) {
          this.url(literal, this.scriptUrl, 'script', CONTEXT.importScripts);
          let pos = skipTrivia(this.code, literal.end + 1);
          if (this.code[pos] !== ',') return;
          pos = skipTrivia(this.code, pos + 1);
          literal = readString(this.code, pos);
        }
      }
    }
  }

  scan(imports: readonly ImportSpecifier[], calls: Map<number, CallKind>): void {
    const metas = new Map<number, number>();
    for (const imp of imports) if (imp.d === -2) metas.set(imp.ss, imp.se);
    for (const imp of imports) {
      if (imp.d === -2) continue;
      if (imp.d === -1) {
        // Static: the lexer's offsets are the specifier's body, inside its quotes.
        if (imp.n !== undefined) {
          const quote = this.code[imp.s - 1] ?? '"';
          this.specifier({ value: imp.n, start: imp.s, end: imp.e, quote }, CONTEXT.import);
        }
        continue;
      }
      const call = calls.get(imp.ss);
      if (call) this.call(call, imp, metas);
      else {
        const literal = readString(this.code, imp.s);
        if (literal && literal.end + 1 === imp.e) this.specifier(literal, CONTEXT.dynamic);
      }
    }
  }
}

/** Finds and rewrites the references of a script; used for script bodies and inline scripts. */
export function rewriteJs(
  code: string,
  scriptUrl: string,
  sink: RefSink,
  options: ProcessJsOptions = {},
): string {
  let imports: readonly ImportSpecifier[];
  let calls = new Map<number, CallKind>();
  try {
    const masked = maskCalls(code);
    try {
      imports = lex(masked.masked);
      calls = masked.calls;
    } catch {
      imports = lex(code);
    }
  } catch {
    return code; // not JavaScript the lexer understands: no references
  }
  const scanner = new JsScanner(
    code,
    scriptUrl,
    options.documentUrl ?? scriptUrl,
    options.importMaps ?? [],
    sink,
  );
  scanner.scan(imports, calls);
  visitViteDependencies(code, scriptUrl, sink);
  return scanner.edits.length === 0 ? code : splice(code, scanner.edits);
}

/**
 * Vite's build lists what a code-split chunk needs beside its JavaScript (its CSS above all) in a
 * string array, `__vite__mapDeps`, and loads them with `<link>` when the chunk is imported: no
 * import syntax names the CSS. The array is written by Vite itself, always in one shape:
 * `m.f||(m.f=["assets/a.js","assets/a.css"])`, paths relative to the site's base (`/`), or to the
 * script when they start with `./`. Listed for the crawl only: the copy keeps these paths.
 */
const VITE_DEPS = /__vite__mapDeps=\([^)]*?\bm\.f=\[((?:\s*(?:"[^"\\\n]*"|`[^`$\\\n]*`)\s*,?)*)\]/g;

function visitViteDependencies(code: string, scriptUrl: string, sink: RefSink): void {
  if (!code.includes('__vite__mapDeps')) return;
  for (const match of code.matchAll(VITE_DEPS)) {
    for (const item of match[1]!.matchAll(/"([^"]*)"|`([^`]*)`/g)) {
      const dep = item[1] ?? item[2] ?? '';
      const base = /^\.\.?\//.test(dep) ? scriptUrl : new URL('/', scriptUrl).href;
      const kind: RefKind = /\.css(?:[?#]|$)/i.test(dep) ? 'stylesheet' : 'module';
      sink.visit(dep, base, kind, 'js __vite__mapDeps');
    }
  }
}

/**
 * Lists and rewrites the URLs a script loads, with es-module-lexer (comments, strings, templates
 * and regular expressions are told apart from code): static `import`/`export … from`, `import()`
 * with a literal, `new URL('…', import.meta.url)`, `new Worker('…')`, `new SharedWorker('…')`,
 * `importScripts('…')` and worklets' `addModule('…')`. Bare specifiers resolve through the import
 * maps and are never rewritten (the maps are); relative ones resolve against the script, workers
 * and worklets against the page. Replacements are spliced in at the lexer's offsets: everything
 * else stays byte for byte. A script the lexer cannot read has no references.
 */
export function processJs(
  code: string,
  scriptUrl: string,
  visit: RefVisitor,
  options: ProcessJsOptions = {},
): ProcessJsResult {
  const sink = new RefSink(visit);
  return { code: rewriteJs(code, scriptUrl, sink, options), refs: sink.refs };
}
