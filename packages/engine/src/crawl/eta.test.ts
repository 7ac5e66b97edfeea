import { describe, expect, it } from 'vitest';
import { createEtaEstimator, type Eta, type EtaReading } from './eta.js';

interface State {
  done: number;
  found: number;
  inFlight?: number;
  stage?: string;
}

interface Poll {
  t: number;
  eta: Eta;
}

/**
 * Feeds the estimator a synthetic run as the engine does (a reading every 250 ms, the sandbox's
 * pace) and reads it the way the web app sees it: every 3 s, from 0.2 s on.
 */
function simulate(
  state: (t: number) => State,
  endS: number,
  extra: Partial<EtaReading> = {},
): Poll[] {
  const estimator = createEtaEstimator();
  const polls: Poll[] = [];
  let nextPoll = 0.2;
  for (let ms = 0; ms < endS * 1000; ms += 250) {
    const s = state(ms / 1000);
    const eta = estimator.update({
      at: ms,
      done: s.done,
      found: s.found,
      stage: s.stage ?? 'crawl',
      ...(s.inFlight !== undefined ? { inFlight: s.inFlight } : {}),
      ...extra,
    });
    if (ms / 1000 >= nextPoll) {
      polls.push({ t: ms / 1000, eta });
      nextPoll += 3;
    }
  }
  return polls;
}

/** Between two polls a shown number may grow, but never by more than this. */
function expectBoundedRises(polls: Poll[]) {
  for (let i = 1; i < polls.length; i++) {
    const prev = polls[i - 1]!.eta;
    const next = polls[i]!.eta;
    if (prev === null || next === null) continue;
    expect(next, `at ${polls[i]!.t} s`).toBeLessThanOrEqual(1.6 * prev + 4);
  }
}

/** "1 s" and "2 s" are never shown: below 3 s it is "almost done" (0). */
function expectNoSecondOrTwo(polls: Poll[]) {
  expect(polls.filter((p) => p.eta === 1 || p.eta === 2)).toEqual([]);
}

function within(actual: Eta, truth: number, share: number, slackS = 3) {
  expect(actual).not.toBeNull();
  expect(Math.abs(actual! - truth)).toBeLessThanOrEqual(truth * share + slackS);
}

describe('the time-left estimate', () => {
  it('tracks a steady run, only counts down, and says almost done only at the very end', () => {
    // 300 files found in the first 3 s, 10 finished a second: 30 s of crawling, then 40 pages
    // rewritten in 2 s.
    const end = 32;
    const polls = simulate((t) => {
      if (t < 30)
        return { done: Math.floor(10 * t), found: Math.min(300, 30 + Math.floor(100 * t)) };
      return { done: Math.min(40, Math.floor(20 * (t - 30))), found: 40, stage: 'rewrite' };
    }, end);

    expect(polls[0]!.eta).toBeNull();
    for (const poll of polls.filter((p) => p.t >= 9 && p.t < 27))
      within(poll.eta, end - poll.t, 0.25);
    for (let i = 1; i < polls.length; i++) {
      if (polls[i - 1]!.eta === null) continue;
      expect(polls[i]!.eta, `at ${polls[i]!.t} s`).toBeLessThanOrEqual(polls[i - 1]!.eta!);
    }
    expectNoSecondOrTwo(polls);
    // The last seconds of crawling and the rewrite: almost done, not "1 s" for seconds on end.
    expect(polls.filter((p) => p.eta === 0).map((p) => p.t)).toEqual([27.25, 30.25]);
  });

  it('says "estimating" while the work found grows faster than it is done', () => {
    // Each page finished discovers five more for 12 s; then discovery stops.
    const polls = simulate((t) => {
      const done = Math.floor(10 * t);
      return { done, found: t < 12 ? 1 + 5 * done : 601 };
    }, 40);
    expect(polls.filter((p) => p.t < 12).map((p) => p.eta)).toEqual(
      polls.filter((p) => p.t < 12).map(() => null),
    );
    const later = polls.find((p) => p.t >= 18)!;
    within(later.eta, 60 - later.t, 0.3);
  });

  it('rises with many files found late, by a bounded amount per poll, and never claims almost done for them', () => {
    // The case: 100 files at 10 a second, looking nearly done, when at 7 s the last
    // pages link 900 more. The run really ends at 100 s.
    const polls = simulate((t) => {
      const done = Math.min(1000, Math.floor(10 * t));
      return { done, found: t < 7 ? 100 : 1000 };
    }, 100);
    expectBoundedRises(polls);
    expectNoSecondOrTwo(polls);
    // Almost done right before the late files, then never again while a minute of work is left.
    expect(polls.filter((p) => p.t > 10 && p.t < 90 && p.eta === 0)).toEqual([]);
    // Caught up with the truth within half a minute, and stays close.
    for (const poll of polls.filter((p) => p.t >= 37 && p.t < 90))
      within(poll.eta, 100 - poll.t, 0.3);
  });

  it('says almost done while only the last slow file is in flight, instead of a climbing number', () => {
    // 99 files in 5 s; the last one takes until 20 s.
    const polls = simulate((t) => {
      if (t < 5) return { done: Math.floor(20 * t), found: 100, inFlight: 1 };
      return t < 20 ? { done: 99, found: 100, inFlight: 1 } : { done: 100, found: 100 };
    }, 22);
    for (const poll of polls.filter((p) => p.t >= 6 && p.t < 20)) expect(poll.eta).toBe(0);
  });

  it('keeps a number through a pause with files still waiting', () => {
    // 300 files at 10 a second, a 10 s Retry-After pause at 8 s: the run ends at 40 s.
    const polls = simulate((t) => {
      const worked = t < 8 ? t : t < 18 ? 8 : t - 10;
      return { done: Math.min(300, Math.floor(10 * worked)), found: 300, inFlight: 2 };
    }, 40);
    expectBoundedRises(polls);
    expectNoSecondOrTwo(polls);
    expect(
      polls.filter((p) => p.t >= 5 && p.t < 35).every((p) => p.eta !== null && p.eta > 0),
    ).toBe(true);
  });

  it('is bounded by the time limit of a site too large to finish', () => {
    // Pages keep turning up faster than they are copied; the run stops fetching at 60 s.
    const polls = simulate(
      (t) => ({ done: Math.floor(10 * t), found: 1 + Math.floor(30 * t) }),
      55,
      { deadline: 60_000 },
    );
    for (const poll of polls.filter((p) => p.t >= 6)) within(poll.eta, 60 - poll.t, 0, 3);
  });
});
