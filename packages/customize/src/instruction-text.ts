/** The words of a message: instructions, quoted texts, polite padding and trailing modifiers. */

/** The contract's edit-plan limits (`EDIT_PLAN_LIMITS`), which a test keeps equal. */
export const INSTRUCTION_LIMITS = {
  maxOps: 100,
  maxTextLength: 5_000,
  maxFindLength: 500,
  maxUrlLength: 2_000,
  maxSummaryLength: 2_000,
} as const;

/** Opening quote → its closing quotes. */
const QUOTES: Record<string, string> = {
  "'": "'",
  '"': '"',
  '“': '”',
  '”': '”',
  '‘': '’',
  '«': '»',
  '„': '“”',
  '`': '`',
};

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** An apostrophe inside a word (Dana's, don't) is no quote mark. */
function isApostrophe(c: string, prev: string, next: string, opening: boolean): boolean {
  if (c !== "'" && c !== '’') return false;
  return opening ? WORD_CHAR.test(prev) : WORD_CHAR.test(next);
}

/** Whether `c` closes a text opened with `open`. */
function closes(open: string, c: string, next: string): boolean {
  const close = QUOTES[open] ?? '';
  if (!close.includes(c)) return false;
  return !((c === "'" || c === '’') && WORD_CHAR.test(next));
}

/** How a chunk of a message is joined to the one before it. */
export type Joiner = 'start' | 'sentence' | 'and' | 'then' | 'comma';

export interface Chunk {
  /** Offsets in the message; the chunk is `text.slice(start, end)` (trimmed). */
  start: number;
  end: number;
  joiner: Joiner;
}

const WORD_JOINER = /,?\s+(?:and\s+then|and\s+also|and|then|but)\s+/iy;
const COMMA_JOINER = /,\s+/y;

/**
 * Cuts a message into hard segments (lines, `;`) of chunks. Chunks are joined softly — at sentence
 * ends, "and", "then", commas — outside quotes and parentheses; whether a soft join really starts a
 * new instruction is for the parser to decide (`Tom and Jerry` stays one text).
 */
export function lexMessage(text: string): Chunk[][] {
  const segments: Chunk[][] = [];
  let ignored = new Set<number>();
  let segStart = 0;
  for (;;) {
    const result = lexSegment(text, segStart, ignored);
    if (result.unclosed !== undefined) {
      // A quote or parenthesis that never closes is an ordinary character.
      ignored.add(result.unclosed);
      continue;
    }
    const chunks = result.chunks.filter((c) => text.slice(c.start, c.end).trim() !== '');
    if (chunks.length > 0) segments.push(chunks);
    if (result.next >= text.length) break;
    segStart = result.next;
    ignored = new Set(ignored);
  }
  return segments;
}

function lexSegment(
  text: string,
  from: number,
  ignored: Set<number>,
): { chunks: Chunk[]; next: number; unclosed?: number } {
  const chunks: Chunk[] = [];
  let chunkStart = from;
  let joiner: Joiner = 'start';
  let open: string | null = null;
  let openAt = -1;
  let depth = 0;
  let parenAt = -1;
  const cut = (end: number, next: number, nextJoiner: Joiner) => {
    chunks.push(trimChunk(text, chunkStart, end, joiner));
    chunkStart = next;
    joiner = nextJoiner;
  };
  let i = from;
  for (; i < text.length; i++) {
    const c = text[i] as string;
    const prev = text[i - 1] ?? ' ';
    const next = text[i + 1] ?? ' ';
    if (open !== null) {
      if (c === '\n') return { chunks, next: i, unclosed: openAt };
      if (closes(open, c, next)) {
        open = null;
        // 'Set the description to "Notes from the road." Use Lora': the sentence ends in quotes.
        if (depth === 0 && /[.!?]/.test(prev) && /\s/.test(next) && i + 1 < text.length) {
          cut(i + 1, i + 1, 'sentence');
        }
      }
      continue;
    }
    if (c === '\n' || c === ';') {
      cut(i, i + 1, 'start');
      return finish(chunks, depth, parenAt, i + 1);
    }
    if (!ignored.has(i) && QUOTES[c] !== undefined && !isApostrophe(c, prev, next, true)) {
      open = c;
      openAt = i;
      continue;
    }
    if (c === '(' && !ignored.has(i)) {
      if (depth === 0) parenAt = i;
      depth++;
      continue;
    }
    if (c === ')' && depth > 0) {
      depth--;
      continue;
    }
    if (depth > 0) continue;
    if (/[.!?…]/.test(c)) {
      let end = i + 1;
      while (/[.!?…]/.test(text[end] ?? '')) end++;
      if (end < text.length && /\s/.test(text[end] ?? '') && /[\p{L}\p{N})"'”’»]/u.test(prev)) {
        cut(end, end, 'sentence');
      }
      i = end - 1;
      continue;
    }
    if (c === ',' || /\s/.test(c)) {
      WORD_JOINER.lastIndex = i;
      const word = WORD_JOINER.exec(text);
      COMMA_JOINER.lastIndex = i;
      const comma = word ? null : COMMA_JOINER.exec(text);
      const m = word ?? comma;
      if (m) {
        const kind: Joiner = !word ? 'comma' : /then/i.test(m[0]) ? 'then' : 'and';
        cut(i, i + m[0].length, kind);
        i += m[0].length - 1;
        continue;
      }
    }
  }
  if (open !== null) return { chunks, next: i, unclosed: openAt };
  cut(text.length, text.length, 'start');
  return finish(chunks, depth, parenAt, text.length);
}

