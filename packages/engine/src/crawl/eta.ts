/**
 * The time-left estimate of a run (issue 20, item 2), from measured rates only: how fast work is
 * finished and how fast new work is found, over a recent window. Pure: readings carry their own
 * clock, so a synthetic timeline tests it.
 *
 * What a person sees, and why:
 * - No number until the pace is known and the work found is no longer growing about as fast as it
 *   is done ("Estimating…", null): an early number would only climb.
 * - Once shown, the number counts down with the clock and glides towards each new measurement. It
 *   may rise when much more work turns up, but by a bounded amount per second, never in one jump.
 * - Below a few seconds, or when the estimate has run out while the run goes on, it says "almost
 *   done" (0) instead of sitting at "1 s".
 */

export interface EtaReading {
  /** Milliseconds on any steady clock. */
  at: number;
  /** Units of work finished (files fetched or given up on; documents rewritten). */
  done: number;
  /** Units of work known so far: finished, waiting and in flight. */
  found: number;
  /** A new stage (crawling, then rewriting) counts other units and measures its own pace. */
  stage: string;
  /** Of the unfinished work, how much is in flight (the rest waits). */
  inFlight?: number;
  /** When the run stops fetching whatever is left (its time limit), on the same clock. */
  deadline?: number;
}

export interface EtaOptions {
  /** The finishing rate is measured over this much recent time… */
  windowMs: number;
  /** …and the growth of the work found over this much: a burst of new links is soon over. */
  growthWindowMs: number;
  /** A first number needs this much measuring in the stage… */
  minMeasureMs: number;
  /** …and this many units finished in it. */
  minDone: number;
  /** Found work growing faster than this share of the finishing rate is not converging. */
  maxGrowthShare: number;
  /** Time constant of the glide from the shown number to a new measurement, in seconds. */
  glideS: number;
  /** The shown number may grow by at most riseFloorS + riseShare × itself per second. */
  riseFloorS: number;
  riseShare: number;
  /** Estimates below this many seconds are shown as "almost done". */
  almostDoneS: number;
}

export const ETA_DEFAULTS: EtaOptions = {
  windowMs: 10_000,
  growthWindowMs: 4_000,
  minMeasureMs: 2_000,
  minDone: 5,
  maxGrowthShare: 0.25,
  glideS: 3,
  riseFloorS: 2,
  riseShare: 0.15,
  almostDoneS: 3,
};

/** The answer: seconds left, 0 for "almost done", null for "estimating". */
export type Eta = number | null;

interface Sample {
  at: number;
  done: number;
  found: number;
}

export interface EtaEstimator {
  update(reading: EtaReading): Eta;
}

export function createEtaEstimator(overrides: Partial<EtaOptions> = {}): EtaEstimator {
  const o: EtaOptions = { ...ETA_DEFAULTS, ...overrides };
  let stage: string | null = null;
  let stageStart = 0;
  let stageDone0 = 0;
  let samples: Sample[] = [];
  /** The estimate as last shown (unrounded) and when; null before the first trustworthy one. */
  let shown: number | null = null;
  let shownAt = 0;

  /** Seconds left by the measured pace and whether to trust them yet; undefined: no pace yet. */
  function measure(r: EtaReading): { seconds: number; trusted: boolean } | undefined {
    const oldest = samples[0]!;
    const spanS = (r.at - oldest.at) / 1000;
    const inStageS = (r.at - stageStart) / 1000;
    if (spanS <= 0 || inStageS * 1000 < Math.min(o.minMeasureMs, o.windowMs)) return undefined;
    const doneInStage = r.done - stageDone0;
    const enough = doneInStage >= o.minDone;
    const left = Math.max(0, r.found - r.done);
    // Nothing waiting: only what is in flight is left, the last files of the stage.
    if (left === 0 || (r.inFlight !== undefined && left <= r.inFlight))
      return { seconds: 0, trusted: enough };
    // A window in which nothing finished (a slow file, a Retry-After pause) says little about
    // the pace: the stage's average stands in for it.
    const rate = (r.done - oldest.done) / spanS || doneInStage / inStageS;
    if (rate <= 0) return undefined;
    const recent = samples.find((sample) => sample.at >= r.at - o.growthWindowMs) ?? oldest;
    const recentS = (r.at - recent.at) / 1000;
    const growth = recentS > 0 ? Math.max(0, (r.found - recent.found) / recentS) : 0;
    const timeLeft = r.deadline === undefined ? Infinity : Math.max(0, (r.deadline - r.at) / 1000);
    // Work still being found is worked off at the net rate (each file finished brings
    // growth/rate new ones: a geometric series). When that does not converge the run ends at its
    // time limit; without one, half the finishing rate gives a lower bound to rise towards.
    const converging = growth <= rate * o.maxGrowthShare;
    const projected = rate > growth ? left / (rate - growth) : Infinity;
    const seconds = Math.min(projected, timeLeft);
    return Number.isFinite(seconds)
      ? { seconds, trusted: enough && (converging || projected >= timeLeft) }
      : { seconds: left / (rate * (1 - o.maxGrowthShare)), trusted: false };
  }

  return {
    update(r) {
      if (r.stage !== stage) {
        stage = r.stage;
        stageStart = r.at;
        stageDone0 = r.done;
        samples = [];
      }
      samples.push({ at: r.at, done: r.done, found: r.found });
      while (samples.length > 2 && samples[1]!.at <= r.at - o.windowMs) samples.shift();

      const measured = measure(r);
      if (shown === null) {
        if (!measured?.trusted) return null;
        shown = measured.seconds;
        shownAt = r.at;
      } else {
        const elapsed = Math.max(0, (r.at - shownAt) / 1000);
        const predicted = Math.max(0, shown - elapsed);
        let next = predicted;
        if (measured && measured.seconds > predicted) {
          // More work than thought: rise towards it, at a bounded pace.
          const ceiling = predicted + elapsed * (o.riseFloorS + o.riseShare * predicted);
          next = Math.min(measured.seconds, ceiling);
        } else if (measured) {
          next = predicted + (measured.seconds - predicted) * (1 - Math.exp(-elapsed / o.glideS));
        }
        shown = next;
        shownAt = r.at;
      }
      return shown < o.almostDoneS ? 0 : Math.round(shown);
    },
  };
}
