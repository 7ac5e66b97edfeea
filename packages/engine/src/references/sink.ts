import type { Ref, RefKind, RefVisitor } from './types.js';

const ASCII_WS = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g;

export function trimAscii(value: string): string {
  return value.replace(ASCII_WS, '');
}

/** Resolves a reference; undefined for empty, fragment-only, unparsable or non-http(s) references. */
export function resolveRef(raw: string, base: string): string | undefined {
  return resolveUrl(raw, base)?.href;
}

/** `resolveRef`, parsed. */
function resolveUrl(raw: string, base: string): URL | undefined {
  if (raw === '' || raw.startsWith('#')) return undefined;
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (raw.includes('#')) url.hash = '';
  return url;
}

/**
 * Collects references and asks the visitor for replacements. Scoped copies share the list and the
 * counter, and prefix the context (`noscript img[src]`).
 */
export class RefSink {
  constructor(
    private readonly visitor: RefVisitor,
    readonly refs: Ref[] = [],
    private readonly prefix = '',
    private readonly counter = { replaced: 0 },
  ) {}

  scoped(prefix: string): RefSink {
    return new RefSink(
      this.visitor,
      this.refs,
      this.prefix ? `${this.prefix} ${prefix}` : prefix,
      this.counter,
    );
  }

  /** How many times the visitor returned a replacement (even one equal to the original). */
  get replaced(): number {
    return this.counter.replaced;
  }

  /**
   * Visits one reference. Returns the replacement for the trimmed value (fragment carried over), or
   * undefined when it is kept, skipped or not a fetchable URL.
   */
  visit(value: string, base: string, kind: RefKind, context: string): string | undefined {
    const raw = trimAscii(value);
    const url = resolveUrl(raw, base);
    if (url === undefined) return undefined;
    return this.visitResolved(url.href, raw, kind, context, url);
  }

  /**
   * Visits a reference resolved by the caller (an absolute http(s) URL without fragment; `parsed`,
   * the same parsed, when the caller has it).
   */
  visitResolved(
    url: string,
    raw: string,
    kind: RefKind,
    context: string,
    parsed?: URL,
  ): string | undefined {
    const ref: Ref = {
      url,
      raw,
      kind,
      context: this.prefix ? `${this.prefix} ${context}` : context,
    };
    this.refs.push(ref);
    let out = this.visitor(ref, parsed);
    if (out === undefined) return undefined;
    this.counter.replaced++;
    const hash = raw.indexOf('#');
    if (hash !== -1 && !out.includes('#')) out += raw.slice(hash);
    return out;
  }
}
