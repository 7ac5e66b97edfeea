import { pattern, unquote } from './instruction-text.js';
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
  resolveElement,
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
import type { ColorRole, EditOp, FontRole, InsertPosition } from './types.js';

/** The grammar of the built-in instruction engine (docs/customize.md): one rule per phrasing. */

/** What a rule makes of an instruction: ops, a reason it cannot be used, or null (no match). */
export type Built = EditOp | EditOp[] | { note: string } | null;

export interface Context {
  outline: PageOutline | undefined;
}

interface Rule {
  re: RegExp;
  build: (groups: string[], ctx: Context) => Built;
}

/** Optional article: "the", "our", "my"… */
const ART = '(?:(?:the|our|my|your|this|its|their|all\\s+(?:of\\s+)?the|all)\\s+)?';
/** Optional owner: "site's", "website's"… */
const OWNER = "(?:(?:site|website|blog|page|shop|store)(?:'s|’s|s’|s')?\\s+)?";

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
const ROLE =
  '(primary|brand|main|theme|site|website|links?|buttons?|accent|secondary|highlight|page\\s+background|background|bg|body\\s+text|text|font)';
/** Roles that read as a thing without "colour": "make the links crimson". */
const ROLE_NOUN =
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
const FONT_ROLE =
  '(headings?|headlines?|titles?|body\\s+text|body|text|paragraphs?|everything|all\\s+text|(?:whole\\s+|entire\\s+)?(?:site|website|page|blog))';
const FONT_WORD = '(?:fonts?(?:\\s+family|\\s+face)?|typefaces?)\\b';

