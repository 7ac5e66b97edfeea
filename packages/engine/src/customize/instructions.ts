import {
  INSTRUCTION_LIMITS,
  normalize,
  splitInstructions,
  takeModifiers,
} from './instruction-text.js';
import type { Modifiers } from './instruction-text.js';
import { RULES } from './instruction-rules.js';
import type { Built, Context } from './instruction-rules.js';
import type { PageOutline } from './outline.js';
import type { EditOp, EditPlan } from './types.js';

/**
 * The built-in instruction engine: the default, deterministic "AI" provider. It understands the
 * plain-English grammar documented in docs/customize.md, several instructions per message, and
 * hands back verbatim what it did not understand.
 */

export { INSTRUCTION_LIMITS, splitInstructions };

export interface ParsedInstructions {
  plan: EditPlan;
  /** The parts of the message it did not understand (or could not use), verbatim. */
  unparsed: string[];
  /** Why an understood part could not be used (no such section on the page, limits…). */
  notes: string[];
}

function checkLimits(op: EditOp): string | undefined {
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

function applyModifiers(op: EditOp, mods: Modifiers): EditOp {
  const out = { ...op };
  if (mods.pages) out.pages = mods.pages;
  if (out.op === 'replaceText') {
    if (mods.caseInsensitive) out.caseSensitive = false;
    if (mods.wholeWord) out.wholeWord = true;
    if (mods.attributes) out.includeAttributes = true;
  }
  return out;
}

function parseClause(clause: string, ctx: Context): Built {
  const { rest, mods } = takeModifiers(normalize(clause));
  for (const rule of RULES) {
    const m = rule.re.exec(rest);
    if (!m) continue;
    const built = rule.build(m.slice(1), ctx);
    if (built === null) continue;
    if ('note' in built) return built;
    return (Array.isArray(built) ? built : [built]).map((op) => applyModifiers(op, mods));
  }
  return null;
}

/**
 * Turns a message into an edit plan. The outline (of the page the user looks at) lets names such
 * as "the newsletter section" resolve to selectors; without it, generic selectors are used.
 */
export function parseInstructions(text: string, outline?: PageOutline): ParsedInstructions {
  const ops: EditOp[] = [];
  const understood: string[] = [];
  const unparsed: string[] = [];
  const notes: string[] = [];
  const ctx: Context = { outline };
  for (const clause of splitInstructions(text)) {
    const built = parseClause(clause, ctx);
    if (built === null) {
      unparsed.push(clause);
      continue;
    }
    if ('note' in built) {
      unparsed.push(clause);
      notes.push(built.note);
      continue;
    }
    const list = Array.isArray(built) ? built : [built];
    const problem = list.map(checkLimits).find((p) => p !== undefined);
    if (problem !== undefined || ops.length + list.length > INSTRUCTION_LIMITS.maxOps) {
      unparsed.push(clause);
      notes.push(problem ?? `A plan can hold at most ${INSTRUCTION_LIMITS.maxOps} changes.`);
      continue;
    }
    ops.push(...list);
    understood.push(normalize(clause));
  }
  const plan: EditPlan = { ops };
  if (understood.length > 0) {
    const summary = understood.join('; ');
    plan.summary =
      summary.length > INSTRUCTION_LIMITS.maxSummaryLength
        ? `${summary.slice(0, INSTRUCTION_LIMITS.maxSummaryLength - 1)}…`
        : summary;
  }
  return { plan, unparsed, notes };
}