function finish(
  chunks: Chunk[],
  depth: number,
  parenAt: number,
  next: number,
): { chunks: Chunk[]; next: number; unclosed?: number } {
  if (depth > 0) return { chunks, next, unclosed: parenAt };
  return { chunks, next };
}

function trimChunk(text: string, start: number, end: number, joiner: Joiner): Chunk {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s] ?? '')) s++;
  while (e > s && /\s/.test(text[e - 1] ?? '')) e--;
  return { start: s, end: e, joiner };
}

export interface Value {
  text: string;
  quoted: boolean;
}

/** The end of the quoted text that starts at 0, or -1. */
function quotedEnd(t: string): number {
  const open = t[0] ?? '';
  if (QUOTES[open] === undefined) return -1;
  for (let i = 1; i < t.length; i++) {
    if (closes(open, t[i] as string, t[i + 1] ?? ' ')) return i;
  }
  return -1;
}

/** A value as written: a text wholly in quotes loses them. */
export function unquote(raw: string): Value {
  // "set the title to: X" — the colon is punctuation, not text.
  const t = raw.trim().replace(/^[:=]\s*/, '');
  const end = quotedEnd(t);
  if (end > 0 && end === t.length - 1) return { text: t.slice(1, -1), quoted: true };
  return { text: t, quoted: false };
}

/** A value that opens a quote and goes on after it closes ("'A' and more"): no single text. */
export function isBrokenValue(raw: string): boolean {
  const t = raw.trim().replace(/^[:=]\s*/, '');
  const end = quotedEnd(t);
  return end > 0 && end < t.length - 1;
}

/** A quoted text (apostrophes inside words allowed) or, failing that, the shortest run of words. */
const VALUE =
  "((?:'(?:[^']|'(?=[\\p{L}\\p{N}]))*'|\"[^\"]*\"|“[^”]*”|‘(?:[^’]|’(?=[\\p{L}\\p{N}]))*’|«[^»]*»|„[^“”]*[“”]|`[^`]*`|.+?))";

/** An instruction pattern: `{v}` stands for a value (quoted or bare). */
export function pattern(source: string): RegExp {
  return new RegExp(`^${source.replaceAll('{v}', VALUE)}$`, 'iu');
}

