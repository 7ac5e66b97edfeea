import { addVisitorHashes, findVisitorHashes } from './analytics.repository.js';
import { hashVisitor, utcDayOf } from './visitor-rules.js';

/**
 * A visit is a session (issue 31, item 8): one person's page views on a site until they pause.
 * Time is cut into half-hour slots (UTC); a page view starts a visit when the same visitor viewed
 * no page of the site in that slot or the one before. So a pause under 30 minutes never starts
 * another visit, and one of an hour or more always does. Three people reading three pages each
 * are 3 visits and 9 page views, however they moved between the pages (links, the address bar,
 * a browser that sends no Referer).
 *
 * Who was seen in which slot is decided in the database, like who is new today: a salted mark per
 * visitor, site and slot in `daily_visitors` (scope `visit:{site}:{slot}`), inserted "on conflict
 * do nothing". Several processes therefore agree; the marks go with the day's others.
 */

export const VISIT_SLOT_MS = 30 * 60_000;

/** The half-hour slot a time in milliseconds falls in. */
export function visitSlotOf(ms: number): number {
  return Math.floor(ms / VISIT_SLOT_MS);
}

interface SlotMark {
  day: string;
  scope: string;
  hash: string;
}

/** One person seen in one slot of a batch, with the marks that decide whether a visit started. */
export interface SessionCheck {
  mark: SlotMark;
  /** The mark of the slot before, unless the batch itself saw the person then. */
  previous: SlotMark | null;
}

/**
 * The marks of a batch's people (`address\nsignal`, as the visitor marks take them) per slot they
 * viewed a page in. Made before the write's transaction: salts are read or made on their own.
 */
export async function sessionChecksOf(
  siteId: string,
  sessions: ReadonlyMap<string, ReadonlySet<number>>,
  saltOf: (day: string) => Promise<string>,
): Promise<SessionCheck[]> {
  const checks: SessionCheck[] = [];
  const markOf = async (person: string, slot: number): Promise<SlotMark> => {
    const day = utcDayOf(slot * VISIT_SLOT_MS);
    const scope = `visit:${siteId}:${slot}`;
    const cut = person.indexOf('\n');
    const hash = hashVisitor(await saltOf(day), scope, person.slice(0, cut), person.slice(cut + 1));
    return { day, scope, hash };
  };
  for (const [person, slots] of sessions) {
    for (const slot of slots) {
      checks.push({
        mark: await markOf(person, slot),
        previous: slots.has(slot - 1) ? null : await markOf(person, slot - 1),
      });
    }
  }
  return checks;
}

type Trx = Parameters<typeof addVisitorHashes>[0];

/** Groups checks by the day and scope of one of their marks (one statement per group). */
function byMark(
  checks: readonly SessionCheck[],
  pick: (check: SessionCheck) => SlotMark,
): { day: string; scope: string; checks: SessionCheck[] }[] {
  const groups = new Map<string, { day: string; scope: string; checks: SessionCheck[] }>();
  for (const check of checks) {
    const { day, scope } = pick(check);
    const id = `${day} ${scope}`;
    let found = groups.get(id);
    if (!found) groups.set(id, (found = { day, scope, checks: [] }));
    found.checks.push(check);
  }
  return [...groups.values()];
}

/**
 * Marks the batch's slots (the next batch, in any process, looks for them) and answers how many
 * visits started in it: a slot newly marked for a person not seen in the slot before.
 */
export async function countStartedVisits(
  trx: Trx,
  checks: readonly SessionCheck[],
): Promise<number> {
  const goingOn = new Set<SessionCheck>();
  const asked = checks.filter((check) => check.previous !== null);
  for (const group of byMark(asked, (check) => check.previous!)) {
    const hashes = group.checks.map((check) => check.previous!.hash);
    const found = await findVisitorHashes(trx, group.day, group.scope, hashes);
    for (const check of group.checks) if (found.has(check.previous!.hash)) goingOn.add(check);
  }
  let started = 0;
  for (const group of byMark(checks, (check) => check.mark)) {
    const hashes = group.checks.map((check) => check.mark.hash);
    const added = await addVisitorHashes(trx, group.day, group.scope, hashes);
    for (const check of group.checks) {
      if (added.has(check.mark.hash) && check.previous !== null && !goingOn.has(check)) started++;
    }
  }
  return started;
}
