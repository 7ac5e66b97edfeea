import { unquote } from './instruction-text.js';
import { emailsIn, phonesIn, postalAddressIn } from './instruction-values.js';
import type { PageOutline } from './outline.js';

/**
 * What the words of an instruction name on the page ("the logo", "the Subscribe button", "the
 * cookie banner", "the phone number"), found in the page outline.
 */

export type Resolved = { selector: string; withText?: string; pages?: string[] } | { note: string };

export const LANDMARKS: Record<string, string> = {
  footer: 'footer',
  'site footer': 'footer',
  'page footer': 'footer',
  'bottom bar': 'footer',
  header: 'header',
  'site header': 'header',
  'page header': 'header',
  nav: 'nav',
  navigation: 'nav',
  navbar: 'nav',
  'nav bar': 'nav',
  'navigation bar': 'nav',
  'navigation menu': 'nav',
  menu: 'nav',
  'menu bar': 'nav',
  'main menu': 'nav',
  'top menu': 'nav',
  'top bar': 'nav',
  sidebar: 'aside',
  'side bar': 'aside',
  main: 'main',
  'main content': 'main',
  page: 'body',
  body: 'body',
  'whole page': 'body',
  'entire page': 'body',
  site: 'body',
};

export const KIND_WORDS =
  /\b(?:section|block|area|part|module|panel|box|element|container|widget|component|div|bit|thing|stuff)s?\b/gi;

const TYPED_TARGETS: Record<string, string> = {
  button: 'a, button',
  link: 'a',
  heading: 'h1, h2, h3, h4, h5, h6',
  paragraph: 'p',
};

/** Words that name the kind of a thing more than the thing: optional when others match. */
const WEAK_NOUNS = new Set([
  'banner',
  'bar',
  'notice',
  'popup',
  'pop-up',
  'modal',
  'overlay',
  'dialog',
  'window',
  'message',
  'alert',
  'strip',
  'form',
  'signup',
  'sign-up',
]);

/** Other names sites give the same thing (`banner` is often a `masthead` or a `hero`). */
const SYNONYMS: Record<string, string[]> = {
  banner: ['hero', 'masthead', 'jumbotron', 'announcement', 'promo'],
  hero: ['masthead', 'jumbotron', 'banner', 'splash'],
  popup: ['modal', 'pop-up', 'overlay', 'dialog', 'lightbox'],
  'pop-up': ['popup', 'modal', 'overlay', 'dialog'],
  modal: ['popup', 'dialog', 'overlay'],
  cookie: ['consent', 'gdpr'],
  consent: ['cookie', 'gdpr'],
  cookies: ['cookie', 'consent', 'gdpr'],
  newsletter: ['subscribe', 'subscription', 'mailing', 'signup'],
  subscribe: ['newsletter', 'subscription'],
  signup: ['newsletter', 'subscribe', 'register'],
  sidebar: ['aside', 'side'],
  testimonials: ['testimonial', 'reviews', 'quotes'],
  reviews: ['testimonial', 'review'],
  announcement: ['promo', 'notice', 'topbar'],
  contact: ['contact'],
};

const STOP_WORDS = new Set(['and', 'of', 'the', 'with', 'on', 'in', 'our', 'my', 'a', 'an', 'at']);

export function isPathSelector(selector: string): boolean {
  return selector.includes(':nth-of-type') || selector.includes(' > ');
}

interface Candidate {
  selector: string;
  tag: string;
  id?: string;
  classes?: string[];
  heading?: string;
}

/** An outline selector's anchor (`div.cookie-banner` of `div.cookie-banner > p`) as a candidate. */
function anchorOf(selector: string): Candidate | undefined {
  const first = selector.split(' > ')[0] ?? '';
  const m = /^([a-z][a-z0-9]*)?(?:#([\w-]+)|\.([\w-]+))$/i.exec(first);
  if (!m) return undefined;
  const c: Candidate = { selector: first, tag: (m[1] ?? 'div').toLowerCase() };
  if (m[2]) c.id = m[2];
  if (m[3]) c.classes = [m[3]];
  return c;
}

function candidates(outline: PageOutline): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  for (const s of outline.sections) {
    seen.add(s.selector);
    out.push(s);
  }
  const selectors = [
    ...outline.texts.map((t) => t.selector),
    ...outline.headings.map((h) => h.selector),
    ...outline.links.map((l) => l.selector),
  ];
  for (const selector of selectors) {
    const c = anchorOf(selector);
    if (!c || seen.has(c.selector) || /^(?:a|p|h[1-6]|span|li|img|button)$/.test(c.tag)) continue;
    seen.add(c.selector);
    out.push(c);
  }
  return out;
}

