import { isSafeUrl, URL_ATTRIBUTES as PLAN_URL_ATTRIBUTES } from '@mirror/contract/url-safety';
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
/** URL attributes of an inserted snippet: the plan's list plus `srcset`. */
const URL_ATTRIBUTES = new Set([...PLAN_URL_ATTRIBUTES, 'srcset']);

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
