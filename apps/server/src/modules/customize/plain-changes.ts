import {
  colorNameInWords,
  describePlan,
  type EditPlan,
  type OpReport,
  type PageOutline,
} from '@mirror/customize';

/**
 * Customers never read CSS selectors (issue 19, item 6). The engine's report lines name the
 * elements an edit matched by their selector ("Changed the text of li.active > h1 to …"); this is
 * the last step before they are shown: a line with selector syntax is said again from the plan in
 * plain words ("Change the main heading to …"), keeping its counts, and a note with selector syntax
 * becomes a plain sentence. Quoted texts (the customer's own words) and addresses are left alone.
 */

/** Selector syntax outside quoted texts and addresses: `>`, `[attr]`, `:nth-…`, `.class`, `#id`. */
const SELECTOR_SYNTAX =
  /[>[\]]|:(?:nth-|first-|last-|only-|not\(|is\(|where\(|hover|root|empty)|(?:^|[\s(,])[a-z][a-z0-9]*\.[a-z_-][\w-]*|(?:^|[\s(,])\.[a-z_-][\w-]*|#(?![0-9a-f]{3,8}\b)[a-z_-][\w-]*/i;

/** The text without quoted parts ('…', "…", “…”) and without addresses or paths. */
function unquoted(text: string): string {
  return text
    .replace(/'[^']*'|"[^"]*"|“[^”]*”|‘[^’]*’/g, ' ')
    .replace(/\b(?:https?|mailto|tel):\S+/gi, ' ')
    .replace(/(?:^|\s)\/\S*/g, ' ');
}

/** True when a text shown to a customer still holds CSS selector syntax. */
export function hasSelectorSyntax(text: string): boolean {
  return SELECTOR_SYNTAX.test(unquoted(text));
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** One plain line per op of the stored plan, or none when it cannot be read. */
function describedOps(planJson: string | null | undefined): string[] {
  if (!planJson) return [];
  try {
    const plan = JSON.parse(planJson) as Partial<EditPlan>;
    return Array.isArray(plan.ops) ? describePlan({ ops: plan.ops }) : [];
  } catch {
    return [];
  }
}

/** An engine report line said again from the op's plain description, keeping its outcome. */
function withOutcome(plain: string, line: string): string {
  if (line.startsWith('Nothing matched: ')) return `Nothing matched: ${lowerFirst(plain)}`;
  if (line.startsWith('Could not ')) return `Could not ${lowerFirst(plain)}.`;
  const counts = /\s(\(\d+ [^()]*\))$/.exec(line)?.[1];
  return counts ? `${plain} ${counts}` : plain;
}

/**
 * The report lines of a version (`changes`: one per applied op, in order, then notes) in plain
 * words. Lines without selector syntax are kept as they are.
 */
export function plainChanges(changes: string[], planJson: string | null | undefined): string[] {
  if (!changes.some(hasSelectorSyntax)) return changes;
  const described = describedOps(planJson);
  return changes.map((line, index) => {
    if (!hasSelectorSyntax(line)) return line;
    const plain = described[index];
    if (plain === undefined || hasSelectorSyntax(plain)) {
      return 'One change was applied to a part of the page (see the preview).';
    }
    return withOutcome(plain, line);
  });
}

/**
 * What a plan did (or, run on a copy of the documents beforehand, will do), one line per op: its
 * plain description with the outcome the engine counted ("… on the home page (1 element on 1
 * page)", "Nothing matched: …"). The preview ("I will: …") and the version's report are both made
 * here, from the same run on the same pages, so what the preview says is what the result says.
 * Falls back to the engine's own lines when the plan cannot be described.
 */
export function describeOutcome(
  plan: EditPlan,
  report: readonly OpReport[],
  outlines: readonly PageOutline[],
): string[] {
  let described: string[];
  try {
    described = describePlan(plan, outlines);
  } catch {
    return report.map((r) => r.summary);
  }
  return report.map((r, index) => {
    const plain = described[index];
    return plain === undefined || hasSelectorSyntax(plain)
      ? r.summary
      : withOutcome(plain, r.summary);
  });
}

/** Quoted passages (the owner's own words, names on the page) that are never reworded. */
const QUOTED = /("[^"]*"|“[^”]*”|‘[^’]*’|(?<=^|[\s(])'[^']*'(?=$|[\s),.;:]))/;

/**
 * A line the engine wrote, in the app's English (en-US, `LOCALES`): the engine's "colour" spelled
 * "color", and CSS colour names in words ("darkgreen" → "dark green") unless the owner wrote the
 * name that way in `said` (their instructions). Quoted passages are left as they are.
 */
export function inAppEnglish(line: string, said = ''): string {
  const typed = new Set(said.toLowerCase().match(/[a-z]+/g) ?? []);
  return line
    .split(QUOTED)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part
            .replace(/\b([Cc])olour(s?)\b/g, '$1olor$2')
            .replace(/\b[a-z]{6,}\b/gi, (word) =>
              typed.has(word.toLowerCase()) ? word : colorNameInWords(word),
            ),
    )
    .join('');
}