function wordScore(w: string, s: Candidate): number {
  const forms = [w, w.length > 4 ? w.replace(/s$/, '') : w];
  const direct = Math.max(
    ...forms.map((f) =>
      Math.max(
        s.id?.toLowerCase().includes(f) ? 4 : 0,
        s.classes?.some((c) => c.toLowerCase().includes(f)) ? 3 : 0,
        s.tag === f || LANDMARKS[f] === s.tag ? 3 : 0,
        s.heading?.toLowerCase().includes(f) ? 1 : 0,
      ),
    ),
  );
  if (direct > 0) return direct;
  for (const syn of SYNONYMS[w] ?? []) {
    const via = Math.max(
      s.id?.toLowerCase().includes(syn) ? 3 : 0,
      s.classes?.some((c) => c.toLowerCase().includes(syn)) ? 2 : 0,
      s.tag === syn ? 2 : 0,
    );
    if (via > 0) return via;
  }
  return 0;
}

/** Things a banner or a popup can be that a person names when they mean them. */
const DISTINCT_KINDS = ['cookie', 'consent', 'gdpr', 'newsletter', 'subscribe', 'popup', 'modal'];

/** How many such things a candidate is that the words do not name ("the banner" ≠ cookie banner). */
function otherKinds(words: string[], c: Candidate): number {
  const named = new Set(words.flatMap((w) => [w, ...(SYNONYMS[w] ?? [])]));
  const own = `${c.id ?? ''} ${(c.classes ?? []).join(' ')}`.toLowerCase();
  return DISTINCT_KINDS.filter((k) => own.includes(k) && !named.has(k)).length;
}

/** The best part of the page for some words, or undefined. */
function bestCandidate(words: string[], outline: PageOutline): Candidate | undefined {
  const strong = words.filter((w) => !WEAK_NOUNS.has(w));
  let best: { score: number; c: Candidate } | undefined;
  for (const c of candidates(outline)) {
    let score = 0;
    let strongMatched = 0;
    let missing = false;
    for (const w of words) {
      const ws = wordScore(w, c);
      score += ws;
      if (ws > 0 && !WEAK_NOUNS.has(w)) strongMatched++;
      if (ws === 0 && (!WEAK_NOUNS.has(w) || strong.length === 0)) missing = true;
    }
    if (missing || (strong.length > 0 && strongMatched === 0)) continue;
    score -= 2 * otherKinds(words, c);
    if (!best || score > best.score) best = { score, c };
  }
  return best?.c;
}

