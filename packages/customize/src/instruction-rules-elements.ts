import { escapeUTF8 } from 'entities';
import { pattern, unquote } from './instruction-text.js';
import { resolveElement } from './instruction-outline.js';
import { colorValue, fontFamily, isEmail, urlOf } from './instruction-values.js';
import {
  ART,
  textValue,
  withTarget,
  linkOp,
  linkTarget,
  namedButtonOp,
  mainButtonOp,
  logoTextOps,
  phoneOps,
  emailOps,
  addressOps,
  copyrightOp,
  copyrightYearOp,
  looksNotText,
  headingOp,
  taglineOp,
  INSERT_POSITIONS,
  RESERVED,
  NOT_A_TEXT,
  NOT_A_CURRENT_TEXT,
} from './instruction-builders.js';
import type { Built, Rule } from './instruction-builders.js';

/**
 * The newsletter form an instruction adds: posted to the copy itself, where the sites host keeps
 * its submissions; one id on every page, so it is one form for the owner.
 */
export const NEWSLETTER_FORM =
  '<form id="mirror-newsletter" class="mirror-newsletter" action="/newsletter" method="post" style="display:flex;flex-wrap:wrap;gap:8px;align-items:center;justify-content:center;padding:16px;font:15px/1.4 system-ui,sans-serif">' +
  '<label for="mirror-newsletter-email">Subscribe to our newsletter</label>' +
  '<input id="mirror-newsletter-email" type="email" name="email" required autocomplete="email" placeholder="you@example.com" style="padding:8px;min-width:14rem;max-width:100%">' +
  '<button type="submit" style="padding:8px 16px">Subscribe</button></form>';

/**
 * Which forms an instruction names, as a phrase: "the contact form", "all form submissions",
 * "contact form emails", "the get a quote form's messages". Group: the words before "form".
 */
const FORMS_NAMED =
  "(?:(?:all|every|each|any)\\s+(?:of\\s+)?)?(?:the\\s+|our\\s+|my\\s+|this\\s+)?(?:(?:web)?site(?:'s|’s)?\\s+)?" +
  "(?:(?:([\\p{L}\\p{N}-]+(?:\\s+[\\p{L}\\p{N}-]+){0,2})\\s+)?forms?(?:'s|’s|s'|s’)?" +
  '(?:\\s+(?:submissions?|messages?|entries|e-?mails?|mails?|notifications?|enquiries|inquiries|responses?|leads?|data))?' +
  '|(contact|newsletter|sign-?up|form|all|every)\\s+(?:submissions|enquiries|inquiries|leads|sign-?ups))';