function textValue(v: string): string {
  return unquote(v).text;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function withTarget<T extends EditOp>(op: T, resolved: Resolved): T | { note: string } {
  if ('note' in resolved) return resolved;
  const out = { ...op, selector: resolved.selector } as T & { withText?: string };
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

function fontOp(rawFamily: string, roleWord: string | undefined, strict = false): Built {
  const family = fontFamily(rawFamily, strict);
  if (!family) return null;
  const op: EditOp = { op: 'changeFont', family };
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

function roleColorOp(roleWord: string, value: string): Built {
  const to = colorValue(value);
  const role = roleOf(roleWord);
  return to && role ? { op: 'changeColor', role, to } : null;
}

const MODES: Record<'dark' | 'light', { background: string; text: string }> = {
  dark: { background: '#121212', text: '#eeeeee' },
  light: { background: '#ffffff', text: '#222222' },
};

function modeOps(word: string): EditOp[] {
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

function sizeOp(what: string, direction: string, amount: string | undefined): EditOp {
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
function linkTarget(
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

function linkOp(kind: string, from: string, to: string, ctx: Context, quotedOnly = true): Built {
  const target = linkTarget(from, kind, ctx);
  const toValue = unquote(to);
  const href =
    toValue.quoted && !/^(?:\/|https?:|#|mailto:)/i.test(toValue.text) ? undefined : urlOf(to);
  if (href !== undefined) return { op: 'setAttribute', ...target, name: 'href', value: href };
  if (quotedOnly && !toValue.quoted) return null;
  return { op: 'setText', ...target, text: toValue.text };
}

const MAIN_BUTTON = /^(?:main|primary|first|big|hero|cta|call[\s-]to[\s-]action|the)$/i;

function namedButtonOp(name: string, to: string, ctx: Context, kind = 'button'): Built {
  if (looksNotText(to)) return null;
  const label = textValue(name);
  if (!label || MAIN_BUTTON.test(label) || /^(?:the|a|an)\s/i.test(label)) {
    return mainButtonOp(to, ctx);
  }
  return linkOp(kind, name, to, ctx, false);
}

function mainButtonOp(to: string, ctx: Context): Built {
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

function siteNameOps(v: string, ctx: Context): Built {
  const name = textValue(v);
  if (!name) return null;
  const current = ctx.outline ? siteNameOf(ctx.outline) : undefined;
  if (current && current.toLowerCase() !== name.toLowerCase()) {
    return { op: 'replaceText', find: current, replace: name };
  }
  return { op: 'setTitle', title: name };
}

function logoTextOps(v: string, ctx: Context): Built {
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

function phoneOps(v: string, ctx: Context): Built {
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
      .map((t): EditOp => ({ op: 'replaceText', find: t, replace: phone })),
    ...telLinks(hrefs, texts).map((selector): EditOp => ({
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

function emailOps(v: string, ctx: Context): Built {
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
      .map((t): EditOp => ({ op: 'replaceText', find: t, replace: email })),
    ...mailLinks(hrefs, texts).map((selector): EditOp => ({
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

function addressOps(v: string, ctx: Context): Built {
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
function copyrightOp(v: string, ctx: Context): Built {
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
function copyrightYearOp(year: string, ctx: Context): Built {
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
function looksNotText(v: string): boolean {
  const { text, quoted } = unquote(v);
  return !quoted && (colorValue(text) !== undefined || NOT_A_TEXT.test(text));
}

function headingOp(v: string, ctx: Context): Built {
  if (looksNotText(v)) return null;
  const text = textValue(v);
  const h1 = ctx.outline ? mainHeadingOf(ctx.outline) : undefined;
  return { op: 'setText', selector: h1?.selector ?? 'h1', text, pages: outlinePages(ctx) };
}

function taglineOp(v: string, ctx: Context): Built {
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

const INSERT_POSITIONS: [RegExp, InsertPosition][] = [
  [/^(?:before|above)$/i, 'before'],
  [/^(?:after|below|under)$/i, 'after'],
  [/^(?:at|to)\s+the\s+(?:start|top|beginning)\s+of$/i, 'prepend'],
  [/^(?:at|to)\s+the\s+(?:end|bottom)\s+of$|^(?:in|into|inside|to)$/i, 'append'],
];

/** Unquoted words that name a part of the page rather than text to replace. */
const RESERVED =
  /^(?:the\s|all\s|our\s|my\s)|\b(?:colou?rs?|fonts?|typeface|logo|title|heading|headline|description|background|link|button|image|picture|photo|section|footer|header|menu|nav|navigation|page|phone|e-?mail|address|tagline|subtitle)\b/i;

/** The thing in "change <the thing> from A to B". */
function fromToOps(thing: string, a: string, b: string, ctx: Context): Built {
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
const NOT_A_TEXT =
  /^(?:bold|bolder|italic|bigger|smaller|larger|centered|centred|center|centre|visible|hidden|invisible|shorter|longer|uppercase|lowercase|capitali[sz]ed|underlined|darker|lighter|pop|nicer|prettier|stand\s+out)$/i;

/** Current text given with the thing: "change the title 'Clean Blog' to 'Dana's Journal'". */
const NAMED_TEXT_KINDS =
  '(?:site\\s+|page\\s+|website\\s+|blog\\s+|main\\s+)?(?:title|heading|headline|name|site\\s+name|brand\\s+name|company\\s+name|business\\s+name|blog\\s+name|logo\\s+text|tagline|subtitle|slogan|text|word|words|phrase|wording|sentence)';
const NOT_A_CURRENT_TEXT =
  /^(?:(?:of|for|on|in|from|to|at|with|into)\b|(?:text|wording|copy|font|colou?r|size|it|this|that|them|these|those|everything)$)/i;

/** Tried in order; the first rule whose pattern matches and which builds something wins. */
export const RULES: Rule[] = [
  // Whole-site looks.
  {
    re: pattern(
      '(?:switch|change|turn|convert|set|put|flip)\\s+(?:it\\s+|the\\s+(?:site|website|page|blog|theme|design)\\s+|everything\\s+)?(?:to|into|in)\\s+(?:a\\s+)?(dark|light)(?:\\s+(?:mode|theme|look|design|version|colou?r\\s+scheme|scheme|style))?',
    ),
    build: ([mode]) => modeOps(mode ?? ''),
  },
  {
    re: pattern(
      '(?:use|enable|apply|activate|turn\\s+on|add|have|give\\s+(?:it|the\\s+site)|go\\s+(?:for\\s+)?|want|prefer)\\s+(?:a\\s+|the\\s+)?(dark|light)\\s+(?:mode|theme|look|design|version|colou?r\\s+scheme|scheme|style)',
    ),
    build: ([mode]) => modeOps(mode ?? ''),
  },
  {
    re: pattern(
      `(?:change|set|switch|make|turn|update)\\s+${ART}${OWNER}(?:colou?r\\s+scheme|colou?rs|theme|mode|look|design|style)\\s+(?:to|into)\\s+(?:a\\s+)?(dark|light)(?:\\s+(?:mode|theme|one))?`,
    ),
    build: ([mode]) => modeOps(mode ?? ''),
  },
  {
    re: pattern('(dark|light)\\s+(?:mode|theme)(?:\\s+on)?'),
    build: ([mode]) => modeOps(mode ?? ''),
  },
  {
    re: pattern(
      '(?:make|turn)\\s+(?:it|the\\s+(?:site|website|page|pages|blog|whole\\s+(?:site|thing|website))|everything)\\s+(dark|darker|light|lighter)(?:\\s+(?:mode|theme))?',
    ),
    build: ([mode]) => modeOps(mode ?? ''),
  },
  // Sizes.
  {
    re: pattern(
      `(?:make|set|turn)\\s+${ART}(headings?|headlines?|titles?|h1s?|text|body\\s+text|font|fonts|writing|paragraphs?|letters|font\\s+size|text\\s+size|heading\\s+sizes?)(?:\\s+(?:font|text|fonts))?(?:\\s+sizes?)?\\s+((?:a\\s+(?:bit|little|lot)|much|slightly|way|a\\s+little\\s+bit)\\s+)?(bigger|larger|smaller|tinier|huge)`,
    ),
    build: ([what, amount, dir]) => sizeOp(what ?? '', dir ?? '', amount),
  },
  {
    re: pattern(
      `(increase|enlarge|decrease|reduce|shrink)\\s+${ART}(heading|headline|title|text|font|body\\s+text)\\s+sizes?(?:\\s+(a\\s+(?:bit|little|lot)|slightly))?`,
    ),
    build: ([dir, what, amount]) => sizeOp(what ?? '', dir ?? '', amount),
  },
  {
    re: pattern('(bigger|larger|smaller)\\s+(headings|headlines|titles|text|fonts?)'),
    build: ([dir, what]) => sizeOp(what ?? '', dir ?? '', undefined),
  },
  // "change <thing> from A to B".
  {
    re: pattern(
      `(?:change|update|switch|rename|replace|edit|swap|alter)\\s+${ART}(.+?)\\s+from\\s+{v}\\s+(?:to|into|with)\\s+{v}`,
    ),
    build: ([thing, a, b], ctx) => fromToOps(thing ?? '', a ?? '', b ?? '', ctx),
  },
  // A text given by its kind and current value.
  {
    re: pattern(
      `(?:change|replace|rename|update|swap|switch|edit|alter)\\s+${ART}${NAMED_TEXT_KINDS}\\s+{v}\\s+(?:to|with|into|by|for)\\s+{v}`,
    ),
    build: ([a, b]) => {
      const find = unquote(a ?? '');
      if (!find.text || (!find.quoted && NOT_A_CURRENT_TEXT.test(find.text))) return null;
      if (!find.quoted && urlOf(find.text) !== undefined) return null;
      return { op: 'replaceText', find: find.text, replace: textValue(b ?? '') };
    },
  },
  // Title and description.
  {
    re: pattern(
      `(?:set|change|update|make|rename|use|edit)\\s+${ART}(?:page\\s+|site\\s+|website\\s+|browser\\s+|tab\\s+|document\\s+|blog\\s+|seo\\s+)?title(?:\\s+of\\s+(?:the\\s+)?(?:page|site|website|blog|tab))?\\s*(?:to|as|into|=|:)\\s*{v}`,
    ),
    build: ([v]) => ({ op: 'setTitle', title: textValue(v ?? '') }),
  },
  {
    re: pattern(
      '(?:the\\s+)?(?:page\\s+|site\\s+)?title\\s*(?:[:=]|should\\s+be|is|will\\s+be|must\\s+be)\\s*{v}',
    ),
    build: ([v]) => ({ op: 'setTitle', title: textValue(v ?? '') }),
  },
  {
    re: pattern(
      `(?:set|change|update|make|use|edit|write)\\s+${ART}(?:(?:meta|page|site|seo|website|blog|search|google)\\s+)*description(?:\\s+of\\s+(?:the\\s+)?(?:page|site|website|blog))?\\s*(?:to|as|=|:)\\s*{v}`,
    ),
    build: ([v]) => ({ op: 'setDescription', description: textValue(v ?? '') }),
  },
  {
    re: pattern(
      '(?:the\\s+)?(?:meta\\s+|page\\s+|site\\s+)?description\\s*(?:[:=]|should\\s+be|is)\\s*{v}',
    ),
    build: ([v]) => ({ op: 'setDescription', description: textValue(v ?? '') }),
  },
  // The site's name.
  {
    re: pattern(
      `(?:change|set|update|rename|make|edit|use)\\s+${ART}${OWNER}(?:site|website|web\\s+site|blog|shop|store|business|company|brand|organi[sz]ation)?\\s*name\\s*(?:to|as|into|=|:)\\s*{v}`,
    ),
    build: ([v], ctx) => siteNameOps(v ?? '', ctx),
  },
  {
    re: pattern(
      `(?:change|set|update|edit|make)\\s+${ART}name\\s+of\\s+${ART}(?:site|website|web\\s+site|blog|shop|store|business|company|brand|page)\\s*(?:to|as|into|=|:)\\s*{v}`,
    ),
    build: ([v], ctx) => siteNameOps(v ?? '', ctx),
  },
  {
    re: pattern(
      `(?:rename|call)\\s+(?:it|${ART}(?:site|website|blog|shop|store|business|company|brand))\\s+(?:to\\s+|as\\s+)?{v}`,
    ),
    build: ([v], ctx) => siteNameOps(v ?? '', ctx),
  },
  // Colours.
  {
    re: pattern(
      '(?:set|change|update|make)\\s+(?:the\\s+)?(?:css\\s+)?(?:variable\\s+|var\\s+|custom\\s+property\\s+)?(--[\\w-]+)\\s*(?:to|=|:)\\s*{v}',
    ),
    build: ([name, v]) => {
      const to = colorValue(v ?? '');
      return to ? { op: 'changeColor', variable: name ?? '', to } : null;
    },
  },
  {
    re: pattern(
      `(?:change|set|make|update|switch|turn|paint|colou?r)\\s+${ART}${OWNER}${ROLE}\\s+(?:colou?rs?|tone|shade|hue)\\s*(?:to|into|=|:|as)?\\s*{v}`,
    ),
    build: ([role, v]) => roleColorOp(role ?? '', v ?? ''),
  },
  {
    re: pattern(
      `(?:change|set|make|update|switch|turn|paint|colou?r)\\s+${ART}${OWNER}${ROLE_NOUN}\\s*(?:to|into|=|:)?\\s*{v}`,
    ),
    build: ([role, v]) => roleColorOp(role ?? '', v ?? ''),
  },
  {
    re: pattern(
      `(?:(?:use|make|pick|choose|set|want|prefer|(?:i|we)\\s+(?:want|would\\s+like|'d\\s+like|prefer))\\s+)?{v}\\s+(?:as|for)\\s+${ART}(?:new\\s+)?${OWNER}${ROLE}\\s+colou?r`,
    ),
    build: ([v, role]) => roleColorOp(role ?? '', v ?? ''),
  },
  {
    re: pattern(
      `(?:use|pick|choose|apply|want)\\s+(?:the\\s+)?(?:colou?r\\s+)?{v}\\s+(?:for|on)\\s+${ART}${ROLE_NOUN}`,
    ),
    build: ([v, role]) => roleColorOp(role ?? '', v ?? ''),
  },
  {
    re: pattern(`{v}\\s+(backgrounds?|links|buttons|text|accents?|highlights)`),
    build: ([v, role]) => roleColorOp((role ?? '').replace(/s$/, ''), v ?? ''),
  },
  {
    re: pattern(
      `(?:change|set|update|make|switch)\\s+${ART}colou?r\\s+(?:of|for)\\s+${ART}${ROLE_NOUN}\\s*(?:to|into|=|:)\\s*{v}`,
    ),
    build: ([role, v]) => roleColorOp(role ?? '', v ?? ''),
  },
  {
    re: pattern(
      `(?:change|set|update|make|switch)\\s+${ART}${OWNER}(?:colou?rs?|colou?r\\s+scheme|colou?r\\s+palette|palette|theme\\s+colou?rs?|brand\\s+colou?rs?|main\\s+colou?rs?)\\s*(?:to|into|=|:)\\s*{v}`,
    ),
    build: ([v]) => roleColorOp('primary', v ?? ''),
  },
  {
    re: pattern(
      '(?:make|turn|paint)\\s+(?:it|the\\s+(?:site|website|page|blog|whole\\s+(?:site|website|thing))|everything)\\s+{v}',
    ),
    build: ([v]) => roleColorOp('primary', v ?? ''),
  },
  {
    re: pattern(
      '(?:change|replace|swap|switch|turn|make|convert)\\s+(?:all\\s+)?(?:the\\s+)?(?:colou?r\\s+)?{v}(?:\\s+colou?r)?\\s+(?:with|to|into|by|for)\\s+(?:the\\s+colou?r\\s+)?{v}',
    ),
    build: ([a, b]) => {
      const from = colorValue(a ?? '');
      const to = colorValue(b ?? '');
      if (!from || !to) return null;
      // A quoted colour name is a text ('Red' the product); a quoted #hex is still a colour.
      if (unquote(a ?? '').quoted && !/^(?:#|rgb|hsl)/i.test(from)) return null;
      return { op: 'changeColor', from, to };
    },
  },
  // Fonts.
  {
    re: pattern(
      `(?:use|set|change|switch|make|update)\\s+${ART}${FONT_WORD}\\s*(?:to|=|:|as|into)?\\s*{v}\\s+(?:for|on)\\s+(?:the\\s+|all\\s+)?${FONT_ROLE}`,
    ),
    build: ([v, role]) => fontOp(v ?? '', role),
  },
  {
    re: pattern(
      `(?:set|change|switch|make|update)\\s+${ART}${FONT_WORD}\\s+(?:of|for|on)\\s+(?:the\\s+|all\\s+)?${FONT_ROLE}\\s*(?:to|=|:|into)\\s*{v}`,
    ),
    build: ([role, v]) => fontOp(v ?? '', role),
  },
  {
    re: pattern(
      `(?:use|set|change|switch|make|update)\\s+${ART}${OWNER}(?:${FONT_ROLE}\\s+)?${FONT_WORD}\\s*(?:to|=|:|as|into)?\\s*{v}`,
    ),
    build: ([role, v]) => fontOp(v ?? '', role),
  },
  {
    re: pattern(
      `(?:use|apply|switch\\s+to|go\\s+with|try|pick|choose)\\s+{v}\\s+(?:as\\s+(?:the\\s+)?)?(?:${FONT_ROLE}\\s+)?${FONT_WORD}(?:\\s+(?:for|on)\\s+(?:the\\s+|all\\s+)?${FONT_ROLE})?`,
    ),
    build: ([v, role, role2]) => fontOp(v ?? '', role ?? role2),
  },
  {
    re: pattern(
      `(?:use|apply|switch\\s+to|go\\s+with|try|pick|choose)\\s+{v}(?:\\s+(?:for|on)\\s+(?:the\\s+|all\\s+)?${FONT_ROLE})?`,
    ),
    build: ([v, role]) => fontOp(v ?? '', role, true),
  },
  {
    re: pattern(
      `(?:make|set|switch|put|turn)\\s+${ART}${FONT_ROLE}\\s+(?:to\\s+|in\\s+|into\\s+)?{v}`,
    ),
    build: ([role, v]) => fontOp(v ?? '', role, true),
  },
  {
    re: pattern(`${ART}${FONT_ROLE}\\s+in\\s+{v}`),
    build: ([role, v]) => fontOp(v ?? '', role, true),
  },
  // Logo and images.
  {
    re: pattern(
      "(?:replace|change|swap|update|set)\\s+(?:the\\s+|our\\s+|my\\s+)?(?:site'?s?\\s+|company\\s+|brand\\s+)?logo\\s+(?:image\\s+|picture\\s+)?(?:with|to|for|by|as)\\s+(?:the\\s+(?:image|file|picture)\\s+|this\\s+(?:image\\s+)?)?{v}",
    ),
    build: ([v]) => {
      const src = urlOf(v ?? '');
      return src ? { op: 'replaceImage', logo: true, src } : null;
    },
  },
  {
    re: pattern('use\\s+{v}\\s+as\\s+(?:the\\s+|our\\s+|my\\s+)?(?:new\\s+)?(?:site\\s+)?logo'),
    build: ([v]) => {
      const src = urlOf(v ?? '');
      return src ? { op: 'replaceImage', logo: true, src } : null;
    },
  },
  {
    re: pattern(
      `(?:change|set|update|replace|make|rename|edit)\\s+${ART}(?:site'?s?\\s+|company\\s+|brand\\s+)?logo(?:\\s+(?:text|name|wording|title|lettering))?\\s*(?:to|with|into|as|=|:|so\\s+(?:that\\s+)?it\\s+says|to\\s+say|to\\s+read|say|read)\\s*(?:the\\s+(?:text|words?|name)\\s+)?{v}`,
    ),
    build: ([v], ctx) => (urlOf(v ?? '') ? null : logoTextOps(v ?? '', ctx)),
  },
  {
    re: pattern(
      '(?:set|change|update)\\s+(?:the\\s+)?alt(?:\\s+text)?\\s+(?:of|for|on)\\s+(?:the\\s+)?(?:image\\s+)?{v}\\s+to\\s+{v}',
    ),
    build: ([img, alt]) => {
      const src = textValue(img ?? '');
      if (urlOf(src) === undefined) return null;
      return {
        op: 'setAttribute',
        selector: `img[src="${src.replace(/["\\]/g, '')}"]`,
        name: 'alt',
        value: textValue(alt ?? ''),
      };
    },
  },
  {
    re: pattern(
      '(?:replace|change|swap|update)\\s+(?:the\\s+)?(?:image|picture|photo|img)\\s+{v}\\s+(?:with|to|by|for)\\s+{v}',
    ),
    build: ([from, to]) => {
      const src = urlOf(to ?? '');
      if (!src) return null;
      const current = textValue(from ?? '');
      if (urlOf(current) !== undefined) return { op: 'replaceImage', currentSrc: current, src };
      return { op: 'replaceImage', selector: `img[alt="${current.replace(/["\\]/g, '')}" i]`, src };
    },
  },
  {
    re: pattern(
      '(?:replace|change|swap|update|set)\\s+(?:the\\s+)?{v}\\s+(?:image|picture|photo)\\s+(?:with|to|by|for)\\s+{v}',
    ),
    build: ([where, to], ctx) => {
      const src = urlOf(to ?? '');
      if (!src) return null;
      return withTarget(
        { op: 'replaceImage', selector: '', src },
        resolveElement(where ?? '', ctx.outline),
      );
    },
  },
  // Buttons.
  {
    re: pattern(
      `(?:change|set|update|rename|relabel|edit|make)\\s+${ART}(?:main\\s+|primary\\s+|first\\s+|big\\s+|hero\\s+|cta\\s+)?(?:button|cta|call[\\s-]to[\\s-]action(?:\\s+button)?)(?:'s|’s)?\\s+(?:text|label|wording|caption|copy|title)\\s*(?:to|as|into|=|:)\\s*(?:say\\s+|read\\s+)?{v}`,
    ),
    build: ([v], ctx) => mainButtonOp(v ?? '', ctx),
  },
  {
    re: pattern(
      `(?:change|set|update|edit)\\s+${ART}(?:text|label|wording|caption|copy)\\s+(?:of|on|in)\\s+${ART}(?:main\\s+|primary\\s+|first\\s+)?button\\s*(?:to|into|as|=|:)\\s*{v}`,
    ),
    build: ([v], ctx) => mainButtonOp(v ?? '', ctx),
  },
  {
    re: pattern(
      `(?:make|have|let)\\s+${ART}(?:main\\s+|primary\\s+|first\\s+)?button\\s+(?:say|read|show|display)\\s+{v}`,
    ),
    build: ([v], ctx) => mainButtonOp(v ?? '', ctx),
  },
  {
    re: pattern(
      `(?:make|have|let|set)\\s+${ART}{v}\\s+button\\s+(?:to\\s+)?(?:say|read|show|display)\\s+{v}`,
    ),
    build: ([name, to], ctx) => namedButtonOp(name ?? '', to ?? '', ctx),
  },
  {
    re: pattern(
      `(?:change|update|set|edit)\\s+${ART}(?:text|label|wording|caption)\\s+(?:of|on|in)\\s+${ART}{v}\\s+button\\s+(?:to|into|as)\\s+{v}`,
    ),
    build: ([name, to], ctx) => namedButtonOp(name ?? '', to ?? '', ctx),
  },
  {
    re: pattern(
      `(?:change|update|rename|relabel|edit)\\s+${ART}(?:button|link)\\s+(?:that\\s+says|saying|labell?ed|reading|called|named|with\\s+the\\s+text)\\s+{v}\\s+(?:to|into|as)\\s+(?:say\\s+)?{v}`,
    ),
    build: ([name, to], ctx) => namedButtonOp(name ?? '', to ?? '', ctx),
  },
  {
    re: pattern(
      '(?:rename|relabel)\\s+(?:the\\s+)?(link|button|menu\\s+item|nav\\s+item)\\s+{v}\\s+(?:to|as)\\s+{v}',
    ),
    build: ([kind, from, to], ctx) => ({
      op: 'setText',
      ...linkTarget(from ?? '', kind ?? '', ctx),
      text: textValue(to ?? ''),
    }),
  },
  {
    re: pattern(
      '(?:change|set|update)\\s+(?:the\\s+)?(?:text\\s+of\\s+(?:the\\s+)?)?(link|button|menu\\s+item|nav\\s+item)(?:\\s+text)?\\s+{v}\\s+to\\s+{v}',
    ),
    build: ([kind, from, to], ctx) => linkOp(kind ?? '', from ?? '', to ?? '', ctx),
  },
  {
    re: pattern(
      `(?:change|rename|relabel|update|set|edit)\\s+${ART}{v}\\s+(button|link|menu\\s+item|nav\\s+item|tab)(?:'s|’s)?(?:\\s+(?:text|label|wording|caption))?\\s+(?:to|as|into|with)\\s+(?:say\\s+|read\\s+)?{v}`,
    ),
    build: ([name, kind, to], ctx) =>
      /button/i.test(kind ?? '')
        ? namedButtonOp(name ?? '', to ?? '', ctx)
        : namedButtonOp(name ?? '', to ?? '', ctx, 'link'),
  },
  // Links.
  {
    re: pattern(
      '(?:point|make|redirect)\\s+(?:the\\s+)?(link|button|menu\\s+item|nav\\s+item)\\s+{v}\\s+(?:to|at)\\s+(?:go\\s+to\\s+|point\\s+to\\s+)?{v}',
    ),
    build: ([kind, from, to], ctx) => linkOp(kind ?? '', from ?? '', to ?? '', ctx),
  },
  {
    re: pattern(
      '(?:make|have|let)\\s+(?:the\\s+)?{v}\\s+(link|button)\\s+(?:go|point|link|lead)\\s+to\\s+{v}',
    ),
    build: ([from, kind, to], ctx) => linkOp(kind ?? '', from ?? '', to ?? '', ctx),
  },
  {
    re: pattern(
      '(?:change|set|update)\\s+(?:the\\s+)?(?:link|url|href|address)\\s+(?:of|for|on)\\s+(?:the\\s+)?{v}(?:\\s+(link|button))?\\s+to\\s+{v}',
    ),
    build: ([from, kind, to], ctx) => {
      const href = urlOf(to ?? '');
      return href
        ? {
            op: 'setAttribute',
            ...linkTarget(from ?? '', kind ?? 'link', ctx),
            name: 'href',
            value: href,
          }
        : null;
    },
  },
  {
    re: pattern(
      `(?:make|have|let|set)\\s+${ART}{v}\\s+(link|button)s?\\s+(?:to\\s+)?open\\s+(?:in\\s+)?(?:a\\s+)?new\\s+(?:tab|window)`,
    ),
    build: ([from, kind], ctx) => ({
      op: 'setAttribute',
      ...linkTarget(from ?? '', kind ?? 'link', ctx),
      name: 'target',
      value: '_blank',
    }),
  },
  // Contact details.
  {
    re: pattern(
      `(?:change|set|update|replace|make|use|edit|put)\\s+${ART}(?:contact\\s+|business\\s+|office\\s+|support\\s+|main\\s+|company\\s+|shop\\s+|store\\s+)?(?:(?:tele)?phone(?:\\s+number)?|phone\\s+no\\.?|tel|mobile(?:\\s+number)?|cell(?:\\s+number)?|(?:contact\\s+)?number|whatsapp(?:\\s+number)?)\\s*(?:to|with|into|as|=|:)\\s*{v}`,
    ),
    build: ([v], ctx) => phoneOps(v ?? '', ctx),
  },
  {
    re: pattern(
      `(?:use|put)\\s+{v}\\s+as\\s+${ART}(?:new\\s+)?(?:contact\\s+)?(?:(?:tele)?phone(?:\\s+number)?|phone\\s+no\\.?|number)`,
    ),
    build: ([v], ctx) => phoneOps(v ?? '', ctx),
  },
  {
    re: pattern(
      `(?:change|set|update|replace|make|use|edit|put)\\s+${ART}(?:contact\\s+|support\\s+|business\\s+|company\\s+|main\\s+)?(?:e-?mail|mail)(?:\\s+address)?\\s*(?:to|with|into|as|=|:)\\s*{v}`,
    ),
    build: ([v], ctx) => emailOps(v ?? '', ctx),
  },
  {
    re: pattern(
      `(?:use|put)\\s+{v}\\s+as\\s+${ART}(?:new\\s+)?(?:contact\\s+)?(?:e-?mail|mail)(?:\\s+address)?`,
    ),
    build: ([v], ctx) => emailOps(v ?? '', ctx),
  },
  {
    re: pattern(
      `(?:change|set|update|replace|make|edit|put)\\s+${ART}(?:postal\\s+|street\\s+|mailing\\s+|office\\s+|business\\s+|physical\\s+|shop\\s+|store\\s+|company\\s+|contact\\s+)?address\\s*(?:to|with|into|as|=|:)\\s*{v}`,
    ),
    build: ([v], ctx) => addressOps(v ?? '', ctx),
  },
  // Headings and texts.
  {
    re: pattern(
      `(?:change|set|update|replace|make|rewrite|edit)\\s+${ART}(?:main\\s+|page\\s+|top\\s+|hero\\s+|first\\s+|big\\s+|home\\s*page\\s+|large\\s+)?(?:heading|headline|h1|header\\s+text|title\\s+text|hero\\s+title|hero\\s+text|banner\\s+text|banner\\s+heading)\\s*(?:text\\s+)?(?:to|with|into|=|:|as|so\\s+(?:that\\s+)?it\\s+says|to\\s+say|to\\s+read|say|read)\\s*{v}`,
    ),
    build: ([v], ctx) => headingOp(v ?? '', ctx),
  },
  {
    re: pattern(
      `make\\s+${ART}(?:main\\s+|page\\s+|top\\s+|hero\\s+|first\\s+|big\\s+)?(?:heading|headline|h1)\\s+{v}`,
    ),
    build: ([v], ctx) => {
      const text = textValue(v ?? '');
      if (colorValue(text) || fontFamily(text, true) || NOT_A_TEXT.test(text)) return null;
      return headingOp(v ?? '', ctx);
    },
  },
  {
    re: pattern(
      `(?:change|set|update|replace|rewrite|edit|make)\\s+${ART}(?:subheading|sub-heading|sub\\s+heading|subtitle|sub-title|sub\\s+title|subheadline|tagline|tag\\s+line|slogan|strapline|motto)\\s*(?:text\\s+)?(?:to|with|into|=|:|as|say|read)\\s*{v}`,
    ),
    build: ([v], ctx) => taglineOp(v ?? '', ctx),
  },
  {
    re: pattern(
      '(?:change|set|update|rewrite)\\s+(?:the\\s+)?(?:text|copy|content|wording)\\s+(?:of|in)\\s+(?:the\\s+)?{v}\\s+(?:to|with|into)\\s+{v}',
    ),
    build: ([where, to], ctx) => {
      const text = textValue(to ?? '');
      const target = unquote(where ?? '');
      if (target.quoted) return { op: 'replaceText', find: target.text, replace: text };
      return withTarget(
        { op: 'setText', selector: '', text },
        resolveElement(where ?? '', ctx.outline),
      );
    },
  },
  {
    re: pattern(
      `(?:change|set|update|edit|replace|rewrite)\\s+${ART}(?:copyright(?:\\s+(?:text|line|notice|message))?|footer\\s+(?:text|copyright|line|note))\\s*(?:to|with|into|=|:)\\s*{v}`,
    ),
    build: ([v], ctx) => copyrightOp(v ?? '', ctx),
  },
  {
    re: pattern(
      `(?:change|set|update|bump|edit)\\s+${ART}(?:copyright\\s+)?year(?:\\s+(?:in|of)\\s+${ART}(?:footer|copyright(?:\\s+(?:line|notice))?))?\\s*(?:to|=|:)\\s*((?:19|20)\\d\\d)`,
    ),
    build: ([year], ctx) => copyrightYearOp(year ?? '', ctx),
  },
  {
    re: pattern(
      `(?:rename|change|relabel)\\s+{v}\\s+(?:to|into|as)\\s+{v}\\s+in\\s+${ART}(?:menu|navigation|nav|navbar|nav\\s+bar|top\\s+menu|main\\s+menu|header)`,
    ),
    build: ([from, to], ctx) => ({
      op: 'setText',
      ...linkTarget(from ?? '', 'link', ctx),
      text: textValue(to ?? ''),
    }),
  },
  {
    re: pattern(
      `(?:make|have|let)\\s+${ART}{v}\\s+(?:section|block|area|box|panel)\\s+(?:say|read)\\s+{v}`,
    ),
    build: ([where, to], ctx) => {
      if (looksNotText(to ?? '')) return null;
      return withTarget(
        { op: 'setText', selector: '', text: textValue(to ?? '') },
        resolveElement(where ?? '', ctx.outline),
      );
    },
  },
  // Removing, hiding and adding.
  {
    re: pattern(
      '(?:remove|delete|drop|erase|cut)\\s+(?:the\\s+)?(?:text|word|words|phrase|sentence|line)\\s+{v}',
    ),
    build: ([v]) => ({ op: 'replaceText', find: textValue(v ?? ''), replace: '' }),
  },
  {
    re: pattern(
      "(remove|delete|drop|get\\s+rid\\s+of|take\\s+out|take\\s+away|take\\s+off|kill|ditch|lose|hide|disable|turn\\s+off|switch\\s+off|suppress|(?:don'?t|do\\s+not|stop)\\s+(?:show|display)(?:ing)?)\\s+{v}",
    ),
    build: ([verb, what], ctx) => {
      const hide = /hide|disable|off|suppress|show|display/i.test(verb ?? '');
      const value = unquote(what ?? '');
      if (!hide && value.quoted) return { op: 'replaceText', find: value.text, replace: '' };
      const phrase = (what ?? '').replace(
        /\s+(?:called|named|titled|labell?ed|with\s+the\s+(?:title|heading))\s+/i,
        ' ',
      );
      const op = hide ? 'hideElement' : 'removeElement';
      return withTarget({ op, selector: '' }, resolveElement(phrase, ctx.outline));
    },
  },
  {
    re: pattern(
      '(?:add|show|put|display)\\s+(?:a|an)\\s+(?:announcement\\s+|top\\s+|notice\\s+|promo\\s+)?(?:banner|bar|notice|announcement|message)\\s*(?:saying|that\\s+says|with(?:\\s+the\\s+text)?|reading|:)\\s*{v}(?:\\s+(?:at|on|to)\\s+the\\s+top(?:\\s+of\\s+(?:the|every|each|all)\\s+pages?)?)?',
    ),
    build: ([v]) => ({
      op: 'insertHtml',
      selector: 'body',
      position: 'prepend',
      html: `<div class="mirror-banner" style="padding:10px 16px;text-align:center;background:#111;color:#fff;font:14px/1.4 system-ui,sans-serif">${escapeHtml(textValue(v ?? ''))}</div>`,
    }),
  },
  {
    re: pattern(
      '(?:add|insert|put|place)\\s+{v}\\s+(before|above|after|below|under|(?:at|to)\\s+the\\s+(?:start|top|beginning|end|bottom)\\s+of|into|inside|in|to)\\s+(?:the\\s+)?{v}',
    ),
    build: ([what, where, target], ctx) => {
      const content = unquote(what ?? '');
      if (!content.quoted) return null;
      const position = INSERT_POSITIONS.find(([re]) =>
        re.test((where ?? '').replace(/\s+/g, ' ')),
      )?.[1];
      if (!position) return null;
      const html = /^\s*</.test(content.text) ? content.text : `<p>${escapeHtml(content.text)}</p>`;
      return withTarget(
        { op: 'insertHtml', selector: '', position, html },
        resolveElement(target ?? '', ctx.outline),
      );
    },
  },
  // Text replacement: last, so the rules above take their phrasings first.
  {
    re: pattern('{v}\\s*(?:->|→|=>|⟶)\\s*{v}'),
    build: ([a, b]) => {
      const find = unquote(a ?? '');
      if (!find.text || (!find.quoted && RESERVED.test(find.text))) return null;
      return { op: 'replaceText', find: find.text, replace: textValue(b ?? '') };
    },
  },
  {
    re: pattern(
      '(?:replace|change|swap|substitute|rename|switch|swap\\s+out|update)\\s+(?:all\\s+(?:the\\s+)?(?:occurrences\\s+of\\s+|instances\\s+of\\s+|mentions\\s+of\\s+)?|every\\s+(?:occurrence\\s+of\\s+|instance\\s+of\\s+|mention\\s+of\\s+)?|each\\s+)?(?:(?:the\\s+)?(?:text|word|phrase|name|company\\s+name|brand\\s+name)\\s+)?{v}\\s+(?:with|to|into|by|for)\\s+{v}',
    ),
    build: ([a, b]) => {
      const find = unquote(a ?? '');
      const replace = unquote(b ?? '');
      if (!find.quoted && (RESERVED.test(find.text) || NOT_A_CURRENT_TEXT.test(find.text)))
        return null;
      if (!find.text) return null;
      return { op: 'replaceText', find: find.text, replace: replace.text };
    },
  },
];

/**
 * Other ways of saying an instruction, tried when no rule takes it as written: "the X should be
 * Y", "I'd like X to be Y", "new phone number: …", "make X say Y" all mean "set X to Y".
 */
export const REWRITES: [RegExp, string][] = [
  [/^(?:can|could|may)\s+(?:the\s+)?(.+?)\s+be\s+(.+)$/i, 'make the $1 $2'],
  [
    /^(?:i|we)\s+(?:don'?t|do\s+not)\s+(?:want|need)\s+(?:the\s+|a\s+|any\s+)?(.+?)(?:\s+any\s*more)?$/i,
    'remove the $1',
  ],
  [
    /^(?:the\s+|our\s+|my\s+)?(site|website|blog|shop|store|business|company|brand)\s+(?:should|must|will|shall)\s+(?:now\s+)?be\s+(?:called|named)\s+(.+)$/i,
    'rename the $1 to $2',
  ],
  [
    /^(?:(?:i|we)(?:'d|’d|\s+would)\s+(?:like|love|prefer)|(?:i|we)\s+(?:want|need))\s+(.+?)\s+to\s+(?:be|say|read)\s+(.+)$/i,
    'set $1 to $2',
  ],
  [
    /^(.+?)\s+(?:should|must|needs?\s+to|has\s+to|have\s+to|ought\s+to|will|shall)\s+(?:now\s+)?(?:be|say|read|show)\s+(.+)$/i,
    'set $1 to $2',
  ],
  [/^(.+?)\s+(?:is|are)\s+(?:now|changing\s+to|going\s+to\s+be)\s+(.+)$/i, 'set $1 to $2'],
  [/^(.+?)\s+(?:has|have)\s+changed\s+to\s+(.+)$/i, 'set $1 to $2'],
  [
    /^(?:my|our|the)\s+(?:new\s+)?(.+?)\s+(?:is|are|will\s+be)\s+(?:now\s+)?(.+)$/i,
    'set the $1 to $2',
  ],
  [/^([\p{L}' ]{2,40}?)\s+[-–—]\s+(.+)$/iu, 'set the $1 to $2'],
  [/^(?:new|updated)\s+(.+?)\s*(?::|=|-|is)\s+(.+)$/i, 'set the $1 to $2'],
  [/^([\p{L}' -]{2,40}?)\s*[:=]\s+(.+)$/iu, 'set the $1 to $2'],
  [/^(?:make|have)\s+(.+?)\s+(?:say|read)\s+(.+)$/i, 'set $1 to $2'],
  [
    /^(?:(?:i|we)\s+(?:want|need|prefer)|(?:i|we)(?:'d|’d|\s+would)\s+(?:like|love|prefer))\s+(.+)$/i,
    'use $1',
  ],
  [/^(?:i|we)\s+(?:want|need|prefer|(?:would|'d)\s+like)\s+(.+)$/i, 'make $1'],
  [/^(?:no|without)\s+(?:more\s+)?(.+)$/i, 'remove $1'],
  [/^[^:]{2,40}:\s+(.+)$/, '$1'],
];
