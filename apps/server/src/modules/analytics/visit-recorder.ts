import type { IncomingMessage } from 'node:http';
import { addressGroupOf, clientAddressOf } from '../../lib/client-address.js';
import type { Db } from '../../platform/db/database.js';
import {
  addParkedCounts,
  addSiteCounts,
  addSiteKeys,
  findOrCreateSalt,
  insertVisitorHashes,
  listSiteKeys,
  type VisitKeyKind,
} from './analytics.repository.js';
import {
  hashVisitor,
  isBotUserAgent,
  pagePathOf,
  refererIsSameHost,
  referrerHostOf,
  userAgentSlotOf,
  utcDayOf,
} from './visitor-rules.js';
import { countStartedVisits, sessionChecksOf, visitSlotOf } from './visit-sessions.js';

/** Counts are written this often (and when the process closes). */
export const FLUSH_EVERY_MS = 5_000;
/** Distinct paths, and distinct referrer hosts, a site keeps per day; the rest count as "other". */
export const MAX_KEYS_PER_DAY = 100;
/** The key of the "other" bucket. */
const OTHER = '';
/** People remembered between two writes, across sites (beyond, visitors are undercounted). */
const MAX_PENDING_PEOPLE = 50_000;
/** Visitor marks this process knows are stored today (so it does not send them again). */
const MAX_SEEN = 200_000;
/** User-Agent values whose bot verdict is remembered. */
const MAX_VERDICTS = 2_048;
/**
 * An arrival from another site waits this long for its browser to load one of the page's files
 * (a style sheet, script, image, font) before its referrer is dropped: whatever never loads a
 * page's files is not a person's browser, and its Referer stays out of the top referrers.
 */
export const ARRIVAL_CONFIRM_MS = 60_000;
/** Arrivals waiting for that, across sites (beyond, new ones are not listed). */
const MAX_PENDING_ARRIVALS = 50_000;
/** The verdict kept for a bot's User-Agent (a person's is their User-Agent slot, 0 and up). */
const BOT = -1;
/** Site-day-kind groups whose stored keys are remembered. */
const MAX_KNOWN_GROUPS = 5_000;
const DAY_MS = 86_400_000;

interface Counts {
  visits: number;
  pageViews: number;
  botViews: number;
  bytes: number;
  /**
   * The people seen since the last write, as their address (IPv6: its /64) and User-Agent slot:
   * memory only, never stored.
   */
  people: Set<string>;
  /** The half-hour slots each of those people viewed a page in (`visit-sessions.ts`). */
  sessions: Map<string, Set<number>>;
  pages: Map<string, number>;
  referrers: Map<string, number>;
}

interface DayBatch {
  sites: Map<string, Counts>;
  parked: Map<string, Counts>;
}

export interface VisitRecorderDeps {
  db: Db;
  /** Read X-Forwarded-For (the sites host sits behind a proxy it trusts). */
  trustProxy: boolean;
  log: {
    debug(details: object, message: string): void;
    warn(details: object, message: string): void;
  };
  /** The clock (tests set it to count on another day). */
  now?: () => number;
}

