import { createHash } from 'node:crypto';
import type { Manifest, PageForm, PageFormField } from '../types.js';
import { createUrlMapper, type UrlMapper } from '../url-map.js';
import { OWN_FIELD_PREFIX } from './forms.js';

/**
 * A site's forms, as its visitors meet them: the forms of every page of a copy grouped by where
 * they submit and their id, so the newsletter form in a footer of 300 pages is one form
 * (docs/forms.md). Pure: the sites host reads them from a version's manifest to take submissions,
 * the owner's Forms tab lists them.
 */
export interface SiteForm {
  /** Stable across versions: from the copy path it posts to and its id (12 characters). */
  key: string;
  /** The form's id on its pages (`PageForm.id`). */
  id: string;
  /**
   * What the owner calls it: its id when the page gave it one (`id` or `name`), else its
   * button's words, else its kind (a form `form-2` reads "Send" or "contact").
   */
  label: string;
  /**
   * The path and query the copy posts it to (the action as the copy rewrote it), or '' when it
   * submits to another site (a form service keeps its own address) or to no URL.
   */
  actionPath: string;
  /** The action as the original wrote it, resolved (absolute URL). */
  action: string;
  method: PageForm['method'];
  enctype: PageForm['enctype'];
  kind: PageForm['kind'];
  /**
   * The sites host takes its submissions: it submits to the copy's own site and is no login or
   * payment form, and it posts; or it has no `method` and its page's script sends it (with
   * `fetch`): a form the render saw a script handle (`scriptSubmits`), of any kind but search,
   * or, where no render told, a contact or newsletter form (a filter, a sort or an app's input
   * that never posts is not listed as taken). A form the copy refuses (`refusal`) answers with
   * the notice that it is not available on the copy, and nothing is kept.
   */
  captured: boolean;
  /** A script of one of its pages handles it (`PageForm.scriptSubmits`). */
  scriptSubmits?: true;
  refusal?: PageForm['refusal'];
  service?: PageForm['service'];
  submitLabel?: string;
  fields: PageFormField[];
  /** Copy paths of the pages that hold it, in manifest order, at most `SITE_FORM_PAGES`. */
  pages: string[];
  /** All the pages that hold it. */
  pageCount: number;
}

/** Pages listed per form (the count has them all). */
export const SITE_FORM_PAGES = 20;
/** Forms kept per site: a site that makes a form per product page has no more owner-side forms. */
export const SITE_FORMS_MAX = 500;

/** The field the copy adds to each captured form: its key (`markForms`). */
export const FORM_KEY_FIELD = `${OWN_FIELD_PREFIX}form`;
/** The honeypot the copy adds to each captured form: people never see it, bots fill it. */
export const HONEYPOT_FIELD = `${OWN_FIELD_PREFIX}hp`;
/** Milliseconds from the page's load to its submission, set by the copy's forms script. */
export const ELAPSED_FIELD = `${OWN_FIELD_PREFIX}t`;

/** Every form of a copy's pages, grouped (`SiteForm`), in the order the pages list them. */
export function siteFormsOf(manifest: Manifest): SiteForm[] {
  const mapper = createUrlMapper(manifest.startUrl);
  const byKey = new Map<string, SiteForm>();
  for (const entry of manifest.entries) {
    if (!entry.forms) continue;
    const pagePath = entry.path;
    for (const form of entry.forms) {
      const actionPath = copyActionPath(form.action, mapper);
      const key = formKey(actionPath || form.action, form.id);
      let site = byKey.get(key);
      if (site === undefined) {
        if (byKey.size >= SITE_FORMS_MAX) continue;
        site = {
          key,
          id: form.id,
          label: /^form-\d+(?:-\d+)?$/.test(form.id) ? (form.submitLabel ?? form.kind) : form.id,
          actionPath,
          action: form.action,
          method: form.method,
          enctype: form.enctype,
          kind: form.kind,
          captured: isCaptured(form, actionPath),
          ...(form.refusal ? { refusal: form.refusal } : {}),
          ...(form.service ? { service: form.service } : {}),
          ...(form.submitLabel ? { submitLabel: form.submitLabel } : {}),
          fields: form.fields,
          pages: [],
          pageCount: 0,
        };
        byKey.set(key, site);
      }
      if (form.scriptSubmits && !site.scriptSubmits) {
        // A page whose render saw its script (the others may not have been rendered).
        site.scriptSubmits = true;
        site.captured ||= isCaptured(form, actionPath);
      }
      site.pageCount++;
      if (site.pages.length < SITE_FORM_PAGES && !site.pages.includes(pagePath))
        site.pages.push(pagePath);
    }
  }
  return [...byKey.values()];
}

/** Whether the sites host takes a form's submissions (`SiteForm.captured`). */
export function isCaptured(form: PageForm, actionPath: string): boolean {
  if (!form.capturable || actionPath === '') return false;
  if (form.method === 'POST') return true;
  if (form.method !== 'GET') return false;
  // No `method`: a GET in the browser's eyes, sent by the page's script in fact.
  if (form.kind === 'contact' || form.kind === 'newsletter') return true;
  return (
    form.scriptSubmits === true &&
    form.kind !== 'search' &&
    form.kind !== 'login' &&
    form.kind !== 'payment'
  );
}

