import {
  asksForNothing,
  INSTRUCTION_LIMITS,
  isBrokenValue,
  isFiller,
  lexMessage,
  normalize,
  takeModifiers,
} from './instruction-text.js';
import type { Chunk, Modifiers } from './instruction-text.js';
import { pageSpelling } from './instruction-outline.js';
import { REWRITES, RULES } from './instruction-rules.js';
import type { Built, Context } from './instruction-builders.js';
import { suggestFor } from './instruction-suggest.js';
import type { PageOutline } from './outline.js';
import type { EditPlan, PageEditOp } from './types.js';

/**
 * The built-in instruction engine: the default, deterministic "AI" provider. It understands the
 * plain-English grammar documented in docs/customize.md, several instructions per message, and
 * hands back verbatim what it did not understand, with the closest phrasing it supports.
 */

export { INSTRUCTION_LIMITS };

/** A part of the message that was not understood (or could not be used), and what to say instead. */
export interface Suggestion {
  /** The part, verbatim (also in `unparsed`). */
  part: string;
  /**
   * The closest phrasing the engine supports, e.g. "Set the main colour to crimson"; null when
   * nothing it can do comes close (rounded corners, the order of sections).
   */
  suggestion: string | null;
  /** Other phrasings that come near ("make it pop": a colour, bigger headings, an accent). */
  alternatives: string[];
}

export interface ParsedInstructions {
  plan: EditPlan;
  /** The parts of the message it did not understand (or could not use), verbatim. */
  unparsed: string[];
  /** Why an understood part could not be used (no such section on the page, limits…). */
  notes: string[];
  /** One per `unparsed` part, in the same order. */
  suggestions: Suggestion[];
}

function checkLimits(op: PageEditOp): string | undefined {
  const texts: (string | undefined)[] = [];
  switch (op.op) {
    case 'replaceText':
      if (op.find.length > INSTRUCTION_LIMITS.maxFindLength) {
        return `The text to replace is longer than ${INSTRUCTION_LIMITS.maxFindLength} characters.`;
      }
      texts.push(op.replace);
      break;
    case 'setText':
      texts.push(op.text);
      break;
    case 'setTitle':
      texts.push(op.title);
      break;
    case 'setDescription':
      texts.push(op.description);
      break;
    case 'insertHtml':
      texts.push(op.html);
      break;
    default:
      break;
  }
  if (texts.some((t) => t !== undefined && t.length > INSTRUCTION_LIMITS.maxTextLength)) {
    return `Texts can be at most ${INSTRUCTION_LIMITS.maxTextLength} characters long.`;
  }
  return undefined;
}

function applyModifiers(op: PageEditOp, mods: Modifiers): PageEditOp {
  const out = { ...op };
  // A form's recipient is the site's, on no page.
  if (mods.pages && out.op !== 'setFormRecipient') out.pages = mods.pages;
  if (out.op === 'replaceText') {
    if (mods.caseInsensitive) out.caseSensitive = false;
    if (mods.wholeWord) out.wholeWord = true;
    if (mods.attributes) out.includeAttributes = true;
  }
  return out;
}

/** "clean blog" is replaced where the page writes "Clean Blog". */
function spelledAsOnPage(op: PageEditOp, ctx: Context): PageEditOp {
  if (op.op !== 'replaceText' || !ctx.outline) return op;
  const find = pageSpelling(op.find, ctx.outline);
  return find === op.find ? op : { ...op, find };
}

function applyRules(text: string, ctx: Context): Built {
  const { rest, mods } = takeModifiers(text);
  for (const rule of RULES) {
    const m = rule.re.exec(rest);
    if (!m) continue;
    const groups = m.slice(1).map((g) => g ?? '');
    // "'Dana Journal' and make…" is no single text: a joined instruction is in the way.
    if (groups.some(isBrokenValue)) continue;
    const built = rule.build(groups, ctx);
    if (built === null) continue;
    if ('note' in built) return built;
    return (Array.isArray(built) ? built : [built]).map((op) =>
      applyModifiers(spelledAsOnPage(op, ctx), mods),
    );
  }
  return null;
}

/** One instruction: as written, else in one of its other phrasings ("X should be Y"). */
function parseClause(clause: string, ctx: Context): Built {
  const text = normalize(clause);
  if (!text) return null;
  const direct = applyRules(text, ctx);
  if (direct !== null) return direct;
  for (const [re, replacement] of REWRITES) {
    if (!re.test(text)) continue;
    const rewritten = normalize(text.replace(re, replacement));
    const built = applyRules(rewritten, ctx);
    if (built !== null) return built;
  }
  return null;
}

type Piece =
  | { kind: 'ops'; text: string; ops: PageEditOp[]; start: number }
  | { kind: 'note'; text: string; note: string }
  | { kind: 'unparsed'; text: string; chunks: Chunk[] }
  | { kind: 'filler'; text?: string };

interface Score {
  /** Chunks not turned into ops. */
  bad: number;
  /** Chunks not understood at all. */
  unknown: number;
  /** Instructions (more is better: "and" starts one where it can). */
  clauses: number;
}

