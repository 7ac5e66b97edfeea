import { parseFragment, serialize } from 'parse5';
import { isElement } from './html.js';
import type { Node, ParentNode } from './html.js';

const DROPPED = new Set([
  'script',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'base',
  'meta',
  'link',
  'noscript',
  'template',
]);
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'poster',
  'data',
  'cite',
  'background',
  'xlink:href',
  'srcset',
]);

/** No script-running or document-carrying schemes (the contract checks plans the same way). */
export function isSafeUrl(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  const squeezed = value.replace(/[\u0000-\u0020]/g, '').toLowerCase();
  if (/^(?:javascript|vbscript):/.test(squeezed)) return false;
  if (squeezed.startsWith('data:')) return squeezed.startsWith('data:image/');
  return true;
}

function clean(parent: ParentNode): void {
  parent.childNodes = parent.childNodes.filter((node: Node) => {
    if (!isElement(node)) return node.nodeName !== '#comment';
    if (DROPPED.has(node.tagName.toLowerCase())) return false;
    node.attrs = node.attrs.filter((a) => {
      const name = (a.prefix ? `${a.prefix}:${a.name}` : a.name).toLowerCase();
      if (name.startsWith('on') || name === 'srcdoc') return false;
      if (URL_ATTRIBUTES.has(name) && !isSafeUrl(a.value)) return false;
      return !(name === 'style' && /expression\s*\(|javascript:|behavior\s*:/i.test(a.value));
    });
    clean(node);
    return true;
  });
}

/**
 * An HTML snippet safe to insert into a page: scripts, frames, plugins, `<base>`, `<meta>`,
 * `<link>`, event handlers and javascript: addresses are dropped. The snippet is new content, so it
 * is re-serialized (the page around it is not).
 */
export function sanitizeSnippet(html: string): string {
  const fragment = parseFragment(html);
  clean(fragment);
  return serialize(fragment);
}
