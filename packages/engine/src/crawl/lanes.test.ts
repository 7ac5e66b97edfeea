import { describe, expect, it } from 'vitest';
import { LANE_GROWTH, Lanes, type Lane } from './lanes.js';

/** A lane with `waiting` tasks queued, as the frontier leaves it while it runs. */
function laneOf(max: number, waiting = 100): Lane<number> {
  const lanes = new Lanes<number>();
  const lane = lanes.lane('example.org|asset', max);
  for (let i = 0; i < waiting; i++) lane.queue.push(i);
  return lane;
}

/** `n` successes of the lane, each answered in `ms`. */
function answer(lane: Lane<number>, n: number, ms: number): void {
  for (let i = 0; i < n; i++) Lanes.succeed(lane, ms);
}

describe('Lanes', () => {
  it('grow past their limit, one at a time, while the origin answers as fast as it did', () => {
    const lane = laneOf(4);
    answer(lane, 4, 20);
    expect(lane.limit).toBe(5);
    answer(lane, 5, 21);
    expect(lane.limit).toBe(6);
    answer(lane, 1_000, 20);
    expect(lane.limit).toBe(4 * LANE_GROWTH);
  });

  it('do not grow with nothing waiting, and sub-millisecond answers are not a slowdown', () => {
    const idle = laneOf(4, 0);
    answer(idle, 100, 0.2);
    expect(idle.limit).toBe(4);
    const fast = laneOf(4);
    answer(fast, 4, 0.2);
    answer(fast, 100, 2);
    expect(fast.limit).toBe(8);
  });

  it('stop growing when the answers slow down, and shrink back to where they started', () => {
    const lane = laneOf(4);
    answer(lane, 200, 20);
    expect(lane.limit).toBe(8);
    // The origin queues: answers take three times as long.
    answer(lane, 500, 60);
    expect(lane.limit).toBe(4);
    // Its own limit is never given up for slowness alone.
    answer(lane, 500, 200);
    expect(lane.limit).toBe(4);
  });

  it('halve on 429/503 and never grow past their first limit again', () => {
    const lane = laneOf(8);
    answer(lane, 500, 20);
    expect(lane.limit).toBe(16);
    Lanes.backOff(lane, 1_000, 0);
    expect(lane.limit).toBe(4);
    expect(lane.notBefore).toBe(1_000);
    answer(lane, 1_000, 20);
    expect(lane.limit).toBe(8);
  });

  it('keep their limit under a Crawl-delay', () => {
    const lane = laneOf(4);
    lane.spacingMs = 1_000;
    answer(lane, 1_000, 20);
    expect(lane.limit).toBe(4);
  });
});