const LEADING_FILLER = new RegExp(
  `^(?:${[
    '[-*•·>]+\\s*',
    '\\d{1,2}[.)]\\s+',
    '(?:hey|hi|hello|ok|okay|so|right|oh|well|alright)\\b[\\s,!]*',
    'please\\b[\\s,]*',
    'pls\\b[\\s,]*',
    'kindly\\s+',
    'just\\s+',
    'also\\b[\\s,]*',
    'and\\s+',
    'then\\s+',
    'now\\b[\\s,]*',
    'next\\b[\\s,]*',
    'first(?:ly)?\\b[\\s,]*(?:of\\s+all\\b[\\s,]*)?',
    'second(?:ly)?\\b[\\s,]*',
    'finally\\b[\\s,]*',
    'lastly\\b[\\s,]*',
    'after\\s+that\\b[\\s,]*',
    'one\\s+more\\s+thing\\b[\\s,:]*',
    'go\\s+ahead\\s+and\\s+',
    '(?:can|could|would|will)\\s+(?:you|we|u)\\s+(?!mind\\b)(?:please\\s+|kindly\\s+|just\\s+|maybe\\s+)*',
    "(?:i|we)(?:'d|’d|\\s+would)\\s+(?:really\\s+)?(?:like|love|prefer)\\s+(?:you\\s+)?to\\s+",
    '(?:i|we)\\s+(?:really\\s+)?(?:want|need)\\s+(?:you\\s+)?to\\s+',
    '(?:i|we)\\s+(?:would\\s+)?like\\s+to\\s+',
    "let(?:'|’)?s\\s+",
    'make\\s+sure\\s+(?:to\\s+|you\\s+)?',
    "(?:it\\s+)?(?:would|'d)\\s+be\\s+(?:great|nice)\\s+(?:if\\s+you\\s+could\\s+|to\\s+)",
    'is\\s+it\\s+possible\\s+to\\s+',
    'try\\s+to\\s+',
  ].join('|')})+`,
  'i',
);

const TRAILING_FILLER =
  /(?:[\s,]+(?:please|pls|thanks|thank\s+you|thx|cheers|for\s+me|if\s+possible|if\s+you\s+can|if\s+you\s+could|asap|too|as\s+well|ok|okay)|\s*[:;]-?[)D]|\s*[.!?…,;:]+)+$/i;

/** "would you mind hiding…": the verb after a polite gerund. */
const GERUNDS: Record<string, string> = {
  hiding: 'hide',
  removing: 'remove',
  changing: 'change',
  making: 'make',
  using: 'use',
  replacing: 'replace',
  setting: 'set',
  adding: 'add',
  deleting: 'delete',
  updating: 'update',
  switching: 'switch',
  putting: 'put',
  turning: 'turn',
  swapping: 'swap',
  renaming: 'rename',
  getting: 'get',
  taking: 'take',
};
const GERUND =
  /^(?:would\s+you\s+mind|how\s+about|what\s+about|think\s+about|consider)\s+(\w+ing)\b/i;

/** Drops polite padding ("please", "could you"), list bullets and end punctuation. */
export function normalize(clause: string): string {
  let t = clause.replace(/\s+/g, ' ').trim();
  for (let k = 0; k < 3; k++) {
    const before = t;
    t = t.replace(TRAILING_FILLER, '').replace(LEADING_FILLER, '').trim();
    t = t.replace(GERUND, (m, g: string) => GERUNDS[g.toLowerCase()] ?? m).trim();
    if (t === before) break;
  }
  return t;
}

/** Words that carry no instruction on their own ("Thanks!", "please"). */
export function isFiller(clause: string): boolean {
  // A list's numbering ("1.", "b)") on its own.
  if (/^\s*(?:\d{1,2}|[a-z])[.)]\s*$/i.test(clause)) return true;
  const t = clause.replace(/[\s.!?…,;:)(-]+/g, ' ').trim();
  if (t === '') return true;
  if (/^(?:also|and|then|plus|oh|so|next|finally|lastly|first|second|third|now|ok so)$/i.test(t)) {
    return true;
  }
  if (
    /^(?:please|pls|thanks|thank\s+you(?:\s+so\s+much|\s+very\s+much)?|thx|cheers|that'?s\s+(?:all|it)|ok|okay|(?:hi|hello|hey)(?:\s+there)?|ty|many\s+thanks|thanks\s+a\s+lot|regards|best)$/i.test(
      t,
    )
  ) {
    return true;
  }
  // Context, not an instruction: "I just cloned my blog", "This is my site".
  return /^(?:(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+)?(?:cloned|mirrored|copied|imported|moved|set\s+up)\s+(?:my|our|the)\s+(?:blog|site|website|shop|store|page)|this\s+is\s+(?:my|our)\s+(?:blog|site|website|shop|store))$/i.test(
    t,
  );
}

