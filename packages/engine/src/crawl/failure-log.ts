import type { FailedUrl, FailureReason } from '../types.js';

/** Failed URLs kept with their details, per reason; the rest are only counted. */
export const FAILURES_KEPT_PER_REASON = 50;

/**
 * A run's failures, bounded: every failure is counted by reason, and a sample of each reason is
 * kept with its URL and detail. A site built to fail (a page of 380,000 dead links) would otherwise
 * turn the manifest into megabytes of failures.
 */
export class FailureLog {
  private readonly kept: FailedUrl[] = [];
  private readonly counts = new Map<FailureReason, number>();
  private count = 0;

  add(failure: FailedUrl): void {
    const n = (this.counts.get(failure.reason) ?? 0) + 1;
    this.counts.set(failure.reason, n);
    this.count++;
    if (n <= FAILURES_KEPT_PER_REASON) this.kept.push(failure);
  }

  get total(): number {
    return this.count;
  }

  /** The first failure, for a run that fetched nothing. */
  get first(): FailedUrl | undefined {
    return this.kept[0];
  }

  sample(): FailedUrl[] {
    return [...this.kept];
  }

  byReason(): Partial<Record<FailureReason, number>> {
    return Object.fromEntries(this.counts) as Partial<Record<FailureReason, number>>;
  }
}
