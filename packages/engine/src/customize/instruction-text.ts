/** The words of a message: instructions, quoted texts, polite padding and trailing modifiers. */

/** The contract's edit-plan limits (`EDIT_PLAN_LIMITS`), which a test keeps equal. */
export const INSTRUCTION_LIMITS = {
  maxOps: 100,
  maxTextLength: 5_000,
  maxFindLength: 500,
  maxUrlLength: 2_000,
  maxSummaryLength: 2_000,
} as const;

/** Opening quote → its closing quote. */
const QUOTES: Record<string, string> = {
  "'": "'",
  '"': '"',
  '“': '”',
  '”': '”',
  '‘': '’',
  '«': '»',
  '`': '`',
};

/**
 * Splits a message into instructions at line breaks, `;`, the end of a sentence (`. `, `! `, `? `),
 * ` and then ` and `, then `, never inside quotes.
 */
export function splitInstructions(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let close: string | null = null;
  const push = () => {
    if (current.trim()) parts.push(current.trim());
    current = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    const prev = text[i - 1] ?? ' ';
    const next = text[i + 1] ?? ' ';
    if (close !== null) {
      current += c;
      // An apostrophe inside a word (Joe's) does not close a single-quoted text.
      if (c === close && (close !== "'" || !/[\p{L}\p{N}]/u.test(next))) close = null;
      if (c === '\n') close = null;
      continue;
    }
    const opening = QUOTES[c];
    if (opening && (c !== "'" || !/[\p{L}\p{N}]/u.test(prev))) {
      close = opening;
      current += c;
      continue;
    }
    if (c === '\n' || c === ';') {
      push();
      continue;
    }
    if (/[.!?]/.test(c) && /\s/.test(text[i + 1] ?? '')) {
      current += c;
      push();
      continue;
    }
    const rest = text.slice(i).toLowerCase();
    const joiner = /^(?: and then |, then |, and then )/.exec(rest);
    if (joiner) {
      push();
      i += joiner[0].length - 1;
      continue;
    }
    current += c;
  }
  push();
  return parts;
}

export interface Value {
  text: string;
  quoted: boolean;
}

export function unquote(raw: string): Value {
  const t = raw.trim();
  const close = QUOTES[t[0] ?? ''];
  if (close && t.length >= 2 && t.endsWith(close)) return { text: t.slice(1, -1), quoted: true };
  return { text: t, quoted: false };
}

/** A quoted text or, failing that, the shortest run of words. */
const VALUE = '((?:\'[^\']*\'|"[^"]*"|“[^”]*”|‘[^’]*’|«[^»]*»|`[^`]*`|.+?))';

/** An instruction pattern: `{v}` stands for a value (quoted or bare). */
export function pattern(source: string): RegExp {
  return new RegExp(`^${source.replaceAll('{v}', VALUE)}$`, 'iu');
}

/** Drops polite padding ("please", "could you") and end punctuation. */
export function normalize(clause: string): string {
  return clause
    .trim()
    .replace(/[.!?]+$/, '')
    .replace(
      /^(?:please\s+|kindly\s+|(?:can|could|would)\s+you\s+(?:please\s+)?|i(?:'d|\s+would)\s+like\s+(?:you\s+)?to\s+|i\s+want\s+(?:you\s+)?to\s+|let'?s\s+|now\s+|also\s+|then\s+|and\s+|finally\s+)+/i,
      '',
    )
    .replace(/[\s,]+please$/i, '')
    .trim();
}

export interface Modifiers {
  pages?: string[];
  caseInsensitive?: boolean;
  wholeWord?: boolean;
  attributes?: boolean;
}

const MODIFIERS: [RegExp, (m: RegExpExecArray, mods: Modifiers) => void][] = [
  [
    /\s+(?:everywhere|on\s+(?:all|every|each)\s+pages?|across\s+the\s+(?:whole\s+|entire\s+)?(?:site|website)|site-?wide|throughout(?:\s+the\s+(?:site|website))?|on\s+the\s+(?:whole\s+|entire\s+)?(?:site|website))$/i,
    () => undefined,
  ],
  [
    /\s+(?:only\s+)?on\s+the\s+(?:home\s?page|front\s+page|landing\s+page|main\s+page)(?:\s+only)?$/i,
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
    /\s*\(?(?:case[\s-]insensitive(?:ly)?|ignoring\s+case|ignore\s+case|in\s+any\s+case|regardless\s+of\s+case)\)?$/i,
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

/** Strips trailing modifiers (" everywhere", " on the about page", " (ignoring case)"). */
export function takeModifiers(clause: string): { rest: string; mods: Modifiers } {
  const mods: Modifiers = {};
  let rest = clause;
  for (let changed = true; changed;) {
    changed = false;
    for (const [re, apply] of MODIFIERS) {
      const m = re.exec(rest);
      if (m && m.index > 0) {
        apply(m, mods);
        rest = rest.slice(0, m.index).trim();
        changed = true;
      }
    }
  }
  return { rest, mods };
}
