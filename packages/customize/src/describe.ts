import { formsOf } from './apply-plan.js';
import { logoTextOf, taglineOf, UTILITY_CLASS } from './instruction-outline.js';
import { colorLabel } from './instruction-values.js';
import { SIZE_MARKER } from './instruction-builders.js';
import type { PageOutline } from './outline.js';
import type { ColorRole, EditOp, EditPlan } from './types.js';

/**
 * What a plan will do, in plain words for the site's owner, before it is applied: one line per op
 * (`lines[i]` describes `plan.ops[i]`). Never a CSS selector, a setting or an op name: parts of
 * the page are named as a person would ("the footer", the "Subscribe" button, the main heading),
 * with the page outlines when given.
 */
export function describePlan(
  plan: EditPlan,
  outlines?: PageOutline | readonly PageOutline[],
): string[] {
  const list: readonly PageOutline[] =
    outlines === undefined ? [] : Array.isArray(outlines) ? outlines : [outlines as PageOutline];
  return plan.ops.map((op) => describeOp(op, list));
}

const ROLE_NAMES: Record<ColorRole, string> = {
  primary: 'main colour',
  accent: 'accent colour',
  background: 'background colour',
  text: 'text colour',
};

function clip(text: string, max = 80): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

function q(text: string, max = 80): string {
  return `"${clip(text, max)}"`;
}

function where(pages: string[] | undefined, fallback = ''): string {
  if (!pages || pages.length === 0) return fallback;
  if (pages.length === 1) {
    const page = pages[0] ?? '/';
    if (page === '/' || page === '/index.html') return ' on the home page';
    if (page.endsWith('*')) {
      const base = page.slice(0, -1).replace(/^\/+|\/+$/g, '');
      return base ? ` on the ${base} pages` : '';
    }
    return ` on the page ${page}`;
  }
  return ` on ${pages.length} pages`;
}

/** Words of an id or class (`newsletter-popup` → "newsletter popup"). */
function words(name: string): string {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .toLowerCase();
}

const UTILITY = UTILITY_CLASS;

const TAG_NOUNS: Record<string, string> = {
  a: 'link',
  button: 'button',
  img: 'image',
  p: 'paragraph',
  li: 'list item',
  ul: 'list',
  ol: 'list',
  nav: 'menu',
  footer: 'footer',
  header: 'header',
  aside: 'sidebar',
  form: 'form',
  table: 'table',
  section: 'section',
  article: 'article',
  main: 'main content',
  span: 'text',
  input: 'field',
  label: 'label',
  video: 'video',
  iframe: 'embedded frame',
  blockquote: 'quote',
};

function nounOf(tag: string): string {
  if (/^h[1-6]$/.test(tag)) return 'heading';
  return TAG_NOUNS[tag] ?? 'section';
}

const ENDS_WITH_NOUN =
  /\b(?:banner|bar|strip|popup|modal|section|footer|header|menu|sidebar|notice|dialog|overlay|form|block|box|area|panel|button|link|image|heading|widget|nav|consent)$/;

function named(name: string, noun: string): string {
  return ENDS_WITH_NOUN.test(name) ? `the ${name}` : `the ${name} ${noun}`;
}

const FIXED: Record<string, string> = {
  footer: 'the footer',
  header: 'the header',
  nav: 'the navigation menu',
  aside: 'the sidebar',
  main: 'the main content',
  body: 'the whole page',
  html: 'the whole page',
  head: 'the page',
  h1: 'the main heading',
  'h1 + p': 'the line under the main heading',
  'h1 + *': 'the line under the main heading',
  'h1, h2, h3, h4, h5, h6': 'the headings',
  p: 'the paragraphs',
  a: 'the links',
  'a, button': 'the buttons',
  img: 'the images',
  form: 'the form',
};

/** A part of the page, as a person would name it. */
function describeTarget(
  selector: string,
  withText: string | undefined,
  outlines: readonly PageOutline[],
): string {
  const sel = selector.trim();
  if (withText !== undefined) {
    if (/button/.test(sel)) return `the ${q(withText, 60)} button`;
    if (/^a\b/.test(sel)) return `the ${q(withText, 60)} link`;
    if (/^h[1-6]\b/.test(sel)) return `the heading ${q(withText, 60)}`;
    return `the part of the page reading ${q(withText, 60)}`;
  }
  const fixed = FIXED[sel];
  if (fixed) return fixed;
  const href = /^a\[href="([^"]*)"\]$/.exec(sel) ?? /^a\[href\^?="([^"]*)"(?: i)?\]$/.exec(sel);
  if (href) {
    const value = href[1] ?? '';
    if (/^tel:/i.test(value)) return 'the phone number links';
    if (/^mailto:/i.test(value)) return 'the e-mail links';
    return `the links to ${value}`;
  }
  const src = /^img\[src="([^"]*)"\]$/.exec(sel);
  if (src) return `the image ${src[1] ?? ''}`;
  const alt = /^img\[alt="([^"]*)"(?: i)?\]$/.exec(sel);
  if (alt) return `the image ${q(alt[1] ?? '', 60)}`;
  const fuzzy = /^\[id\*="([^"]+)" i\], \[class\*="[^"]+" i\]$/.exec(sel);
  if (fuzzy) return named(words(fuzzy[1] ?? ''), 'section');
  for (const outline of outlines) {
    const found = fromOutline(sel, outline);
    if (found) return found;
  }
  return fromSelector(sel);
}