/** The copy path a form's action posts to on the copy, or '' when it leaves the site. */
export function copyActionPath(action: string, mapper: UrlMapper): string {
  let url: URL;
  try {
    url = new URL(action);
  } catch {
    return '';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return '';
  return mapper.isOwn(url) ? mapper.toCopyPath(url) : '';
}

/** A form's key (`SiteForm.key`) from where it posts on the copy (else its action) and its id. */
export function formKey(where: string, id: string): string {
  return createHash('sha256').update(`${where}#${id}`).digest('base64url').slice(0, 12);
}

/** What a POST to the copy tells about the form it comes from. */
export interface FormPost {
  /** Its path and query on the copy's host. */
  path: string;
  /** The names of the fields it sent, in order. */
  fields: readonly string[];
  /** The `FORM_KEY_FIELD` it sent, if any. */
  key?: string;
  /** The path of the copy's page it was sent from (its Referer on the copy's host). */
  fromPage?: string;
}

/**
 * The form a POST to the copy submits, or undefined when it is none of the site's forms (a
 * script's API call the copy cannot answer). By the key the copy put in the form; else by its
 * action (the page it came from and the fields it sent decide between forms posting to one
 * address, as Netlify's forms all post to their page); else, for a form its page's script sends
 * elsewhere with `fetch`, by the fields of the page's forms: at least two of the names sent, and
 * most of them, are the form's.
 */
export function matchSiteForm(forms: readonly SiteForm[], post: FormPost): SiteForm | undefined {
  if (post.key) {
    const keyed = forms.find((f) => f.key === post.key);
    if (keyed) return keyed;
  }
  const pathOnly = post.path.split('?')[0]!;
  const sent = post.fields.filter((name) => !name.startsWith(OWN_FIELD_PREFIX));
  const byAction = forms.filter(
    (f) => f.method === 'POST' && (f.actionPath === post.path || f.actionPath === pathOnly),
  );
  if (byAction.length > 0) return best(byAction, sent, post.fromPage);
  if (post.fromPage === undefined) return undefined;
  const onPage = forms.filter((f) => f.pages.includes(post.fromPage!));
  const names = new Set(sent);
  const candidates = onPage.filter((f) => {
    const shared = f.fields.filter((field) => field.name !== '' && names.has(field.name)).length;
    return shared >= 2 && shared * 2 >= names.size;
  });
  return candidates.length > 0 ? best(candidates, sent, post.fromPage) : undefined;
}

/**
 * The form whose fields are most like those sent (names in common count, names only one side has
 * count against), the sending page's first on a tie.
 */
function best(forms: SiteForm[], sent: readonly string[], fromPage: string | undefined): SiteForm {
  const names = new Set(sent);
  let winner = forms[0]!;
  let winnerScore = -Infinity;
  for (const form of forms) {
    const own = new Set(form.fields.filter((f) => f.name !== '' && !f.honeypot).map((f) => f.name));
    let shared = 0;
    for (const name of own) if (names.has(name)) shared++;
    let score = 4 * shared - 2 * (own.size - shared) - 2 * (names.size - shared);
    if (fromPage !== undefined && form.pages.includes(fromPage)) score += 1;
    if (score > winnerScore) {
      winner = form;
      winnerScore = score;
    }
  }
  return winner;
}

/** Words of a thank-you page's address, in the languages the app speaks and a few more. */
const THANK_YOU =
  /(?:^|[/_.-])(?:thank[s-]?(?:[_-]?you)?|thankyou|merci|danke|gracias|obrigad[oa]|grazie|bedankt|dank-?u|spasibo|arigato|shukran|success|submitted|message-sent|form-sent|confirmation)(?:[/_.-]|$)/i;

/**
 * The site's own thank-you page the crawl saw, or undefined when it has none: one in the folder of
 * the form's action or first page, or in a folder above it (`/contact/merci.html` thanks for
 * `/contact/send.php`, `/thank-you/` for any form; `/shop/thanks` for none outside `/shop/`), the
 * nearest first.
 */
export function thankYouPageOf(manifest: Manifest, form: SiteForm): string | undefined {
  const near = (form.actionPath || form.pages[0] || '/').split('?')[0]!;
  let found: string | undefined;
  let foundDepth = -1;
  for (const entry of manifest.entries) {
    if (entry.status !== 200 || !entry.contentType.includes('html')) continue;
    const path = entry.path.split('?')[0]!;
    if (!THANK_YOU.test(path)) continue;
    // A page `/thank-you/` (or `/thank-you/index.html`) belongs to the folder holding its own.
    const folder = folderOf(path.replace(/\/(?:index\.html?)?$/, ''));
    if (!near.startsWith(folder) || folder.length <= foundDepth) continue;
    found = entry.path;
    foundDepth = folder.length;
  }
  return found;
}

function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1);
}

/** Search addresses kept per site (a site has one or two search forms; a hostile one, more). */
const SITE_SEARCHES_MAX = 20;

/**
 * The site's own search forms (`GET` forms of kind `search` submitting to the site): the path
 * each submits to on the copy, and the name of the field its words go in (`q`, WordPress's `s`).
 * The sites host answers such an address from its index of the copy's pages when the crawl did
 * not capture that results page (docs/forms.md, "Site search").
 */
export function siteSearchesOf(manifest: Manifest): Map<string, string> {
  const mapper = createUrlMapper(manifest.startUrl);
  const searches = new Map<string, string>();
  for (const entry of manifest.entries) {
    for (const form of entry.forms ?? []) {
      if (form.kind !== 'search' || form.method !== 'GET') continue;
      const path = copyActionPath(form.action, mapper).split('?')[0]!;
      const field =
        form.fields.find((f) => f.holds === 'search' || f.type === 'search') ??
        form.fields.find((f) => f.type === 'text');
      if (path === '' || !field?.name || searches.has(path)) continue;
      searches.set(path, field.name);
      if (searches.size >= SITE_SEARCHES_MAX) return searches;
    }
  }
  return searches;
}
