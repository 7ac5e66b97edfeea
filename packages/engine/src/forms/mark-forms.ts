import type { PageForm } from '../types.js';
import type { UrlMapper } from '../url-map.js';
import { findForms, formSpans } from './forms.js';
import {
  copyActionPath,
  ELAPSED_FIELD,
  FORM_KEY_FIELD,
  formKey,
  HONEYPOT_FIELD,
  isCaptured,
} from './site-forms.js';

/** The element the copy adds at the end of each form it takes: no site's CSS names it. */
export const FORM_MARK_TAG = 'mirror-hp';

/**
 * Sets, on every submit of a marked form, its key and the milliseconds since the page loaded, as
 * hidden fields (added then, so the page's DOM is the original's until someone submits). A
 * capturing listener on the document runs before the page's own submit handlers, so a script that
 * sends `new FormData(form)` sends them too.
 */
const SUBMIT_SCRIPT =
  `(function(){if(window.__mirrorForms)return;window.__mirrorForms=1;var t=Date.now();` +
  `document.addEventListener("submit",function(e){var f=e.target,m=f&&f.querySelector&&f.querySelector("${FORM_MARK_TAG}[data-key]");if(!m)return;` +
  `function s(n,v){var i=m.querySelector('input[name="'+n+'"]');if(!i){i=document.createElement("input");i.type="hidden";i.name=n;m.appendChild(i)}i.value=v}` +
  `s("${FORM_KEY_FIELD}",m.getAttribute("data-key"));s("${ELAPSED_FIELD}",String(Date.now()-t))},true)})();`;

/**
 * A page of the copy with each form the sites host takes marked (docs/forms.md, "On the copy"):
 * at its end, out of the page's flow and out of sight, a honeypot field that people never fill
 * and bots do, and its key; the first one carries the script that adds the key and the time to
 * submit on each submission. Forms never closed, and the forms the copy does not take, are left
 * as they are. `pageForms` are the page's forms as `findForms` read them from the page before
 * its rewrite: the rewrite changes attribute values only, so the forms are the same by index.
 */
export function markForms(html: string, pageForms: readonly PageForm[], mapper: UrlMapper): string {
  const marks: { at: number; key: string }[] = [];
  let spans: { start: number; end: number | undefined }[] | undefined;
  for (const form of pageForms) {
    const actionPath = copyActionPath(form.action, mapper);
    if (!isCaptured(form, actionPath)) continue;
    spans ??= formSpans(html);
    const span = spans[form.index];
    if (span?.end === undefined) continue;
    // Marked already (a page edited after its mirror): the mark stays, once.
    if (html.slice(span.start, span.end).includes(`<${FORM_MARK_TAG} `)) continue;
    marks.push({ at: span.end, key: formKey(actionPath, form.id) });
  }
  if (marks.length === 0) return html;
  marks.sort((a, b) => a.at - b.at);
  const scriptThere = html.includes('window.__mirrorForms');
  let out = '';
  let from = 0;
  marks.forEach(({ at, key }, i) => {
    out +=
      html.slice(from, at) +
      `<${FORM_MARK_TAG} data-key="${key}" aria-hidden="true" style="position:absolute!important;left:-10000px!important;top:auto!important;width:1px!important;height:1px!important;overflow:hidden!important">` +
      `<input type="text" name="${HONEYPOT_FIELD}" value="" tabindex="-1" autocomplete="off">` +
      (i === 0 && !scriptThere ? `<script>${SUBMIT_SCRIPT}</script>` : '') +
      `</${FORM_MARK_TAG}>`;
    from = at;
  });
  return out + html.slice(from);
}

/**
 * A page of the copy whose HTML an edit changed (a customization): its forms read again, and the
 * forms the host takes that have no mark yet marked (a newsletter form an edit added works as a
 * captured one). `forms` is undefined for a page without forms, as in a manifest.
 */
export function formsOfEditedPage(
  html: string,
  pageUrl: string,
  mapper: UrlMapper,
): { html: string; forms: PageForm[] | undefined } {
  const forms = findForms(html, pageUrl);
  if (forms.length === 0) return { html, forms: undefined };
  return { html: markForms(html, forms, mapper), forms };
}
