import { parseColor } from './colors.js';
import { INSTRUCTION_LIMITS, pattern, unquote } from './instruction-text.js';
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

const ROLE_WORDS: Record<string, ColorRole> = {
  primary: 'primary',
  brand: 'primary',
  main: 'primary',
  theme: 'primary',
  accent: 'accent',
  secondary: 'accent',
  highlight: 'accent',
  background: 'background',
  bg: 'background',
  'page background': 'background',
  text: 'text',
  font: 'text',
  'body text': 'text',
};
const ROLE =
  '(primary|brand|main|theme|accent|secondary|highlight|page\\s+background|background|bg|body\\s+text|text|font)';

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
  '(headings?|headlines?|titles?|body\\s+text|body|text|paragraphs?|everything|all\\s+text)';

/** Fonts every system has: no web font stylesheet is added for them. */
const SYSTEM_FONTS = new Set([
  'arial',
  'helvetica',
  'helvetica neue',
  'georgia',
  'times',
  'times new roman',
  'verdana',
  'tahoma',
  'trebuchet ms',
  'courier',
  'courier new',
  'segoe ui',
  'garamond',
  'palatino',
  'impact',
  'comic sans ms',
  'system-ui',
  'sans-serif',
  'serif',
  'monospace',
  'cursive',
]);