/** Words for the forms an instruction names: a kind, "all", or a form's words as an id-like slug. */
function formTarget(...named: string[]): string | null {
  const words = named
    .join(' ')
    .toLowerCase()
    .replace(/[’']s?\b/g, '')
    .split(/\s+/)
    .filter((w) => w && !/^(?:the|a|an|our|my|this|web|site|website)$/.test(w));
  if (words.length === 0) return 'all';
  const text = words.join(' ');
  if (/\b(?:all|every|each|any|form)\b/.test(text) && words.length === 1) return 'all';
  if (/contact|enquir|inquir|message|feedback|get in touch/.test(text)) return 'contact';
  if (/newsletter|subscri|sign-?up|mailing/.test(text)) return 'newsletter';
  const slug = words.join('-').replace(/[^\p{L}\p{N}_-]/gu, '');
  return /^[A-Za-z0-9_-]{1,100}$/.test(slug) ? slug : null;
}

/** "Send the contact form to sales@…": where a form's mails go (docs/forms.md). */
function recipientOp(named: string[], value: string): Built {
  const email = textValue(value)
    .replace(/^mailto:/i, '')
    .replace(/[.,;:!?)]+$/, '');
  if (!isEmail(email)) return null;
  const form = formTarget(...named);
  if (form === null) return null;
  return { op: 'setFormRecipient', email, ...(form === 'contact' ? {} : { form }) };
}

/** Rules about one part of a page: logo and images, buttons, links, contact details, headings and
 * texts, removing, hiding and adding, and plain text replacement (last). Order matters: see RULES. */
export const ELEMENT_RULES: Rule[] = [
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
  // Where a form's submissions are mailed (issue 34, item 6): a setting the draft carries.
  {
    re: pattern(
      `(?:send|forward|route|deliver|direct|redirect|e-?mail|mail)\\s+${FORMS_NAMED}\\s+(?:(?:by|via)\\s+e-?mail\\s+)?(?:to|at)\\s+{v}`,
    ),
    build: ([a, b, v]) => recipientOp([a ?? '', b ?? ''], v ?? ''),
  },
  {
    re: pattern(
      `${FORMS_NAMED}\\s+(?:should|must|will|shall|need\\s+to|needs\\s+to)?\\s*(?:go|be\\s+(?:sent|forwarded|e-?mailed|mailed|delivered|routed|directed)|get\\s+sent|arrive)\\s+(?:to|at)\\s+{v}`,
    ),
    build: ([a, b, v]) => recipientOp([a ?? '', b ?? ''], v ?? ''),
  },
  {
    re: pattern(
      `(?:make|have|let)\\s+${FORMS_NAMED}\\s+(?:go|send|e-?mail|mail|forward|be\\s+sent)(?:\\s+(?:its|their)\\s+\\w+)?\\s+to\\s+{v}`,
    ),
    build: ([a, b, v]) => recipientOp([a ?? '', b ?? ''], v ?? ''),
  },
  {
    re: pattern(
      `(?:set|change|update|make)\\s+${FORMS_NAMED}(?:'s|’s)?\\s+(?:recipient|destination|notification\\s+(?:e-?mail|address)|(?:e-?mail\\s+)?address|e-?mail)\\s+(?:to|as|=|:)\\s*{v}`,
    ),
    build: ([a, b, v]) => recipientOp([a ?? '', b ?? ''], v ?? ''),
  },
  // A newsletter sign-up: a form the sites host takes like a captured one (docs/forms.md).
  {
    re: pattern(
      '(?:add|insert|put|place|include)\\s+(?:a\\s+|an\\s+)?(?:(?:e-?mail|newsletter|mailing[-\\s]list)\\s+)?(?:sign[-\\s]?up|subscription|subscribe|newsletter)(?:\\s+(?:form|box|field|section|block))?(?:\\s+(?:to|in|into|at|on)\\s+(?:the\\s+)?(footer|bottom|end)(?:\\s+of\\s+(?:the|every|each|all)\\s+(?:pages?|site|website))?)?',
    ),
    build: (_groups, ctx) => ({
      op: 'insertHtml',
      selector: ctx.outline?.sections.some((section) => section.tag === 'footer')
        ? 'footer'
        : 'body',
      position: 'append',
      html: NEWSLETTER_FORM,
    }),
  },
  {
    re: pattern(
      '(?:add|show|put|display)\\s+(?:a|an)\\s+(?:announcement\\s+|top\\s+|notice\\s+|promo\\s+)?(?:banner|bar|notice|announcement|message)\\s*(?:saying|that\\s+says|with(?:\\s+the\\s+text)?|reading|:)\\s*{v}(?:\\s+(?:at|on|to)\\s+the\\s+top(?:\\s+of\\s+(?:the|every|each|all)\\s+pages?)?)?',
    ),
    build: ([v]) => ({
      op: 'insertHtml',
      selector: 'body',
      position: 'prepend',
      html: `<div class="mirror-banner" style="padding:10px 16px;text-align:center;background:#111;color:#fff;font:14px/1.4 system-ui,sans-serif">${escapeUTF8(textValue(v ?? ''))}</div>`,
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
      const html = /^\s*</.test(content.text) ? content.text : `<p>${escapeUTF8(content.text)}</p>`;
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
