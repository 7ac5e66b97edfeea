import type { ScriptAbility } from './script-scan.js';

/** What a reference points at, as far as the referring document tells. */
export type RefKind =
  | 'page'
  | 'asset'
  | 'stylesheet'
  | 'frame'
  | 'manifest'
  | 'script'
  | 'module'
  | 'font'
  | 'image'
  | 'media';

export interface Ref {
  /** Absolute http(s) URL, resolved against the document base (`<base href>` honoured), without fragment. */
  url: string;
  /** The reference as written (entities/escapes decoded, surrounding whitespace trimmed, fragment kept). */
  raw: string;
  kind: RefKind;
  /** Where it was found, e.g. `img[src]`, `css url()`, `img[srcset]`, `noscript img[src]`. */
  context: string;
}

/**
 * Receives each reference; returns the replacement for `raw`, or undefined to keep it. When `raw`
 * has a `#fragment` and the replacement has none, the fragment is carried over. `url`: `ref.url`
 * parsed, when the reader parsed it (not to be changed), so that the visitor need not parse it again.
 */
export type RefVisitor = (ref: Ref, url?: URL) => string | undefined;

export interface RenderHints {
  /** An SPA mount point (#root, #__next, #app, #__nuxt, #___gatsby, [data-reactroot], <app-root>) is empty. */
  emptyAppRoot: boolean;
  /** A `<noscript>` says the page needs JavaScript. */
  noscriptAsksForJs: boolean;
  /** Executable `<script>` elements (classic, module; not JSON/templates). */
  scriptCount: number;
  /** Absolute URLs of the executable scripts the page loads, in document order. */
  scriptSources: string[];
  /**
   * What the inline executable scripts together could do (`scriptAbilities`): empty when nothing
   * the copy needs a render for. Per-page data in inline scripts does not change it.
   */
  inlineScriptAbilities: ScriptAbility[];
  /**
   * Short inline scripts that load a script from an absolute address (a tag manager's, an analytics
   * or chat snippet): that address and what the snippet could do, kept out of
   * `inlineScriptAbilities` so the render policy can leave out the trackers among them.
   */
  inlineLoaders: { url: string; abilities: ScriptAbility[] }[];
}
