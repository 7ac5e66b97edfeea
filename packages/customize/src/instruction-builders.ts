import { unquote } from './instruction-text.js';
import {
  buttonsOf,
  emailsOf,
  findLabel,
  hasLogoImage,
  isPathSelector,
  logoTextOf,
  mainHeadingOf,
  phonesOf,
  postalAddressOf,
  siteNameOf,
  taglineOf,
} from './instruction-outline.js';
import type { Resolved } from './instruction-outline.js';
import {
  colorValue,
  fontFamily,
  fontStylesheet,
  isEmail,
  isPhone,
  telOf,
  urlOf,
} from './instruction-values.js';
import type { PageOutline } from './outline.js';
import type { ColorRole, FontRole, InsertPosition, PageEditOp } from './types.js';

/**
 * What the rules of the built-in instruction engine (instruction-rules.ts) share: the vocabulary of
 * their patterns and the builders that turn the words a pattern matched into ops.
 */

/** What a rule makes of an instruction: ops, a reason it cannot be used, or null (no match). */
export type Built = PageEditOp | PageEditOp[] | { note: string } | null;

export interface Context {
  outline: PageOutline | undefined;
}

export interface Rule {
  re: RegExp;
  build: (groups: string[], ctx: Context) => Built;
}

/** Optional article: "the", "our", "my"… */
export const ART = '(?:(?:the|our|my|your|this|its|their|all\\s+(?:of\\s+)?the|all)\\s+)?';
/** Optional owner: "site's", "website's"… */
export const OWNER = "(?:(?:site|website|blog|page|shop|store)(?:'s|’s|s’|s')?\\s+)?";

const ROLE_WORDS: Record<string, ColorRole> = {
  primary: 'primary',
  brand: 'primary',
  main: 'primary',
  theme: 'primary',
  site: 'primary',
  website: 'primary',
  link: 'primary',
  links: 'primary',
  button: 'primary',
  buttons: 'primary',
  accent: 'accent',
  secondary: 'accent',
  highlight: 'accent',
  background: 'background',
  bg: 'background',
  'page background': 'background',
  'background colour': 'background',
  'background color': 'background',
  text: 'text',
  font: 'text',
  'body text': 'text',
  writing: 'text',
};
export const ROLE =
  '(primary|brand|main|theme|site|website|links?|buttons?|accent|secondary|highlight|page\\s+background|background|bg|body\\s+text|text|font)';
/** Roles that read as a thing without "colour": "make the links crimson". */
export const ROLE_NOUN =
  '(page\\s+background|background(?:\\s+colou?r)?|bg|accent|highlight|links?|buttons?|body\\s+text|text|writing)';

const FONT_ROLE_WORDS: Record<string, FontRole> = {
  heading: 'headings',
  headings: 'headings',
  headline: 'headings',
  headlines: 'headings',
  title: 'headings',
  titles: 'headings',
  body: 'body',
  'body text': 'body',
  text: 'body',
  paragraph: 'body',
  paragraphs: 'body',
  everything: 'all',
  'all text': 'all',
};
export const FONT_ROLE =
  '(headings?|headlines?|titles?|body\\s+text|body|text|paragraphs?|everything|all\\s+text|(?:whole\\s+|entire\\s+)?(?:site|website|page|blog))';
export const FONT_WORD = '(?:fonts?(?:\\s+family|\\s+face)?|typefaces?)\\b';

export function textValue(v: string): string {
  return unquote(v).text;
}

export function withTarget<T extends PageEditOp>(op: T, resolved: Resolved): T | { note: string } {
  if ('note' in resolved) return resolved;
  const out = { ...op, selector: resolved.selector } as T & {
    withText?: string;
    pages?: string[];
  };
  if (resolved.withText !== undefined) out.withText = resolved.withText;
  if (resolved.pages) out.pages = resolved.pages;
  return out;
}

function outlinePages(ctx: Context): string[] {
  return [ctx.outline?.path ?? '/'];
}

/** An element found in the outline, limited to its page when its selector is a path. */
function atSelector(selector: string, ctx: Context): { selector: string; pages?: string[] } {
  return isPathSelector(selector) ? { selector, pages: outlinePages(ctx) } : { selector };
}

export function fontOp(rawFamily: string, roleWord: string | undefined, strict = false): Built {
  const family = fontFamily(rawFamily, strict);
  if (!family) return null;
  const op: PageEditOp = { op: 'changeFont', family };
  const role = roleWord
    ? (FONT_ROLE_WORDS[roleWord.toLowerCase().replace(/\s+/g, ' ')] ?? 'all')
    : undefined;
  if (role && role !== 'all') op.role = role;
  const stylesheetUrl = fontStylesheet(family);
  if (stylesheetUrl) op.stylesheetUrl = stylesheetUrl;
  return op;
}