/** Asks for nothing to change ("keep the logo", "don't touch the header"): nothing left to do. */
export function asksForNothing(clause: string): boolean {
  return /^(?:keep|leave|don'?t\s+(?:change|touch)|do\s+not\s+(?:change|touch))\s+\S/i.test(
    normalize(clause),
  );
}

export interface Modifiers {
  pages?: string[];
  caseInsensitive?: boolean;
  wholeWord?: boolean;
  attributes?: boolean;
}

const MODIFIERS: [RegExp, (m: RegExpExecArray, mods: Modifiers) => void][] = [
  [
    /\s+(?:everywhere|on\s+(?:all|every|each)\s+(?:of\s+the\s+)?pages?|on\s+all\s+the\s+pages|across\s+(?:the\s+)?(?:whole\s+|entire\s+)?(?:site|website|blog)|site-?wide|throughout(?:\s+the\s+(?:whole\s+|entire\s+)?(?:site|website|blog))?|on\s+the\s+(?:whole\s+|entire\s+)?(?:site|website|blog)|in\s+all\s+places)$/i,
    () => undefined,
  ],
  [
    /\s+(?:only\s+)?on\s+the\s+(?:home\s?page|front\s+page|landing\s+page|main\s+page|start\s+page)(?:\s+only)?$/i,
    (_m, mods) => (mods.pages = ['/']),
  ],
  [
    /\s+(?:only\s+)?(?:on|in)\s+(?:the\s+)?(?:page\s+)?(\/[^\s'"]*)(?:\s+page)?(?:\s+only)?$/i,
    (m, mods) => (mods.pages = [m[1] ?? '/']),
  ],
  [
    /\s+(?:only\s+)?on\s+the\s+([a-z0-9][\w-]*)\s+page(?:\s+only)?$/i,
    (m, mods) => (mods.pages = [`/${(m[1] ?? '').toLowerCase()}*`]),
  ],
  [
    /\s*\(?(?:case[\s-]insensitive(?:ly)?|ignoring\s+case|ignore\s+case|in\s+any\s+case|regardless\s+of\s+case|whatever\s+the\s+case)\)?$/i,
    (_m, mods) => (mods.caseInsensitive = true),
  ],
  [
    /\s*\(?(?:as\s+)?(?:a\s+)?(?:whole|full)\s+words?(?:\s+only)?\)?$/i,
    (_m, mods) => (mods.wholeWord = true),
  ],
  [
    /\s+(?:including|and\s+in|also\s+in)\s+(?:the\s+)?(?:alt(?:\s+texts?)?|attributes|image\s+descriptions|tooltips)$/i,
    (_m, mods) => (mods.attributes = true),
  ],
];

/** A page named before the new text: "change the heading on the home page to Hello". */
const MIDDLE_PAGE =
  /\s+(?:only\s+)?(?:on|in)\s+(?:the\s+)?(home\s?page|front\s+page|landing\s+page|\/[^\s'"]*|[a-z0-9][\w-]*\s+page)(?=\s+(?:to|with|into|as|so)\s)/i;

/** Strips trailing modifiers (" everywhere", " on the about page", " (ignoring case)"). */
export function takeModifiers(clause: string): { rest: string; mods: Modifiers } {
  const mods: Modifiers = {};
  let rest = clause;
  const middle = MIDDLE_PAGE.exec(rest);
  if (middle && middle.index > 0 && !/["'“‘«]/.test(rest.slice(0, middle.index))) {
    const page = (middle[1] ?? '').toLowerCase().replace(/\s+/g, ' ');
    mods.pages = page.startsWith('/')
      ? [page]
      : /^(?:home ?page|front page|landing page)$/.test(page)
        ? ['/']
        : [`/${page.replace(/ page$/, '')}*`];
    rest = rest.slice(0, middle.index) + rest.slice(middle.index + middle[0].length);
  }
  for (let changed = true; changed;) {
    changed = false;
    for (const [re, apply] of MODIFIERS) {
      const m = re.exec(rest);
      if (m && m.index > 0) {
        apply(m, mods);
        rest = rest.slice(0, m.index).replace(/[\s,;]+$/, '');
        changed = true;
      }
    }
  }
  return { rest, mods };
}