function fromOutline(sel: string, outline: PageOutline): string | undefined {
  const heading = outline.headings.find((h) => h.selector === sel);
  if (heading) {
    return heading.level === 1 && outline.headings.filter((h) => h.level === 1).length === 1
      ? 'the main heading'
      : `the heading ${q(heading.text, 60)}`;
  }
  if (logoTextOf(outline)?.selector === sel) return 'the logo text';
  if (taglineOf(outline)?.selector === sel) return 'the tagline';
  const link = outline.links.find((l) => l.selector === sel);
  if (link) {
    const kind = /(?:^|[.#\s-])(?:btn|button|cta)(?:$|[\s.#:>[-])/i.test(sel) ? 'button' : 'link';
    return link.text ? `the ${q(link.text, 60)} ${kind}` : `a ${kind}`;
  }
  const image = outline.images.find((i) => i.selector === sel);
  if (image)
    return image.logo ? 'the logo' : image.alt ? `the image ${q(image.alt, 60)}` : 'an image';
  const text = outline.texts.find((t) => t.selector === sel);
  if (text) {
    if (/(?:^|> )address/.test(sel)) return 'the address';
    return `the text ${q(text.text, 60)}`;
  }
  const section = outline.sections.find((s) => s.selector === sel);
  if (section) {
    const name = [section.id, ...(section.classes ?? [])]
      .filter((n): n is string => n !== undefined && !UTILITY.test(n))
      .map(words)
      .find((w) => w.length > 1);
    if (name) return named(name, nounOf(section.tag));
    if (section.heading) return `the ${nounOf(section.tag)} ${q(section.heading, 60)}`;
    return `the ${nounOf(section.tag)}`;
  }
  return undefined;
}

/** Readable names in one step of a selector: its ids, classes and attribute values. */
function stepNames(step: string): string[] {
  const ids = [...step.matchAll(/[#.]([\w-]+)/g)].map((m) => m[1] ?? '');
  const values = [...step.matchAll(/\[[\w-]+[~|^$*]?="([^"/:]*)"/g)].map((m) => m[1] ?? '');
  return [...ids, ...values]
    .filter((n) => n !== '' && !UTILITY.test(n))
    .map(words)
    .filter((w) => w.length > 1);
}

function article(noun: string): string {
  return /^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`;
}

/** Any other selector: the words of its last ids/classes and the kind of element. */
function fromSelector(sel: string): string {
  const first = sel.split(',')[0]?.trim() ?? '';
  // Split at combinators, not at spaces inside attribute values.
  const steps = (first.match(/(?:\[[^\]]*\]|[^\s>+~[])+/g) ?? []).filter(Boolean);
  const last = steps[steps.length - 1] ?? '';
  const tag = /^([a-z][a-z0-9]*)/i.exec(last)?.[1]?.toLowerCase() ?? '';
  const noun = tag ? nounOf(tag) : 'section';
  const own = stepNames(last)[0];
  if (own) return named(own, noun);
  for (const step of steps.slice(0, -1).reverse()) {
    const name = stepNames(step)[0];
    if (name) return `${article(noun)} in ${named(name, 'section')}`;
  }
  return tag ? `${article(noun)} on the page` : 'a part of the page';
}

function options(op: Extract<EditOp, { op: 'replaceText' }>): string {
  const out: string[] = [];
  if (op.caseSensitive === false) out.push('ignoring case');
  if (op.wholeWord) out.push('as a whole word');
  if (op.includeAttributes) out.push('also in image descriptions and tooltips');
  return out.length > 0 ? ` (${out.join(', ')})` : '';
}

function describeOp(op: EditOp, outlines: readonly PageOutline[]): string {
  switch (op.op) {
    case 'replaceText': {
      const scope = where(op.pages, ' everywhere');
      if (op.replace === '') return `Remove the text ${q(op.find)}${scope}${options(op)}`;
      return `Replace ${q(op.find)} with ${q(op.replace)}${scope}${options(op)}`;
    }
    case 'setText': {
      const target = describeTarget(op.selector, op.withText, outlines);
      const scope = where(op.pages);
      if (/ button$/.test(target)) return `Change ${target} to say ${q(op.text)}${scope}`;
      if (target === 'the main heading') return `Change the main heading to ${q(op.text)}${scope}`;
      if (target === 'the logo text') return `Change the logo text to ${q(op.text)}${scope}`;
      if (target === 'the tagline' || target === 'the line under the main heading') {
        return `Change the tagline to ${q(op.text)}${scope}`;
      }
      if (target === 'the address') return `Change the address to ${q(op.text)}${scope}`;
      if (target.startsWith('the text ')) return `Change ${target} to ${q(op.text)}${scope}`;
      return `Change the text of ${target} to ${q(op.text)}${scope}`;
    }
    case 'rewriteCopy': {
      const target = describeTarget(op.selector, op.withText, outlines);
      return `Rewrite the text of ${target}${where(op.pages)}`;
    }
    case 'setAttribute': {
      const target = describeTarget(op.selector, op.withText, outlines);
      const scope = where(op.pages);
      const name = op.name.toLowerCase();
      if (name === 'href') {
        if (/^tel:/i.test(op.value)) return `Make ${target} call ${op.value.slice(4)}${scope}`;
        if (/^mailto:/i.test(op.value)) {
          return `Make ${target} write to ${op.value.slice(7)}${scope}`;
        }
        return `Make ${target} go to ${op.value}${scope}`;
      }
      if (name === 'alt') return `Describe ${target} as ${q(op.value)}${scope}`;
      if (name === 'title') return `Set the tooltip of ${target} to ${q(op.value)}${scope}`;
      if (name === 'placeholder') {
        return `Set the hint shown in ${target} to ${q(op.value)}${scope}`;
      }
      if (name === 'target' && op.value === '_blank') {
        return `Open ${target} in a new tab${scope}`;
      }
      return `Change a hidden detail of ${target} to ${q(op.value)}${scope}`;
    }
    case 'changeColor': {
      const to = colorLabel(op.to);
      const scope = where(op.pages);
      if (op.role) return `Set the ${ROLE_NAMES[op.role]} to ${to}${scope}`;
      if (op.variable) {
        return `Set the site's ${q(words(op.variable))} colour to ${to}${scope}`;
      }
      return `Change the colour ${colorLabel(op.from ?? '')} to ${to}${where(op.pages, ' everywhere')}`;
    }
    case 'changeFont': {
      const which = op.selector
        ? describeTarget(op.selector, undefined, outlines)
        : op.role === 'headings'
          ? 'the headings'
          : op.role === 'body'
            ? 'the body text'
            : 'all text';
      return `Use the font ${op.family} for ${which}${where(op.pages)}`;
    }
    case 'hideElement':
      return `Hide ${describeTarget(op.selector, op.withText, outlines)}${where(op.pages)}`;
    case 'removeElement':
      return `Remove ${describeTarget(op.selector, op.withText, outlines)}${where(op.pages)}`;
    case 'insertHtml':
      return describeInsert(op, outlines);
    case 'replaceImage': {
      const by = op.upload ? 'the uploaded picture' : (op.src ?? '');
      const what = op.logo
        ? 'the logo'
        : op.currentSrc !== undefined
          ? `the image ${op.currentSrc}`
          : `the picture in ${describeTarget(op.selector ?? '', undefined, outlines)}`;
      const alt = op.alt !== undefined ? `, described as ${q(op.alt)}` : '';
      return `Replace ${what} with ${by}${alt}${where(op.pages)}`;
    }
    case 'setTitle':
      return `Set the page title to ${q(op.title)}${where(op.pages)}`;
    case 'setDescription':
      return `Set the page description (shown in search results) to ${q(op.description)}${where(op.pages)}`;
    case 'restorePage':
      return `Bring back the page ${op.path} as it was in an earlier version`;
    case 'setFormRecipient':
      return `${formsOf(op.form)} go to ${q(op.email)} instead of your account's address, once that address confirms it wants them`;
  }
}

const POSITIONS = {
  before: 'before',
  after: 'after',
  prepend: 'at the start of',
  append: 'at the end of',
} as const;

function describeInsert(
  op: Extract<EditOp, { op: 'insertHtml' }>,
  outlines: readonly PageOutline[],
): string {
  const scope = where(op.pages);
  const size = new RegExp(
    `^<style ${SIZE_MARKER}="(\\w+)">[^{]*\\{zoom:([\\d.]+)\\}</style>$`,
  ).exec(op.html);
  if (size) {
    const which = size[1] === 'headings' ? 'the headings' : 'the text';
    const zoom = Number(size[2]);
    const much = Math.abs(zoom - 1) >= 0.3 ? 'much ' : Math.abs(zoom - 1) <= 0.05 ? 'a bit ' : '';
    return `Make ${which} ${much}${zoom >= 1 ? 'bigger' : 'smaller'}${scope}`;
  }
  const text = op.html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  if (/class="mirror-banner"/.test(op.html) && op.selector === 'body') {
    return `Add a banner saying ${q(text)} at the top of every page${scope ? scope.replace(' on', ',') : ''}`;
  }
  const target = describeTarget(op.selector, op.withText, outlines);
  const place =
    target === 'the whole page' && op.position === 'prepend'
      ? 'at the top of the page'
      : target === 'the whole page' && op.position === 'append'
        ? 'at the bottom of the page'
        : `${POSITIONS[op.position]} ${target}`;
  if (/^<p>[^<]*<\/p>$/.test(op.html.trim())) return `Add the text ${q(text)} ${place}${scope}`;
  return text
    ? `Add new content reading ${q(text)} ${place}${scope}`
    : `Add new content ${place}${scope}`;
}
