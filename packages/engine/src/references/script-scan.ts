/**
 * Whether a script could put text on the page: insert or rewrite DOM content, load data or more
 * code, or run code built at run time. Deliberately conservative — a token in a comment or string
 * counts — because a wrong "no" loses content while a wrong "yes" only costs a sample render.
 *
 * 'auto' rendering uses it to skip Chromium for pages whose scripts cannot make the rendered text
 * longer than the static text (analytics flags, globals, class toggles): see docs/engine.md.
 */
const BUILDS_OR_LOADS = new RegExp(
  [
    // DOM content
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
    // data and code loading
    'fetch\\s*\\(',
    'XMLHttpRequest',
    'EventSource',
    'WebSocket',
    'importScripts',
    '\\bimport\\b',
    '\\brequire\\s*\\(',
    'Worker\\s*\\(',
    // code built at run time, and anything reached through a computed property of document/window
    '\\beval\\b',
    'Function\\s*\\(',
    'set(?:Timeout|Interval)\\s*\\(\\s*["\'`]',
    '\\b(?:document|window|globalThis|self)\\s*\\[',
    // libraries that render
    '\\$\\s*\\(',
    'jQuery',
    'React',
    'Vue',
    'angular',
    'svelte',
    'preact',
    'hydrat',
    '\\brender\\s*\\(',
  ].join('|'),
);

export function scriptMayBuildContent(code: string): boolean {
  return BUILDS_OR_LOADS.test(code);
}
