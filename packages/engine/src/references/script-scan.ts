/**
 * What a script could do that the copy needs a render for, read from its source without running
 * it. Deliberately conservative — a token in a comment or string counts — because a wrong "no"
 * loses content while a wrong "yes" only costs one sample render of the page's template.
 *
 * 'auto' rendering uses it to skip Chromium for templates whose scripts can do none of it
 * (analytics queues, globals, class toggles): see docs/engine.md, step 4.
 */
export type ScriptAbility =
  /** Loads files the static tier may not see: data, code, workers, images, fonts, style sheets. */
  | 'requests'
  /** Changes what a visitor sees: text, elements, images, shadow roots, style sheets, canvases. */
  | 'visual'
  /**
   * Routes on the client: the History API. Hash listeners are left out: scroll-spies and tabs use
   * them, and a hash router builds its views with code the other abilities catch.
   */
  | 'routing'
  /** Builds code at run time or uses a library that renders: could do any of the above. */
  | 'code';

const TOKENS: Record<ScriptAbility, string[]> = {
  requests: [
    'fetch\\s*\\(',
    'XMLHttpRequest',
    'EventSource',
    'WebSocket',
    'importScripts',
    '\\bimport\\b',
    '\\brequire\\s*\\(',
    'Worker\\s*\\(',
    'Image\\s*\\(',
    'FontFace',
    // URLs set on elements (an image, a script, a style sheet), or styles that can load an image.
    'setAttribute',
    '\\.(?:src|srcset|href|poster)\\s*=(?!=)',
    'backgroundImage',
    '\\.style\\s*(?:=(?!=)|\\.background)',
    'cssText',
    'setProperty',
  ],
  visual: [
    'innerHTML',
    'outerHTML',
    'innerText',
    'outerText',
    'textContent',
    'nodeValue',
    'insertAdjacent',
    'appendChild',
    'insertBefore',
    'replaceChild',
    'replaceWith',
    'createElement',
    'createTextNode',
    'createContextualFragment',
    'cloneNode',
    'importNode',
    'adoptNode',
    'attachShadow',
    'customElements',
    'setHTML',
    'DOMParser',
    'document\\s*\\.\\s*write',
    '\\.(?:append|prepend|before|after|html|text|load)\\s*\\(',
    'insertRule',
    'adoptedStyleSheets',
    'CSSStyleSheet',
    'getContext',
  ],
  routing: ['pushState', 'replaceState', 'popstate'],
  code: [
    '\\beval\\b',
    'Function\\s*\\(',
    'set(?:Timeout|Interval)\\s*\\(\\s*["\'`]',
    // Anything reached through a computed property of document or window.
    '\\b(?:document|window|globalThis|self)\\s*\\[',
    '\\$\\s*\\(',
    'jQuery',
    'React',
    'Vue',
    'angular',
    'svelte',
    'preact',
    'hydrat',
    '\\brender\\s*\\(',
  ],
};

const ABILITIES = Object.keys(TOKENS) as ScriptAbility[];
const PATTERNS = new Map(ABILITIES.map((a) => [a, new RegExp(TOKENS[a].join('|'))]));
const ANY = new RegExp(ABILITIES.map((a) => TOKENS[a].join('|')).join('|'));

/** What the script could do, in a fixed order; empty when it can do nothing the copy needs. */
export function scriptAbilities(code: string): ScriptAbility[] {
  if (!ANY.test(code)) return [];
  return ABILITIES.filter((a) => PATTERNS.get(a)!.test(code));
}

/** Whether the script could request files, change what a visitor sees or route on the client. */
export function scriptMayBuildContent(code: string): boolean {
  return ANY.test(code);
}

/** The union of two ability lists, in the fixed order. */
export function mergeAbilities(a: readonly ScriptAbility[], b: readonly ScriptAbility[]) {
  return ABILITIES.filter((x) => a.includes(x) || b.includes(x));
}