export interface VisitRecorder {
  /**
   * A site's answer was sent: `page` for an HTML page served to a GET (200 or 304), with the body
   * bytes sent. Bots' pages count as bot views only; their bytes count. Cheap: a few map reads,
   * no I/O, never throws.
   */
  recordSite(siteId: string, req: IncomingMessage, kind: 'page' | 'asset', bytes: number): void;
  /** A parked domain's page was served to a GET. */
  recordParked(domainId: string, req: IncomingMessage): void;
  /** Writes what was counted so far. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Visits counted in memory and written in batches, so counting never slows a response; a process
 * that dies loses at most the last few seconds. Several processes may count the same site: counts
 * are added in the database, and who is new today is decided there, by inserting the visitor's
 * mark for the day (a salted hash) where an existing mark makes the insert do nothing.
 */
export function createVisitRecorder(deps: VisitRecorderDeps): VisitRecorder {
  const { db, log, trustProxy } = deps;
  const now = deps.now ?? Date.now;

  let pending = new Map<string, DayBatch>();
  let day = '';
  let dayEnds = 0;
  let today: DayBatch = { sites: new Map(), parked: new Map() };
  let pendingPeople = 0;
  /** Per User-Agent: BOT, or the visitor slot it stands for on its address. */
  const verdicts = new Map<string, number>();
  /** Arrivals from other sites whose browser has not loaded a file of the site yet. */
  const arrivals = new Map<string, { from: string; at: number }>();

  const salts = new Map<string, string>();
  let seenDay = '';
  let seen = new Set<string>();
  const knownKeys = new Map<string, Set<string>>();

  function batchOfToday(): DayBatch {
    const t = now();
    if (t >= dayEnds) {
      day = utcDayOf(t);
      dayEnds = (Math.floor(t / DAY_MS) + 1) * DAY_MS;
      let batch = pending.get(day);
      if (batch === undefined) pending.set(day, (batch = { sites: new Map(), parked: new Map() }));
      today = batch;
    }
    return today;
  }

  function countsIn(map: Map<string, Counts>, id: string): Counts {
    let counts = map.get(id);
    if (counts === undefined) {
      counts = {
        visits: 0,
        pageViews: 0,
        botViews: 0,
        bytes: 0,
        people: new Set(),
        sessions: new Map(),
        pages: new Map(),
        referrers: new Map(),
      };
      map.set(id, counts);
    }
    return counts;
  }

  /** BOT, or which of its address's visitors a person's User-Agent stands for. */
  function verdictOf(userAgent: string | undefined): number {
    if (userAgent === undefined || userAgent === '') return BOT;
    let verdict = verdicts.get(userAgent);
    if (verdict === undefined) {
      verdict = isBotUserAgent(userAgent) ? BOT : userAgentSlotOf(userAgent);
      if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
      verdicts.set(userAgent, verdict);
    }
    return verdict;
  }

  function bump(keys: Map<string, number>, key: string): void {
    const n = keys.get(key);
    if (n !== undefined) keys.set(key, n + 1);
    else if (keys.size < MAX_KEYS_PER_DAY) keys.set(key, 1);
    else keys.set(OTHER, (keys.get(OTHER) ?? 0) + 1);
  }

  /** Who loaded a page, for matching its later file loads: the exact address and browser. */
  function browserKeyOf(siteId: string, address: string, userAgent: string | undefined): string {
    return `${siteId}\n${address}\n${userAgent ?? ''}`;
  }

  /**
   * One page load: a bot's, or a person's (with where they came from, and who they are). A site's
   * arrival from another site waits for its browser to load one of the site's files before its
   * referrer is listed (`confirmArrival`).
   */
  function countPage(counts: Counts, req: IncomingMessage, siteId: string | null): void {
    const headers = req.headers;
    const userAgent = headers['user-agent'];
    const verdict = verdictOf(userAgent);
    if (verdict === BOT) {
      counts.botViews++;
      return;
    }
    counts.pageViews++;
    const address = clientAddressOf(req, trustProxy);
    const referer = headers.referer;
    // A visit is a session: who viewed a page in which half hour decides it when the counts are
    // written (`visit-sessions.ts`). Only a person past the memory bound is counted the old
    // way, by an arrival from elsewhere.
    const person = `${addressGroupOf(address)}\n${verdict}`;
    const tracked = counts.people.has(person) || pendingPeople < MAX_PENDING_PEOPLE;
    if (tracked) {
      let slots = counts.sessions.get(person);
      if (slots === undefined) counts.sessions.set(person, (slots = new Set()));
      slots.add(visitSlotOf(now()));
    }
    if (!refererIsSameHost(referer, headers.host ?? '')) {
      if (!tracked) counts.visits++;
      if (siteId !== null && referer !== undefined) {
        const from = referrerHostOf(referer);
        const key = browserKeyOf(siteId, address, userAgent);
        if (from !== null && (arrivals.size < MAX_PENDING_ARRIVALS || arrivals.has(key))) {
          arrivals.set(key, { from, at: now() });
        }
      }
    }
    if (siteId !== null) bump(counts.pages, pagePathOf(req.url ?? '/'));
    if (tracked) {
      const size = counts.people.size;
      counts.people.add(person);
      pendingPeople += counts.people.size - size;
    }
  }

  /**
   * A file of a site was loaded: when the same browser arrived on one of its pages from another
   * site within ARRIVAL_CONFIRM_MS and this load names a page of the site as its Referer, that
   * arrival's referrer is listed now.
   */
  function confirmArrival(siteId: string, req: IncomingMessage): void {
    const headers = req.headers;
    if (!refererIsSameHost(headers.referer, headers.host ?? '')) return;
    const key = browserKeyOf(siteId, clientAddressOf(req, trustProxy), headers['user-agent']);
    const arrival = arrivals.get(key);
    if (arrival === undefined) return;
    arrivals.delete(key);
    if (now() - arrival.at > ARRIVAL_CONFIRM_MS) return;
    bump(countsIn(batchOfToday().sites, siteId).referrers, arrival.from);
  }

  function forgetStaleArrivals(): void {
    const before = now() - ARRIVAL_CONFIRM_MS;
    for (const [key, arrival] of arrivals) if (arrival.at < before) arrivals.delete(key);
  }

  // ---- writing ------------------------------------------------------------------------------

  async function saltOf(forDay: string): Promise<string> {
    let salt = salts.get(forDay);
    if (salt === undefined) {
      salt = await findOrCreateSalt(db, forDay);
      if (salts.size >= 4) salts.clear();
      salts.set(forDay, salt);
    }
    return salt;
  }

  /** The marks of people not yet known to be stored today by this process. */
  function marksOf(forDay: string, scope: string, people: Set<string>, salt: string): string[] {
    // Yesterday's marks are forgotten when today's start; a late write of yesterday's counts
    // sends all its marks (the database ignores the ones it has).
    if (forDay > seenDay) {
      seenDay = forDay;
      seen = new Set();
    }
    const marks: string[] = [];
    for (const person of people) {
      const cut = person.indexOf('\n');
      const mark = hashVisitor(salt, scope, person.slice(0, cut), person.slice(cut + 1));
      if (forDay === seenDay) {
        const key = `${scope} ${mark}`;
        if (seen.has(key)) continue;
        if (seen.size >= MAX_SEEN) seen.clear();
        seen.add(key);
      }
      marks.push(mark);
    }
    return marks;
  }

  /** Keys within the day's cap; those past it are added to the "other" bucket. */
  async function admittedKeys(
    trx: Parameters<typeof addSiteKeys>[0],
    siteId: string,
    forDay: string,
    kind: VisitKeyKind,
    hits: Map<string, number>,
  ): Promise<Map<string, number>> {
    const group = `${siteId} ${forDay} ${kind}`;
    let known = knownKeys.get(group);
    const fresh = [...hits.keys()].some((key) => key !== OTHER && !known?.has(key));
    if (fresh || known === undefined) {
      known = new Set(await listSiteKeys(trx, siteId, forDay, kind));
      if (knownKeys.size >= MAX_KNOWN_GROUPS) knownKeys.clear();
      knownKeys.set(group, known);
    }
    const admitted = new Map<string, number>();
    let room = MAX_KEYS_PER_DAY - [...known].filter((key) => key !== OTHER).length;
    for (const [key, n] of hits) {
      let to = key;
      if (key !== OTHER && !known.has(key)) {
        if (room > 0) {
          room--;
          known.add(key);
        } else {
          to = OTHER;
        }
      }
      admitted.set(to, (admitted.get(to) ?? 0) + n);
    }
    return admitted;
  }

  async function writeSite(forDay: string, siteId: string, counts: Counts): Promise<void> {
    const salt = counts.people.size > 0 ? await saltOf(forDay) : '';
    const marks = marksOf(forDay, siteId, counts.people, salt);
    const sessions = await sessionChecksOf(siteId, counts.sessions, saltOf);
    await db.transaction().execute(async (trx) => {
      const visitors = marks.length > 0 ? await insertVisitorHashes(trx, forDay, siteId, marks) : 0;
      const started = sessions.length > 0 ? await countStartedVisits(trx, sessions) : 0;
      await addSiteCounts(trx, {
        siteId,
        day: forDay,
        visits: counts.visits + started,
        pageViews: counts.pageViews,
        visitors,
        bytes: counts.bytes,
        botViews: counts.botViews,
      });
      for (const [kind, hits] of [
        ['page', counts.pages],
        ['referrer', counts.referrers],
      ] as const) {
        if (hits.size === 0) continue;
        await addSiteKeys(
          trx,
          siteId,
          forDay,
          kind,
          await admittedKeys(trx, siteId, forDay, kind, hits),
        );
      }
    });
  }

  async function writeParked(forDay: string, domainId: string, counts: Counts): Promise<void> {
    const scope = `parked:${domainId}`;
    const salt = counts.people.size > 0 ? await saltOf(forDay) : '';
    const marks = marksOf(forDay, scope, counts.people, salt);
    await db.transaction().execute(async (trx) => {
      const visitors = marks.length > 0 ? await insertVisitorHashes(trx, forDay, scope, marks) : 0;
      await addParkedCounts(trx, {
        domainId,
        day: forDay,
        pageViews: counts.pageViews,
        visitors,
        botViews: counts.botViews,
      });
    });
  }

  async function write(): Promise<void> {
    forgetStaleArrivals();
    const batch = pending;
    pending = new Map();
    pendingPeople = 0;
    dayEnds = 0; // the next request starts a fresh batch for its day
    for (const [forDay, { sites, parked }] of batch) {
      for (const [siteId, counts] of sites) {
        try {
          await writeSite(forDay, siteId, counts);
        } catch (err) {
          // The site may have been deleted meanwhile; its counts go with it.
          log.debug({ err, siteId }, 'dropping visit counts');
        }
      }
      for (const [domainId, counts] of parked) {
        try {
          await writeParked(forDay, domainId, counts);
        } catch (err) {
          log.debug({ err, domainId }, 'dropping parked visit counts');
        }
      }
    }
  }

  let writing: Promise<void> = Promise.resolve();
  function flush(): Promise<void> {
    writing = writing.then(write, write).catch((err: unknown) => {
      log.warn({ err }, 'writing visit counts failed');
    });
    return writing;
  }

  const timer = setInterval(() => void flush(), FLUSH_EVERY_MS);
  timer.unref();

  return {
    recordSite(siteId, req, kind, bytes) {
      const counts = countsIn(batchOfToday().sites, siteId);
      counts.bytes += bytes;
      if (kind === 'page') countPage(counts, req, siteId);
      else if (arrivals.size > 0) confirmArrival(siteId, req);
    },
    recordParked(domainId, req) {
      countPage(countsIn(batchOfToday().parked, domainId), req, null);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