const LANDMARKS: Record<string, string> = {
  footer: 'footer',
  'site footer': 'footer',
  'page footer': 'footer',
  header: 'header',
  'site header': 'header',
  'page header': 'header',
  nav: 'nav',
  navigation: 'nav',
  navbar: 'nav',
  'nav bar': 'nav',
  'navigation bar': 'nav',
  menu: 'nav',
  'main menu': 'nav',
  'top menu': 'nav',
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
const KIND_WORDS =
  /\b(?:section|block|area|part|module|panel|box|element|container|widget|component|div|bit)s?\b/gi;
const TYPED_TARGETS: Record<string, string> = {
  button: 'a, button',
  link: 'a',
  heading: 'h1, h2, h3, h4, h5, h6',
  paragraph: 'p',
};

function colorOf(v: string): string | undefined {
  const { text } = unquote(v);
  const compact = text.trim();
  if (parseColor(compact)) return compact;
  const joined = compact.replace(/\s+/g, '').toLowerCase();
  return parseColor(joined) ? joined : undefined;
}

function urlOf(v: string): string | undefined {
  const { text } = unquote(v);
  const t = text.trim();
  if (/\s/.test(t) || t.length === 0 || t.length > INSTRUCTION_LIMITS.maxUrlLength)
    return undefined;
  if (/^(?:https?:\/\/|\/|#|mailto:|tel:|\.\.?\/|data:image\/)/i.test(t)) return t;
  if (/^[\w-]+(?:\.[\w-]+)+(?:[/?#]\S*)?$/.test(t) && /\.[a-z]{2,}(?:[/?#]|$)/i.test(t)) {
    return `https://${t}`;
  }
  return undefined;
}

function textValue(v: string): string {
  return unquote(v).text;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function isPathSelector(selector: string): boolean {
  return selector.includes(':nth-of-type') || selector.includes(' > ');
}

type Resolved = { selector: string; withText?: string; pages?: string[] } | { note: string };

/** Finds the element a phrase names ("the newsletter section", "footer", "the button 'Buy'"). */
function resolveElement(phrase: string, ctx: Context): Resolved {
  const { text, quoted } = unquote(phrase);
  const typed = /^(?:the\s+)?(button|link|heading|paragraph)\s+(.+)$/i.exec(text);
  if (typed && unquote(typed[2] ?? '').quoted) {
    const selector = TYPED_TARGETS[(typed[1] ?? '').toLowerCase()] ?? '*';
    return { selector, withText: unquote(typed[2] ?? '').text };
  }
  const name = text
    .toLowerCase()
    .replace(/^(?:the|a|an|this|that|our|my)\s+/, '')
    .replace(/\s+/g, ' ')
    .trim();
  const core = quoted ? name : name.replace(KIND_WORDS, ' ').replace(/\s+/g, ' ').trim();
  if (!core) return { note: `'${phrase}' does not name a part of the page.` };
  const landmark = LANDMARKS[core] ?? LANDMARKS[name];
  const outline = ctx.outline;
  if (outline) {
    const words = core.split(' ').filter((w) => w.length > 1);
    let best: { score: number; selector: string } | undefined;
    for (const s of outline.sections) {
      let score = 0;
      const all = words.every((w) => {
        const weights = [
          s.id?.toLowerCase().includes(w) ? 4 : 0,
          s.classes?.some((c) => c.toLowerCase().includes(w)) ? 3 : 0,
          s.tag === w || LANDMARKS[w] === s.tag ? 3 : 0,
          s.heading?.toLowerCase().includes(w) ? 1 : 0,
        ];
        score += Math.max(...weights);
        return Math.max(...weights) > 0;
      });
      if (all && words.length > 0 && (!best || score > best.score)) {
        best = { score, selector: s.selector };
      }
    }
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

function withTarget<T extends EditOp>(op: T, resolved: Resolved): T | { note: string } {
  if ('note' in resolved) return resolved;
  const out = { ...op, selector: resolved.selector } as T & { withText?: string };
  if (resolved.withText !== undefined) out.withText = resolved.withText;
  if (resolved.pages) out.pages = resolved.pages;
  return out;
}

function headingPages(ctx: Context): string[] {
  return [ctx.outline?.path ?? '/'];
}

function fontStylesheet(family: string): string | undefined {
  if (SYSTEM_FONTS.has(family.toLowerCase())) return undefined;
  return `https://fonts.googleapis.com/css2?family=${encodeURIComponent(family).replace(/%20/g, '+')}&display=swap`;
}

function fontOp(rawFamily: string, roleWord: string | undefined): Built {
  const family = textValue(rawFamily).trim();
  if (!/^[\p{L}\p{N}][\p{L}\p{N} .-]{0,99}$/u.test(family)) return null;
  const op: EditOp = { op: 'changeFont', family };
  const role = roleWord ? FONT_ROLE_WORDS[roleWord.toLowerCase().replace(/\s+/g, ' ')] : undefined;
  if (role && role !== 'all') op.role = role;
  const stylesheetUrl = fontStylesheet(family);
  if (stylesheetUrl) op.stylesheetUrl = stylesheetUrl;
  return op;
}

function roleColorOp(roleWord: string, value: string): Built {
  const to = colorOf(value);
  const role = ROLE_WORDS[roleWord.toLowerCase().replace(/\s+/g, ' ')];
  return to && role ? { op: 'changeColor', role, to } : null;
}

/** A link target given by its address (`/pricing`) or by its text ('Pricing'). */
function linkTarget(v: string, kind: string): { selector: string; withText?: string } {
  const { text, quoted } = unquote(v);
  const url = quoted ? undefined : urlOf(text);
  if (url !== undefined && /^(?:\/|#|https?:)/.test(text)) {
    return { selector: `a[href="${text.replace(/["\\]/g, '')}"]` };
  }
  const selector = /button/i.test(kind) ? 'a, button' : 'a';
  return { selector, withText: text };
}

function linkOp(kind: string, from: string, to: string): Built {
  const target = linkTarget(from, kind);
  const toValue = unquote(to);
  const href =
    toValue.quoted && !/^(?:\/|https?:|#|mailto:)/i.test(toValue.text) ? undefined : urlOf(to);
  if (href !== undefined) return { op: 'setAttribute', ...target, name: 'href', value: href };
  if (!toValue.quoted) return null;
  return { op: 'setText', ...target, text: toValue.text };
}

const INSERT_POSITIONS: [RegExp, InsertPosition][] = [
  [/^(?:before|above)$/i, 'before'],
  [/^(?:after|below|under)$/i, 'after'],
  [/^(?:at|to)\s+the\s+(?:start|top|beginning)\s+of$/i, 'prepend'],
  [/^(?:at|to)\s+the\s+(?:end|bottom)\s+of$|^(?:in|into|inside|to)$/i, 'append'],
];

/** Unquoted words that name a part of the page rather than text to replace. */
const RESERVED =
  /^(?:the\s|all\s)|\b(?:colou?rs?|fonts?|logo|title|heading|headline|description|background|link|button|image|picture|photo|section|footer|header|menu|nav|navigation|page)\b/i;

/** Tried in order; the first rule whose pattern matches and which builds something wins. */
export const RULES: Rule[] = [
  // Title and description.
  {
    re: pattern(
      '(?:set|change|update|make|rename|use)\\s+(?:the\\s+)?(?:page\\s+|site\\s+|website\\s+|browser\\s+|tab\\s+|document\\s+)?title\\s*(?:to|as|into|=|:)\\s*{v}',
    ),
    build: ([v]) => ({ op: 'setTitle', title: textValue(v ?? '') }),
  },
  {
    re: pattern('(?:the\\s+)?(?:page\\s+|site\\s+)?title\\s*(?:[:=]|should\\s+be|is)\\s*{v}'),
    build: ([v]) => ({ op: 'setTitle', title: textValue(v ?? '') }),
  },
  {
    re: pattern(
      '(?:set|change|update|make|use)\\s+(?:the\\s+)?(?:(?:meta|page|site|seo|website)\\s+)*description\\s*(?:to|as|=|:)\\s*{v}',
    ),
    build: ([v]) => ({ op: 'setDescription', description: textValue(v ?? '') }),
  },
  {
    re: pattern('(?:the\\s+)?(?:meta\\s+|page\\s+)?description\\s*(?:[:=]|should\\s+be)\\s*{v}'),
    build: ([v]) => ({ op: 'setDescription', description: textValue(v ?? '') }),
  },
  // Colours.
  {
    re: pattern(
      '(?:set|change|update|make)\\s+(?:the\\s+)?(?:css\\s+)?(?:variable\\s+|var\\s+|custom\\s+property\\s+)?(--[\\w-]+)\\s*(?:to|=|:)\\s*{v}',
    ),
    build: ([name, v]) => {
      const to = colorOf(v ?? '');
      return to ? { op: 'changeColor', variable: name ?? '', to } : null;
    },
  },
  {
    re: pattern(
      `(?:change|set|make|update|switch|turn)\\s+(?:the\\s+)?(?:site'?s?\\s+|website'?s?\\s+)?${ROLE}\\s+colou?r\\s*(?:to|into|=|:|as)?\\s*{v}`,
    ),
    build: ([role, v]) => roleColorOp(role ?? '', v ?? ''),
  },
  {
    re: pattern(
      '(?:change|set|make|update|switch|turn)\\s+(?:the\\s+)?(page\\s+background|background|bg)\\s*(?:to|into|=|:)?\\s*{v}',
    ),
    build: ([role, v]) => roleColorOp(role ?? '', v ?? ''),
  },
  {
    re: pattern(`(?:use|make)\\s+{v}\\s+(?:as\\s+)?(?:the\\s+)?${ROLE}\\s+colou?r`),
    build: ([v, role]) => roleColorOp(role ?? '', v ?? ''),
  },
  {
    re: pattern(
      '(?:change|replace|swap|switch|turn|make|convert)\\s+(?:all\\s+)?(?:the\\s+)?(?:colou?r\\s+)?{v}(?:\\s+colou?r)?\\s+(?:with|to|into|by|for)\\s+(?:the\\s+colou?r\\s+)?{v}',
    ),
    build: ([a, b]) => {
      const from = colorOf(a ?? '');
      const to = colorOf(b ?? '');
      if (!from || !to) return null;
      // A quoted colour name is a text ('Red' the product); a quoted #hex is still a colour.
      if (unquote(a ?? '').quoted && !/^(?:#|rgb|hsl)/i.test(from)) return null;
      return { op: 'changeColor', from, to };
    },
  },
  // Fonts.
  {
    re: pattern(
      `(?:use|set|change|switch|make|update)\\s+(?:the\\s+)?font(?:\\s+family)?\\s*(?:to|=|:|as|into)?\\s*{v}\\s+(?:for|on)\\s+(?:the\\s+|all\\s+)?${FONT_ROLE}`,
    ),
    build: ([v, role]) => fontOp(v ?? '', role),
  },
  {
    re: pattern(
      `(?:set|change|switch|make|update)\\s+(?:the\\s+)?font(?:\\s+family)?\\s+(?:of|for)\\s+(?:the\\s+|all\\s+)?${FONT_ROLE}\\s*(?:to|=|:|into)\\s*{v}`,
    ),
    build: ([role, v]) => fontOp(v ?? '', role),
  },
  {
    re: pattern(
      `(?:use|set|change|switch|make|update)\\s+(?:the\\s+)?(?:${FONT_ROLE}\\s+)?font(?:\\s+family)?\\s*(?:to|=|:|as|into)?\\s*{v}`,
    ),
    build: ([role, v]) => fontOp(v ?? '', role),
  },
  {
    re: pattern(
      `(?:use|apply)\\s+{v}\\s+(?:as\\s+(?:the\\s+)?)?(?:${FONT_ROLE}\\s+)?font(?:\\s+family)?(?:\\s+(?:for|on)\\s+(?:the\\s+|all\\s+)?${FONT_ROLE})?`,
    ),
    build: ([v, role, role2]) => fontOp(v ?? '', role ?? role2),
  },
  // Logo and images.
  {
    re: pattern(
      "(?:replace|change|swap|update|set)\\s+(?:the\\s+)?(?:site'?s?\\s+|company\\s+|brand\\s+)?logo\\s+(?:image\\s+)?(?:with|to|for|by|as)\\s+(?:the\\s+(?:image|file)\\s+|this\\s+(?:image\\s+)?)?{v}",
    ),
    build: ([v]) => {
      const src = urlOf(v ?? '');
      return src ? { op: 'replaceImage', logo: true, src } : null;
    },
  },
  {
    re: pattern('use\\s+{v}\\s+as\\s+(?:the\\s+)?(?:new\\s+)?(?:site\\s+)?logo'),
    build: ([v]) => {
      const src = urlOf(v ?? '');
      return src ? { op: 'replaceImage', logo: true, src } : null;
    },
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
        resolveElement(where ?? '', ctx),
      );
    },
  },
  // Links and buttons.
  {
    re: pattern(
      '(?:rename|relabel)\\s+(?:the\\s+)?(link|button|menu\\s+item|nav\\s+item)\\s+{v}\\s+(?:to|as)\\s+{v}',
    ),
    build: ([kind, from, to]) => ({
      op: 'setText',
      ...linkTarget(from ?? '', kind ?? ''),
      text: textValue(to ?? ''),
    }),
  },
  {
    re: pattern(
      '(?:change|set|update)\\s+(?:the\\s+)?(?:text\\s+of\\s+(?:the\\s+)?)?(link|button|menu\\s+item|nav\\s+item)(?:\\s+text)?\\s+{v}\\s+to\\s+{v}',
    ),
    build: ([kind, from, to]) => linkOp(kind ?? '', from ?? '', to ?? ''),
  },
  {
    re: pattern(
      '(?:point|make|redirect)\\s+(?:the\\s+)?(link|button|menu\\s+item|nav\\s+item)\\s+{v}\\s+(?:to|at)\\s+(?:go\\s+to\\s+|point\\s+to\\s+)?{v}',
    ),
    build: ([kind, from, to]) => linkOp(kind ?? '', from ?? '', to ?? ''),
  },
  {
    re: pattern(
      '(?:make|have|let)\\s+(?:the\\s+)?{v}\\s+(link|button)\\s+(?:go|point|link|lead)\\s+to\\s+{v}',
    ),
    build: ([from, kind, to]) => linkOp(kind ?? '', from ?? '', to ?? ''),
  },
  {
    re: pattern(
      '(?:change|set|update)\\s+(?:the\\s+)?(?:link|url|href|address)\\s+(?:of|for|on)\\s+(?:the\\s+)?{v}(?:\\s+(link|button))?\\s+to\\s+{v}',
    ),
    build: ([from, kind, to]) => {
      const href = urlOf(to ?? '');
      return href
        ? {
            op: 'setAttribute',
            ...linkTarget(from ?? '', kind ?? 'link'),
            name: 'href',
            value: href,
          }
        : null;
    },
  },
  // Headings and texts.
  {
    re: pattern(
      '(?:change|set|update|replace|make|rewrite)\\s+(?:the\\s+)?(?:main\\s+|page\\s+|top\\s+|hero\\s+|first\\s+|big\\s+)?(?:heading|headline|h1|header\\s+text|title\\s+text)\\s*(?:text\\s+)?(?:to|with|into|=|:|as)\\s*{v}',
    ),
    build: ([v], ctx) => ({
      op: 'setText',
      selector: 'h1',
      text: textValue(v ?? ''),
      pages: headingPages(ctx),
    }),
  },
  {
    re: pattern(
      '(?:change|set|update|replace|rewrite)\\s+(?:the\\s+)?(?:subheading|sub-heading|subtitle|sub-title|subheadline|tagline|slogan)\\s*(?:text\\s+)?(?:to|with|into|=|:|as)\\s*{v}',
    ),
    build: ([v], ctx) => ({
      op: 'setText',
      selector: 'h1 + p',
      text: textValue(v ?? ''),
      pages: headingPages(ctx),
    }),
  },
  {
    re: pattern(
      '(?:change|set|update|rewrite)\\s+(?:the\\s+)?(?:text|copy|content|wording)\\s+(?:of|in)\\s+(?:the\\s+)?{v}\\s+(?:to|with|into)\\s+{v}',
    ),
    build: ([where, to], ctx) => {
      const text = textValue(to ?? '');
      const target = unquote(where ?? '');
      if (target.quoted) return { op: 'replaceText', find: target.text, replace: text };
      return withTarget({ op: 'setText', selector: '', text }, resolveElement(where ?? '', ctx));
    },
  },
  // Removing, hiding and adding.
  {
    re: pattern(
      '(?:remove|delete|drop|erase)\\s+(?:the\\s+)?(?:text|word|words|phrase|sentence)\\s+{v}',
    ),
    build: ([v]) => ({ op: 'replaceText', find: textValue(v ?? ''), replace: '' }),
  },
  {
    re: pattern('(remove|delete|drop|get\\s+rid\\s+of|take\\s+out|take\\s+away|hide)\\s+{v}'),
    build: ([verb, what], ctx) => {
      const op = /hide/i.test(verb ?? '') ? 'hideElement' : 'removeElement';
      return withTarget({ op, selector: '' }, resolveElement(what ?? '', ctx));
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
        resolveElement(target ?? '', ctx),
      );
    },
  },
  // Text replacement: last, so the rules above take their phrasings first.
  {
    re: pattern(
      '(?:replace|change|swap|substitute|rename|switch)\\s+(?:all\\s+(?:occurrences\\s+of\\s+|instances\\s+of\\s+|mentions\\s+of\\s+)?)?(?:(?:the\\s+)?(?:text|word|phrase|name|company\\s+name|brand\\s+name)\\s+)?{v}\\s+(?:with|to|into|by|for)\\s+{v}',
    ),
    build: ([a, b]) => {
      const find = unquote(a ?? '');
      const replace = unquote(b ?? '');
      if (!find.quoted && RESERVED.test(find.text)) return null;
      if (!find.text) return null;
      return { op: 'replaceText', find: find.text, replace: replace.text };
    },
  },
];