function roleOf(word: string): ColorRole | undefined {
  return ROLE_WORDS[word.toLowerCase().replace(/\s+/g, ' ')];
}

export function roleColorOp(roleWord: string, value: string): Built {
  const to = colorValue(value);
  const role = roleOf(roleWord);
  return to && role ? { op: 'changeColor', role, to } : null;
}

const MODES: Record<'dark' | 'light', { background: string; text: string }> = {
  dark: { background: '#121212', text: '#eeeeee' },
  light: { background: '#ffffff', text: '#222222' },
};

export function modeOps(word: string): PageEditOp[] {
  const mode = MODES[/^dark/i.test(word) ? 'dark' : 'light'];
  return [
    { op: 'changeColor', role: 'background', to: mode.background },
    { op: 'changeColor', role: 'text', to: mode.text },
  ];
}

/** The marker of a size rule the engine inserts (describePlan reads it back). */
export const SIZE_MARKER = 'data-mirror-size';
const SIZE_TARGETS = {
  headings: 'h1,h2,h3,h4,h5,h6',
  text: 'p,li,blockquote,dd,dt,figcaption,td,th,label',
} as const;

export function sizeOp(what: string, direction: string, amount: string | undefined): PageEditOp {
  const target = /head|title|h1/i.test(what) ? 'headings' : 'text';
  const bigger = /big|larg|huge|increase|enlarge|bold/i.test(direction);
  const much = /lot|much|way|huge/i.test(amount ?? direction);
  const bit = /bit|little|slightly/i.test(amount ?? '');
  const step = target === 'headings' ? 0.2 : 0.1;
  const scale = bigger
    ? 1 + (much ? step * 2 : bit ? step / 2 : step)
    : much
      ? 0.75
      : bit
        ? 0.95
        : 0.9;
  const zoom = Math.round(scale * 100) / 100;
  return {
    op: 'insertHtml',
    selector: 'head',
    position: 'append',
    html: `<style ${SIZE_MARKER}="${target}">${SIZE_TARGETS[target]}{zoom:${zoom}}</style>`,
  };
}