function better(a: Score, b: Score): boolean {
  if (a.bad !== b.bad) return a.bad < b.bad;
  if (a.unknown !== b.unknown) return a.unknown < b.unknown;
  return a.clauses > b.clauses;
}

const VERB =
  /^(?:change|set|make|use|hide|remove|delete|replace|update|rename|swap|switch|turn|get\s+rid\s+of|disable)\b/i;

/** Verbs that open an instruction (a chunk starting with one is never part of a text). */
const OPENING_VERB =
  /^(?:make|change|replace|remove|hide|use|set|add|delete|turn|switch|update|rename|swap|insert|translate|show|move|increase|decrease|get\s+rid\s+of|take\s+out)\s/i;

/** "remove it", "hide them", "rename it to …": an action on something named just before. */
const PRONOUN_ACTION =
  /^(?:remove|delete|hide|get\s+rid\s+of|take\s+out|drop|rename|call)\s+(?:it|them)\b/i;
/** The thing a part of a message ends on ("… the footer", "… my blog"), without prepositions. */
const NAMED_THING =
  /\b((?:the|that|this|my|our)(?:\s+(?!(?:to|with|into|for|as|on|in)\b)[\p{L}'-]+){1,3})$/iu;

/** The longest run of chunks one instruction may span ("Tom and Jerry and Ben and Holly"). */
const MAX_SPAN = 8;

/**
 * Splits one segment of a message (a line) into instructions: every soft joiner ("and", "then",
 * a comma, a sentence end) may or may not start a new instruction; the split with the fewest parts
 * not understood, then the most instructions, wins.
 */
function splitSegment(text: string, chunks: Chunk[], ctx: Context): Piece[] {
  const n = chunks.length;
  const cache = new Map<string, Built>();
  const slice = (i: number, j: number) =>
    text.slice((chunks[i] as Chunk).start, (chunks[j] as Chunk).end).trim();
  // "Hide the footer and the cookie banner", "replace A with B and C with D": a clause without a
  // verb borrows the first one's ("C with D" only when the first clause also said "with").
  const first = normalize(slice(0, 0));
  const verb = VERB.exec(first)?.[0];
  const firstWords = new Set(first.toLowerCase().split(/\s+/));
  const borrow = (own: string): string | undefined => {
    if (!verb || VERB.test(own)) return undefined;
    if (/^(?:the|my|our|all)\s/i.test(own)) return `${verb} ${own}`;
    const link = /\s(to|with|into|for|as)\s/i.exec(own)?.[1]?.toLowerCase();
    return link && firstWords.has(link) ? `${verb} ${own}` : undefined;
  };
  const parse = (i: number, j: number): Built => {
    const key = `${i}:${j}`;
    if (!cache.has(key)) {
      const own = normalize(slice(i, j));
      // "I don't like the footer, remove it": "it" is the thing the part before named.
      const pronoun = PRONOUN_ACTION.exec(own);
      const before =
        i > 0 ? NAMED_THING.exec(normalize(slice(i - 1, i - 1)).replace(/[.!?]+$/, '')) : null;
      let built =
        pronoun && before
          ? parseClause(own.replace(/\b(?:it|them)\b/i, before[1] ?? ''), ctx)
          : null;
      if (built === null) built = parseClause(slice(i, j), ctx);
      const borrowed = i > 0 ? borrow(own) : undefined;
      if (built === null && borrowed !== undefined) built = parseClause(borrowed, ctx);
      cache.set(key, built);
    }
    return cache.get(key) ?? null;
  };
  // "… to Hello and make it pop": a chunk that opens with a verb starts an instruction of its own.
  const startsInstruction = chunks.map((_, k) => {
    const own = normalize(slice(k, k));
    return OPENING_VERB.test(own) && own.split(/\s+/).length >= 2;
  });
  const best: ({ score: Score; piece: Piece; next: number } | undefined)[] = new Array(n + 1);
  const at = (k: number): Score => (k >= n ? { bad: 0, unknown: 0, clauses: 0 } : best[k]!.score);
  for (let i = n - 1; i >= 0; i--) {
    const single = slice(i, i);
    let choice: { score: Score; piece: Piece; next: number };
    if (isFiller(single)) {
      choice = { score: at(i + 1), piece: { kind: 'filler' }, next: i + 1 };
    } else if (asksForNothing(single)) {
      choice = { score: at(i + 1), piece: { kind: 'filler', text: single }, next: i + 1 };
    } else {
      const rest = at(i + 1);
      choice = {
        score: { bad: rest.bad + 1, unknown: rest.unknown + 1, clauses: rest.clauses + 1 },
        piece: { kind: 'unparsed', text: single, chunks: [chunks[i] as Chunk] },
        next: i + 1,
      };
    }
    for (let j = i; j < Math.min(n, i + MAX_SPAN); j++) {
      if (j > i && startsInstruction[j]) break;
      const built = parse(i, j);
      if (built === null) continue;
      const rest = at(j + 1);
      const span = j - i + 1;
      const candidate =
        'note' in built
          ? {
              score: { bad: rest.bad + span, unknown: rest.unknown, clauses: rest.clauses + 1 },
              piece: { kind: 'note' as const, text: slice(i, j), note: built.note },
              next: j + 1,
            }
          : {
              score: { bad: rest.bad, unknown: rest.unknown, clauses: rest.clauses + 1 },
              piece: {
                kind: 'ops' as const,
                text: slice(i, j),
                ops: Array.isArray(built) ? built : [built],
                start: (chunks[i] as Chunk).start,
              },
              next: j + 1,
            };
      if (better(candidate.score, choice.score)) choice = candidate;
    }
    best[i] = choice;
  }
  const pieces: Piece[] = [];
  for (let k = 0; k < n;) {
    const step = best[k]!;
    const last = pieces[pieces.length - 1];
    const chunk = chunks[k] as Chunk;
    // Parts not understood that are joined by "and" or a comma stay one part, as written.
    if (
      step.piece.kind === 'unparsed' &&
      last?.kind === 'unparsed' &&
      chunk.joiner !== 'sentence'
    ) {
      const first = last.chunks[0] as Chunk;
      last.chunks.push(chunk);
      last.text = text.slice(first.start, chunk.end).trim();
    } else pieces.push(step.piece);
    k = step.next;
  }
  // A list longer than an instruction may span ("the tagline to a, b, c, … z"): the understood
  // start takes the rest when, together, they still make the same instruction.
  for (let k = 0; k + 1 < pieces.length; k++) {
    const head = pieces[k] as Piece;
    const tail = pieces[k + 1] as Piece;
    if (head.kind !== 'ops' || tail.kind !== 'unparsed') continue;
    if ((tail.chunks[0] as Chunk).joiner === 'sentence') continue;
    if (OPENING_VERB.test(normalize(tail.text))) continue;
    const end = (tail.chunks[tail.chunks.length - 1] as Chunk).end;
    const whole = text.slice(head.start, end).trim();
    const built = parseClause(whole, ctx);
    if (built === null || 'note' in built) continue;
    const ops = Array.isArray(built) ? built : [built];
    if (ops.length !== head.ops.length) continue;
    pieces.splice(k, 2, { kind: 'ops', text: whole, ops, start: head.start });
  }
  return pieces;
}

function splitMessage(text: string, ctx: Context): Piece[] {
  return lexMessage(text).flatMap((chunks) => splitSegment(text, chunks, ctx));
}

/**
 * The instructions of a message, as the engine splits them: at lines and `;` always, and at
 * sentence ends, "and", "then" and commas where that gives instructions it understands
 * (`rename 'Tom and Jerry' to Ben and Holly` stays one). Parts are verbatim.
 */
export function splitInstructions(text: string, outline?: PageOutline): string[] {
  return splitMessage(text, { outline }).flatMap((p) => (p.text === undefined ? [] : [p.text]));
}

/**
 * Turns a message into an edit plan. The outline (of the page the user looks at) lets names such
 * as "the newsletter section", "the logo", "the Subscribe button" or "the phone number" resolve to
 * what is on the page; without it, generic selectors are used where they are safe.
 */
export function parseInstructions(text: string, outline?: PageOutline): ParsedInstructions {
  const ops: PageEditOp[] = [];
  const understood: string[] = [];
  const unparsed: string[] = [];
  const notes: string[] = [];
  const suggestions: Suggestion[] = [];
  const ctx: Context = { outline };
  const parses = (t: string) => {
    const built = parseClause(t, ctx);
    return built !== null && !('note' in built);
  };
  const reject = (part: string, note?: string) => {
    unparsed.push(part);
    if (note !== undefined) notes.push(note);
    const [suggestion, ...alternatives] = suggestFor(part, outline, parses, note);
    suggestions.push({ part, suggestion: suggestion ?? null, alternatives });
  };
  for (const piece of splitMessage(text, ctx)) {
    if (piece.kind === 'filler') continue;
    if (piece.kind === 'unparsed') {
      reject(piece.text);
      continue;
    }
    if (piece.kind === 'note') {
      reject(piece.text, piece.note);
      continue;
    }
    const list = piece.ops;
    const problem = list.map(checkLimits).find((p) => p !== undefined);
    if (problem !== undefined || ops.length + list.length > INSTRUCTION_LIMITS.maxOps) {
      unparsed.push(piece.text);
      notes.push(problem ?? `A plan can hold at most ${INSTRUCTION_LIMITS.maxOps} changes.`);
      suggestions.push({
        part: piece.text,
        suggestion:
          problem !== undefined ? 'Use a shorter text' : 'Send the rest in another message',
        alternatives: [],
      });
      continue;
    }
    ops.push(...list);
    understood.push(normalize(piece.text));
  }
  const plan: EditPlan = { ops };
  if (understood.length > 0) {
    const summary = understood.join('; ');
    plan.summary =
      summary.length > INSTRUCTION_LIMITS.maxSummaryLength
        ? `${summary.slice(0, INSTRUCTION_LIMITS.maxSummaryLength - 1)}…`
        : summary;
  }
  return { plan, unparsed, notes, suggestions };
}
