import type { TextDiffHunk, TextDiffPart } from '@mirror/contract';
import type { Token } from './noise.js';

/** One edit of a word diff: `same` words in both, `added` in the new text only, `removed` in the old. */
export interface WordEdit {
  op: TextDiffPart['op'];
  words: string[];
}

/**
 * Beyond this many differing words, the middle is reported as replaced whole: the work and the
 * trace kept to walk back (about D² / 2 numbers) stay bounded, ~2 MB at most.
 */
const MAX_EDIT_DISTANCE = 1_000;
/** Words an added or removed run shows at most in a hunk (a page rewritten whole is not copied). */
const MAX_PART_WORDS = 80;

/**
 * The shortest edit script from `a` to `b` (Myers' O(ND) algorithm), tokens compared by key
 * (a volatile phrase by its kind), reported with their text as `b` has it (`a`'s for removals).
 * Common start and end are taken off first; a middle too different for `MAX_EDIT_DISTANCE` is one
 * removal and one addition.
 */
export function diffWords(a: Token[], b: Token[]): WordEdit[] {
  const ka = a.map((t) => t.key);
  const kb = b.map((t) => t.key);
  let start = 0;
  while (start < ka.length && start < kb.length && ka[start] === kb[start]) start++;
  let endA = ka.length;
  let endB = kb.length;
  while (endA > start && endB > start && ka[endA - 1] === kb[endB - 1]) {
    endA--;
    endB--;
  }
  const edits: WordEdit[] = [];
  const push = (op: WordEdit['op'], tokens: Token[]) => {
    if (tokens.length === 0) return;
    const words = tokens.map((t) => t.text);
    const last = edits[edits.length - 1];
    if (last?.op === op) last.words.push(...words);
    else edits.push({ op, words });
  };
  push('same', b.slice(0, start));
  for (const edit of middle(ka, kb, start, endA, start, endB)) {
    push(
      edit.op,
      edit.op === 'removed' ? a.slice(edit.from, edit.to) : b.slice(edit.from, edit.to),
    );
  }
  push('same', b.slice(endB));
  return edits;
}

interface Span {
  op: WordEdit['op'];
  /** Indexes into `a` for removals, into `b` otherwise. */
  from: number;
  to: number;
}

function middle(a: string[], b: string[], a0: number, a1: number, b0: number, b1: number): Span[] {
  const n = a1 - a0;
  const m = b1 - b0;
  if (n === 0 && m === 0) return [];
  const replaced = (): Span[] => [
    { op: 'removed', from: a0, to: a1 },
    { op: 'added', from: b0, to: b1 },
  ];
  if (n === 0 || m === 0) return replaced().filter((s) => s.to > s.from);
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d] holds v[offset - d … offset + d] as it was before step d (all step d reads).
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
          ? v[offset + k + 1]!
          : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[a0 + x] === b[b0 + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return replaced();
  // Walk the trace back from (n, m), one edit per step, collecting single-word spans.
  const steps: Span[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const saved = trace[d]!;
    const at = (kk: number) => saved[kk + d]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      steps.push({ op: 'same', from: b0 + y - 1, to: b0 + y });
      x--;
      y--;
    }
    if (down) steps.push({ op: 'added', from: b0 + y - 1, to: b0 + y });
    else steps.push({ op: 'removed', from: a0 + x - 1, to: a0 + x });
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    steps.push({ op: 'same', from: b0 + y - 1, to: b0 + y });
    x--;
    y--;
  }
  steps.reverse();
  // Merge neighbours of one kind.
  const spans: Span[] = [];
  for (const s of steps) {
    const last = spans[spans.length - 1];
    if (last && last.op === s.op && last.to === s.from) last.to = s.to;
    else spans.push({ ...s });
  }
  return spans;
}

/**
 * The places where the text changed, each with `context` words either side; neighbouring places
 * closer than twice the context are one.
 */
export function hunksOf(edits: WordEdit[], context: number): TextDiffHunk[] {
  const hunks: TextDiffHunk[] = [];
  let current: TextDiffPart[] | null = null;
  edits.forEach((edit, i) => {
    if (edit.op !== 'same') {
      current ??= [];
      const words = edit.words.slice(0, MAX_PART_WORDS);
      const more = edit.words.length > MAX_PART_WORDS ? ' …' : '';
      current.push({ op: edit.op, text: words.join(' ') + more });
      return;
    }
    const last = i === edits.length - 1;
    if (current && !last && edit.words.length <= 2 * context) {
      current.push({ op: 'same', text: edit.words.join(' ') });
      return;
    }
    if (current) {
      const after = edit.words.slice(0, context);
      current.push({
        op: 'same',
        text: after.join(' ') + (edit.words.length > context ? ' …' : ''),
      });
      hunks.push(current);
      current = null;
    }
    if (!last) {
      const before = edit.words.slice(-context);
      current = [
        { op: 'same', text: (edit.words.length > context ? '… ' : '') + before.join(' ') },
      ];
    }
  });
  if (current) hunks.push(current);
  return hunks;
}