/** Finds the element a phrase names ("the newsletter section", "footer", "the button 'Buy'"). */
export function resolveElement(phrase: string, outline: PageOutline | undefined): Resolved {
  const { text, quoted } = unquote(phrase);
  const typed = /^(?:the\s+)?(button|link|heading|paragraph)\s+(.+)$/i.exec(text);
  if (typed && unquote(typed[2] ?? '').quoted) {
    const selector = TYPED_TARGETS[(typed[1] ?? '').toLowerCase()] ?? '*';
    return { selector, withText: unquote(typed[2] ?? '').text };
  }
  const named = /^(?:the\s+|our\s+|my\s+)?(.+?)\s+(button|link)$/i.exec(text);
  if (named && !quoted && !/\b(?:all|every|each|the)\b/i.test(named[1] ?? '')) {
    const label = unquote(named[1] ?? '').text;
    const kind = (named[2] ?? '').toLowerCase();
    const exact = outline ? findLabel(outline, label, kind === 'button') : undefined;
    if (outline && exact === undefined && !/^(?:main|primary|first|cta)$/i.test(label)) {
      return { note: `There is no '${label}' ${kind} on the page.` };
    }
    if (exact !== undefined || !outline) {
      return { selector: TYPED_TARGETS[kind] ?? 'a', withText: exact ?? label };
    }
  }
  const name = text
    .toLowerCase()
    .replace(quoted ? /^$/ : /["“”‘’«»`]|(?:^|\s)'|'(?=\s|$)/g, ' ')
    .trim()
    .replace(/^(?:the|a|an|this|that|our|my|all\s+the|all)\s+/, '')
    .replace(/\s+/g, ' ')
    .trim();
  const core = quoted
    ? name
    : name
        .replace(KIND_WORDS, ' ')
        .replace(/\bsign[\s-]?up\b/g, 'signup')
        .replace(/\s+/g, ' ')
        .trim();
  if (!core) return { note: `'${phrase}' does not name a part of the page.` };
  const landmark = LANDMARKS[core] ?? LANDMARKS[name];
  if (outline) {
    const words = core.split(' ').filter((w) => w.length > 1 && !STOP_WORDS.has(w));
    const best = words.length > 0 ? bestCandidate(words, outline) : undefined;
    if (best) {
      const resolved: Resolved = { selector: best.selector };
      if (isPathSelector(best.selector) && outline.path !== undefined) {
        resolved.pages = [outline.path];
      }
      return resolved;
    }
    if (landmark) return { selector: landmark };
    return { note: `No part of the page matches '${core}'.` };
  }
  if (landmark) return { selector: landmark };
  const slug = core.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (slug.length < 3) return { note: `'${phrase}' does not name a part of the page.` };
  return { selector: `[id*="${slug}" i], [class*="${slug}" i]` };
}

const BUTTONISH = /(?:^|[.#\s-])(?:btn|button|cta)(?:$|[\s.#:>[-])|^button\b|> button\b/i;
const NOT_A_BUTTON = /toggler|toggle|hamburger|close|search|menu-btn|skip/i;

/** The buttons of a page, by their texts, the main call to action first. */
export function buttonsOf(outline: PageOutline): string[] {
  const links = outline.links
    .filter((l) => BUTTONISH.test(l.selector) && !NOT_A_BUTTON.test(l.selector) && l.text)
    .map((l) => l.text);
  const buttons = outline.texts
    .filter((t) => /(?:^|> )button(?:$|[.:#[])/.test(t.selector) && !NOT_A_BUTTON.test(t.selector))
    .map((t) => t.text)
    .filter((t) => !/^(?:menu|close|×|x|search|☰)$/i.test(t.trim()));
  return [...new Set([...links, ...buttons])];
}

/** A link's or button's exact text on the page for the words a person used ("subscribe"). */
export function findLabel(
  outline: PageOutline,
  label: string,
  button: boolean,
): string | undefined {
  const want = label.toLowerCase().replace(/\s+/g, ' ').trim();
  const texts = [
    ...(button ? buttonsOf(outline) : []),
    ...outline.links.map((l) => l.text),
    ...outline.texts.filter((t) => /(?:^|> )button/.test(t.selector)).map((t) => t.text),
  ].filter(Boolean);
  const clean = (t: string) =>
    t
      .toLowerCase()
      .replace(/[^\p{L}\p{N}' ]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  return (
    texts.find((t) => t.toLowerCase().replace(/\s+/g, ' ').trim() === want) ??
    texts.find((t) => clean(t) === clean(want)) ??
    texts.find((t) => clean(t).startsWith(`${clean(want)} `))
  );
}

const HOME_HREFS = new Set(['/', './', 'index.html', '/index.html', '#', '#top', '#page-top']);
const BRANDISH =
  /(?:^|[.#\s-])(?:navbar-brand|brand|logo|site-title|site-name|site-logo|site-branding|custom-logo-link|wordmark)/i;

/** The site's name as written at the top of the page (a text logo), with its selector. */
export function logoTextOf(outline: PageOutline): { selector: string; text: string } | undefined {
  // A link whose only "text" is its picture's alt is a picture logo.
  const alts = new Set(outline.images.map((i) => i.alt?.trim()).filter(Boolean));
  const brand =
    outline.links.find(
      (l) => BRANDISH.test(l.selector) && l.text.trim() && !alts.has(l.text.trim()),
    ) ??
    outline.texts.find((t) => BRANDISH.test(t.selector) && t.text.trim()) ??
    outline.headings.find((h) => BRANDISH.test(h.selector) && h.text.trim());
  if (brand) return { selector: brand.selector, text: brand.text.trim() };
  const home = outline.links.find(
    (l) =>
      HOME_HREFS.has(l.href.trim()) &&
      l.text.trim() &&
      !alts.has(l.text.trim()) &&
      !/^(?:home|start|top|back to top|menu)$/i.test(l.text.trim()),
  );
  return home ? { selector: home.selector, text: home.text.trim() } : undefined;
}

export function hasLogoImage(outline: PageOutline): boolean {
  return outline.images.some((i) => i.logo);
}

/** The site's name: the text logo, else the first part of the title ("Clean Blog - Start…"). */
export function siteNameOf(outline: PageOutline): string | undefined {
  const logo = logoTextOf(outline);
  if (logo) return logo.text;
  const title = outline.title?.split(/\s+[|–—·:-]\s+/)[0]?.trim();
  return title || undefined;
}

export function mainHeadingOf(
  outline: PageOutline,
): { selector: string; text: string } | undefined {
  return outline.headings.find((h) => h.level === 1);
}

const TAGLINE =
  /(?:^|[.#\s-])(?:sub-?heading|sub-?title|subheader|tagline|tag-line|slogan|strapline|lead|site-description|hero-text|hero-subtitle|intro-text)/i;

/** The line under the main heading (a `.subheading`, `.tagline`, `.lead`…). */
export function taglineOf(outline: PageOutline): { selector: string; text: string } | undefined {
  return (
    outline.texts.find((t) => TAGLINE.test(t.selector)) ??
    outline.headings.find((h) => h.level > 1 && TAGLINE.test(h.selector))
  );
}

/** Phone numbers on the page: as written, and the `tel:` links. */
export function phonesOf(outline: PageOutline): { texts: string[]; hrefs: string[] } {
  const texts = new Set<string>();
  const hrefs = new Set<string>();
  for (const t of [...outline.texts, ...outline.links]) {
    for (const p of phonesIn(t.text)) texts.add(p);
  }
  for (const l of outline.links) if (/^tel:/i.test(l.href.trim())) hrefs.add(l.href.trim());
  return { texts: [...texts], hrefs: [...hrefs] };
}

/** E-mail addresses on the page: as written, and the `mailto:` links. */
export function emailsOf(outline: PageOutline): { texts: string[]; hrefs: string[] } {
  const texts = new Set<string>();
  const hrefs = new Set<string>();
  for (const t of [...outline.texts, ...outline.links]) {
    for (const e of emailsIn(t.text)) texts.add(e);
  }
  for (const l of outline.links) if (/^mailto:/i.test(l.href.trim())) hrefs.add(l.href.trim());
  return { texts: [...texts], hrefs: [...hrefs] };
}

/** The postal address: an `<address>` element, else a street address in a text. */
export function postalAddressOf(
  outline: PageOutline,
): { selector: string; text: string } | { text: string } | undefined {
  const element = outline.texts.find((t) => /(?:^|> )address(?:$|[.:#[])/.test(t.selector));
  if (element) return { selector: element.selector, text: element.text };
  for (const t of outline.texts) {
    const found = postalAddressIn(t.text);
    if (found) return { text: found };
  }
  return undefined;
}

/** Layout and utility classes (Bootstrap, Tailwind…): no name for a part of the page. */
export const UTILITY_CLASS =
  /^(?:col|row|container|wrapper|wrap|inner|content|px|py|mx|my|mt|mb|ms|me|pt|pb|ps|pe|p|m|d|flex|justify|align|text|bg|border|g|gx|gy|w|h|position|fst|fw|small|active|show|fade|collapse|clearfix|is|has|js|u|l|sm|md|lg|xl)(?:-|$)/i;

/** Names of the page's parts a person could use ("the newsletter section"), for suggestions. */
export function partNames(outline: PageOutline): string[] {
  const names: string[] = [];
  for (const c of candidates(outline)) {
    const words = (c.id ?? c.classes?.[0] ?? '')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .replace(/[-_]+/g, ' ')
      .toLowerCase()
      .trim();
    const name = c.id ?? c.classes?.[0] ?? '';
    if (words && !UTILITY_CLASS.test(name)) names.push(words);
    else if (['footer', 'header', 'nav', 'aside', 'main'].includes(c.tag)) names.push(c.tag);
  }
  return [...new Set(names)];
}

/** The text as the page spells it when only its letter case differs ("clean blog" → "Clean Blog"). */
export function pageSpelling(find: string, outline: PageOutline): string {
  const texts = [
    outline.title ?? '',
    outline.description ?? '',
    ...outline.headings.map((h) => h.text),
    ...outline.texts.map((t) => t.text),
    ...outline.links.map((l) => l.text),
    ...outline.images.map((i) => i.alt ?? ''),
  ];
  if (texts.some((t) => t.includes(find))) return find;
  const lower = find.toLowerCase();
  for (const t of texts) {
    const at = t.toLowerCase().indexOf(lower);
    if (at >= 0 && t.slice(at, at + find.length).toLowerCase() === lower) {
      return t.slice(at, at + find.length);
    }
  }
  return find;
}