/** A link target given by its address (`/pricing`) or by its text ('Pricing'). */
export function linkTarget(
  v: string,
  kind: string,
  ctx: Context,
): { selector: string; withText?: string } {
  const { text, quoted } = unquote(v);
  const url = quoted ? undefined : urlOf(text);
  if (url !== undefined && /^(?:\/|#|https?:)/.test(text)) {
    return { selector: `a[href="${text.replace(/["\\]/g, '')}"]` };
  }
  const button = /button/i.test(kind);
  const selector = button ? 'a, button' : 'a';
  const exact = ctx.outline ? findLabel(ctx.outline, text, button) : undefined;
  return { selector, withText: exact ?? text };
}

export function linkOp(
  kind: string,
  from: string,
  to: string,
  ctx: Context,
  quotedOnly = true,
): Built {
  const target = linkTarget(from, kind, ctx);
  const toValue = unquote(to);
  const href =
    toValue.quoted && !/^(?:\/|https?:|#|mailto:)/i.test(toValue.text) ? undefined : urlOf(to);
  if (href !== undefined) return { op: 'setAttribute', ...target, name: 'href', value: href };
  if (quotedOnly && !toValue.quoted) return null;
  return { op: 'setText', ...target, text: toValue.text };
}

const MAIN_BUTTON = /^(?:main|primary|first|big|hero|cta|call[\s-]to[\s-]action|the)$/i;

export function namedButtonOp(name: string, to: string, ctx: Context, kind = 'button'): Built {
  if (looksNotText(to)) return null;
  const label = textValue(name);
  if (!label || MAIN_BUTTON.test(label) || /^(?:the|a|an)\s/i.test(label)) {
    return mainButtonOp(to, ctx);
  }
  return linkOp(kind, name, to, ctx, false);
}

export function mainButtonOp(to: string, ctx: Context): Built {
  if (looksNotText(to)) return null;
  const text = textValue(to);
  if (!text) return null;
  if (!ctx.outline) {
    return { note: 'Which button? Name it by its current text, e.g. the "Subscribe" button.' };
  }
  const main = buttonsOf(ctx.outline)[0];
  if (main === undefined) return { note: 'There is no button on the page.' };
  return { op: 'setText', selector: 'a, button', withText: main, text };
}

export function siteNameOps(v: string, ctx: Context): Built {
  const name = textValue(v);
  if (!name) return null;
  const current = ctx.outline ? siteNameOf(ctx.outline) : undefined;
  if (current && current.toLowerCase() !== name.toLowerCase()) {
    return { op: 'replaceText', find: current, replace: name };
  }
  return { op: 'setTitle', title: name };
}

export function logoTextOps(v: string, ctx: Context): Built {
  if (looksNotText(v)) return null;
  const text = textValue(v);
  if (!text) return null;
  if (!ctx.outline) return { note: 'Could not find the logo’s text without looking at the page.' };
  const logo = logoTextOf(ctx.outline);
  if (logo) return { op: 'setText', ...atSelector(logo.selector, ctx), text };
  if (hasLogoImage(ctx.outline)) {
    return { note: 'The logo is a picture: give the address of a new picture to replace it.' };
  }
  return { note: 'There is no logo text on the page.' };
}

export function phoneOps(v: string, ctx: Context): Built {
  const phone = textValue(v);
  if (!isPhone(phone)) return null;
  if (!ctx.outline) {
    return { note: 'Could not find the current phone number without looking at the page.' };
  }
  const { texts, hrefs } = phonesOf(ctx.outline);
  if (texts.length === 0 && hrefs.length === 0) {
    return { note: 'There is no phone number on the page to change.' };
  }
  return [
    ...texts
      .filter((t) => t !== phone)
      .map((t): PageEditOp => ({ op: 'replaceText', find: t, replace: phone })),
    ...telLinks(hrefs, texts).map((selector): PageEditOp => ({
      op: 'setAttribute',
      selector,
      name: 'href',
      value: telOf(phone),
    })),
  ];
}

/** The `tel:` links to change: those the outline lists, else every one when the page shows one number. */
function telLinks(hrefs: string[], texts: string[]): string[] {
  if (hrefs.length > 0) return hrefs.map((h) => `a[href="${h.replace(/["\\]/g, '')}"]`);
  return texts.length === 1 ? ['a[href^="tel:"]'] : [];
}

export function emailOps(v: string, ctx: Context): Built {
  const email = textValue(v).replace(/^mailto:/i, '');
  if (!isEmail(email)) return null;
  if (!ctx.outline) {
    return { note: 'Could not find the current e-mail address without looking at the page.' };
  }
  const { texts, hrefs } = emailsOf(ctx.outline);
  if (texts.length === 0 && hrefs.length === 0) {
    return { note: 'There is no e-mail address on the page to change.' };
  }
  return [
    ...texts
      .filter((t) => t.toLowerCase() !== email.toLowerCase())
      .map((t): PageEditOp => ({ op: 'replaceText', find: t, replace: email })),
    ...mailLinks(hrefs, texts).map((selector): PageEditOp => ({
      op: 'setAttribute',
      selector,
      name: 'href',
      value: `mailto:${email}`,
    })),
  ];
}

/** The `mailto:` links of the address being replaced. */
function mailLinks(hrefs: string[], texts: string[]): string[] {
  if (hrefs.length > 0) return hrefs.map((h) => `a[href="${h.replace(/["\\]/g, '')}"]`);
  return texts.map((t) => `a[href^="mailto:${t.replace(/["\\]/g, '')}" i]`);
}

export function addressOps(v: string, ctx: Context): Built {
  const address = textValue(v);
  if (!address || urlOf(address) !== undefined) return null;
  if (isEmail(address)) return emailOps(v, ctx);
  if (!ctx.outline) {
    return { note: 'Could not find the current address without looking at the page.' };
  }
  const found = postalAddressOf(ctx.outline);
  if (!found) return { note: 'There is no postal address on the page to change.' };
  if ('selector' in found)
    return { op: 'setText', ...atSelector(found.selector, ctx), text: address };
  return { op: 'replaceText', find: found.text, replace: address };
}

const COPYRIGHT = /©|&copy;|\(c\)|copyright|all rights reserved/i;

/** The copyright line (usually in the footer). */
export function copyrightOp(v: string, ctx: Context): Built {
  const text = textValue(v);
  if (!text) return null;
  if (!ctx.outline) {
    return { note: 'Could not find the copyright line without looking at the page.' };
  }
  const line = ctx.outline.texts.find((t) => COPYRIGHT.test(t.text));
  if (!line) return { note: 'There is no copyright line on the page.' };
  return { op: 'setText', ...atSelector(line.selector, ctx), text };
}

/** The copyright line with its (last) year changed. */
export function copyrightYearOp(year: string, ctx: Context): Built {
  if (!ctx.outline) {
    return { note: 'Could not find the copyright line without looking at the page.' };
  }
  const line = ctx.outline.texts.find((t) => COPYRIGHT.test(t.text) && !t.text.endsWith('…'));
  const years = line ? [...line.text.matchAll(/\b(?:19|20)\d\d\b/g)] : [];
  const last = years[years.length - 1];
  if (!line || !last) return { note: 'There is no copyright year on the page.' };
  const at = last.index ?? 0;
  const text = `${line.text.slice(0, at)}${year}${line.text.slice(at + 4)}`;
  return { op: 'setText', ...atSelector(line.selector, ctx), text };
}

/** An unquoted colour or look ("change the heading to red") is no new text for an element. */
export function looksNotText(v: string): boolean {
  const { text, quoted } = unquote(v);
  return !quoted && (colorValue(text) !== undefined || NOT_A_TEXT.test(text));
}

export function headingOp(v: string, ctx: Context): Built {
  if (looksNotText(v)) return null;
  const text = textValue(v);
  const h1 = ctx.outline ? mainHeadingOf(ctx.outline) : undefined;
  return { op: 'setText', selector: h1?.selector ?? 'h1', text, pages: outlinePages(ctx) };
}

export function taglineOp(v: string, ctx: Context): Built {
  if (looksNotText(v)) return null;
  const tagline = ctx.outline ? taglineOf(ctx.outline) : undefined;
  const h1 = ctx.outline ? mainHeadingOf(ctx.outline) : undefined;
  // Named by its class when it has one, else whatever follows the main heading.
  const selector = tagline?.selector ?? (h1 ? `${h1.selector} + *` : 'h1 + p');
  return {
    op: 'setText',
    selector,
    text: textValue(v),
    pages: outlinePages(ctx),
  };
}

export const INSERT_POSITIONS: [RegExp, InsertPosition][] = [
  [/^(?:before|above)$/i, 'before'],
  [/^(?:after|below|under)$/i, 'after'],
  [/^(?:at|to)\s+the\s+(?:start|top|beginning)\s+of$/i, 'prepend'],
  [/^(?:at|to)\s+the\s+(?:end|bottom)\s+of$|^(?:in|into|inside|to)$/i, 'append'],
];

/** Unquoted words that name a part of the page rather than text to replace. */
export const RESERVED =
  /^(?:the\s|all\s|our\s|my\s)|\b(?:colou?rs?|fonts?|typeface|logo|title|heading|headline|description|background|link|button|image|picture|photo|section|footer|header|menu|nav|navigation|page|phone|e-?mail|address|tagline|subtitle)\b/i;

/** The thing in "change <the thing> from A to B". */
export function fromToOps(thing: string, a: string, b: string, ctx: Context): Built {
  const what = thing
    .toLowerCase()
    .replace(/^(?:the|our|my)\s+/, '')
    .trim();
  if (/\b(?:to|with|into|by)\b/.test(what)) return null;
  const roleWord = /^(.+?)\s+colou?r$/.exec(what)?.[1] ?? what;
  const from = colorValue(a);
  const to = colorValue(b);
  if (roleOf(roleWord) && to) return { op: 'changeColor', role: roleOf(roleWord) as ColorRole, to };
  if (/^colou?rs?$/.test(what) && from && to) return { op: 'changeColor', from, to };
  if (/(?:^|\s)(?:font|typeface)$/.test(what)) {
    const role = /^(headings?|body|text)\s/.exec(what)?.[1];
    return fontOp(b, role);
  }
  const kind = /(?:^|\s)(button|link)$/.exec(what)?.[1];
  if (kind) return linkOp(kind, a, b, ctx, false);
  const find = textValue(a);
  if (!find) return null;
  return { op: 'replaceText', find, replace: textValue(b) };
}

/** Words that say how a thing looks, not what it says ("make the heading bold"). */
export const NOT_A_TEXT =
  /^(?:bold|bolder|italic|bigger|smaller|larger|centered|centred|center|centre|visible|hidden|invisible|shorter|longer|uppercase|lowercase|capitali[sz]ed|underlined|darker|lighter|pop|nicer|prettier|stand\s+out)$/i;

/** Current text given with the thing: "change the title 'Clean Blog' to 'Dana's Journal'". */
export const NAMED_TEXT_KINDS =
  '(?:site\\s+|page\\s+|website\\s+|blog\\s+|main\\s+)?(?:title|heading|headline|name|site\\s+name|brand\\s+name|company\\s+name|business\\s+name|blog\\s+name|logo\\s+text|tagline|subtitle|slogan|text|word|words|phrase|wording|sentence)';
export const NOT_A_CURRENT_TEXT =
  /^(?:(?:of|for|on|in|from|to|at|with|into)\b|(?:text|wording|copy|font|colou?r|size|it|this|that|them|these|those|everything)$)/i;
