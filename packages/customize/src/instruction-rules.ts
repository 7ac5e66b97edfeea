import { pattern, unquote } from './instruction-text.js';
import { colorValue, urlOf } from './instruction-values.js';
import {
  ART,
  OWNER,
  ROLE,
  ROLE_NOUN,
  FONT_ROLE,
  FONT_WORD,
  textValue,
  fontOp,
  roleColorOp,
  modeOps,
  sizeOp,
  siteNameOps,
  fromToOps,
  NAMED_TEXT_KINDS,
  NOT_A_CURRENT_TEXT,
} from './instruction-builders.js';
import type { Rule } from './instruction-builders.js';
import { ELEMENT_RULES } from './instruction-rules-elements.js';

/**
 * The grammar of the built-in instruction engine (docs/customize.md): one rule per phrasing, tried
 * in order; the first rule whose pattern matches and which builds something wins. Site-wide rules
 * (looks, sizes, texts by kind, title, name, colours, fonts) come first, then ELEMENT_RULES.
 */
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
  ...ELEMENT_RULES,
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
