import type { FailureReason } from '../types.js';
import { withoutHash } from './body-type.js';
import { backoffMs } from './fetch-policy.js';
import { Lanes, type Lane } from './lanes.js';
import { createShapeBudget, trapReason } from './traps.js';

export type TaskKind = 'page' | 'asset';

export interface Task {
  url: URL;
  depth: number;
  kind: TaskKind;
  /** A frame from another site: captured with its assets, its links not followed. */
  leaf: boolean;
  attempt: number;
}

export interface FrontierLimits {
  maxPages: number;
  maxFiles: number;
  maxBytes: number;
  pageConcurrency: number;
  assetConcurrency: number;
}

/** Reports a URL the frontier will not fetch (a trap, a limit). */
export type Refuse = (url: string, reason: FailureReason, detail: string) => void;

/**
 * The queue: every URL once (dedup without fragments), refused early when it is a trap or past a
 * limit, waiting in per-host lanes (`Lanes`) until a slot is free. Also knows which URLs are
 * settled (have an entry or a failure) and wakes whoever waits for one.
 */
export class Frontier {
  readonly lanes = new Lanes<Task>();
  /** Tasks ever queued, by kind (a retry is the same task): the "found" of the progress counts. */
  readonly found = { page: 0, asset: 0 };
  private readonly seen = new Set<string>();
  /**
   * URLs queued only as guesses (a path string in a script): what they answer is no failure of
   * the copy. A URL some document references for real is no guess any more.
   */
  private readonly guesses = new Set<string>();
  /** URLs that have an entry or a failure (what `whenSettled` waits for). */
  private readonly settled = new Set<string>();
  /** Tasks waiting for a URL to be fetched or to fail (sampling reads a page's scripts). */
  private readonly settledWaiters = new Map<string, (() => void)[]>();
  private releasesWaitersOnAbort = false;
  private readonly shapes = createShapeBudget();
  private pagesStarted = 0;
  private filesStarted = 0;
  /**
   * Pages started and not settled yet: each holds a slot of the page limit, which it gives back
   * when it copies no page (a 404, a redirect, a file that is no page), up to the limit once more
   * in all (`pagesGivenBack`), so `maxPages` counts pages copied without letting a site of broken
   * links make twice the limit's requests.
   */
  private readonly openPages = new Set<string>();
  private pagesGivenBack = 0;
  /** Page tasks `drain` is running now (a retry too): while any runs, a slot may come back. */
  private pagesRunning = 0;
  private wakeDrain: (() => void) | null = null;
  /**
   * A re-mirror's files of the version it replaces (`page`: its pages): under the page and file
   * limits they go first, so a sync of a site larger than a limit keeps the same files rather
   * than whichever answered first (which would report files added and removed on every sync of
   * an unchanged site).
   */
  private readonly preferred: ReadonlyMap<string, TaskKind>;
  /** Preferred pages and files not started yet: the shares of the limits kept for them. */
  private readonly reserved = { page: 0, file: 0 };
  /** New tasks that would have taken a reserved share, started once the crawl has settled. */
  private readonly deferred: { task: Task; lane: Lane<Task> }[] = [];

  constructor(
    private readonly limits: FrontierLimits,
    private readonly signal: AbortSignal,
    private readonly refuse: Refuse,
    preferred: Iterable<[url: string, kind: TaskKind]> = [],
  ) {
    this.preferred = new Map(preferred);
    for (const kind of this.preferred.values()) {
      this.reserved.file++;
      if (kind === 'page') this.reserved.page++;
    }
  }

  has(url: string): boolean {
    return this.seen.has(url);
  }

  isSettled(url: string): boolean {
    return this.settled.has(url);
  }

  /** Whether the URL was queued only as a guess (`enqueue`'s `guess`). */
  isGuess(url: string): boolean {
    return this.guesses.size > 0 && this.guesses.has(url);
  }

  /**
   * Queues a URL once. A `guess` (a file a script may load) is fetched like any asset, but the
   * run reports nothing it answers as a failure (see `isGuess`).
   */
  enqueue(url: URL, depth: number, kind: TaskKind, leaf: boolean, guess = false): void {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
    const key = withoutHash(url);
    if (this.seen.has(key)) {
      if (!guess && this.guesses.size > 0) this.guesses.delete(key);
      return;
    }
    this.seen.add(key);
    if (guess) this.guesses.add(key);
    const clean = new URL(key);
    const trap = trapReason(clean);
    if (trap) return this.refuse(key, 'trap', trap);
    if (kind === 'page' && !this.shapes.take(clean))
      return this.refuse(key, 'trap', 'too many URLs of the same pattern');
    // Past a limit nothing more can start: counting the URL now keeps the queue from growing.
    if (kind === 'page' && this.pagesStarted >= this.limits.maxPages && !this.mayGiveBack())
      return this.refuse(key, 'limit', `page limit of ${this.limits.maxPages} reached`);
    if (this.filesStarted >= this.limits.maxFiles)
      return this.refuse(key, 'limit', `file limit of ${this.limits.maxFiles} reached`);
    const lane = this.lanes.lane(
      `${clean.host}|${kind}`,
      kind === 'page' ? this.limits.pageConcurrency : this.limits.assetConcurrency,
    );
    lane.queue.push({ url: clean, depth, kind, leaf, attempt: 0 });
    this.found[kind]++;
    this.wake();
  }

  /** A file that joins the copy without being queued (a render's response): never queued now. */
  claim(url: string): void {
    this.seen.add(url);
  }

  /**
   * A file the run read beside the crawl (robots.txt, a sitemap) joins the copy, counted as a
   * file: false when the crawl has it already (or will) or the file limit is reached.
   */
  claimFile(url: string): boolean {
    if (this.seen.has(url) || this.filesStarted >= this.limits.maxFiles) return false;
    this.seen.add(url);
    this.filesStarted++;
    this.started(url);
    this.found.asset++;
    return true;
  }

  /** Queues the task again, after `waitMs` or a backoff; its lane waits that long. */
  retry(task: Task, lane: Lane<Task>, waitMs: number): void {
    lane.notBefore = Math.max(lane.notBefore, Date.now() + backoffMs(task.attempt, waitMs));
    lane.queue.unshift({ ...task, attempt: task.attempt + 1 });
  }

  /** Wakes `drain` to look at the lanes again. */
  wake(): void {
    this.wakeDrain?.();
  }

  /** Tasks `drain` is running now, and the most it ran at once. */
  private running = 0;
  peakRunning = 0;

  /** Nothing is being fetched and nothing waits in a lane: the crawl has settled, for now. */
  idle(): boolean {
    if (this.running > 0 || this.deferred.length > 0) return false;
    for (const lane of this.lanes.all()) if (lane.queue.length > 0) return false;
    return true;
  }

  /**
   * Runs queued tasks as lanes allow until nothing runs, waits or may still be found (`busy`: work
   * outside the queue that may queue more, such as sitemaps being read).
   */
  async drain(
    run: (task: Task, lane: Lane<Task>) => Promise<void>,
    bytes: { bytes: number },
    busy: () => boolean,
  ): Promise<void> {
    const running = new Set<Promise<void>>();
    for (;;) {
      if (this.signal.aborted) break;
      const now = Date.now();
      let nextWake = Infinity;
      for (const lane of this.lanes.all()) {
        while (lane.queue.length > 0 && lane.active < lane.limit) {
          if (lane.notBefore > now) {
            nextWake = Math.min(nextWake, lane.notBefore);
            break;
          }
          const task = lane.queue.shift()!;
          if (this.defers(task)) {
            this.deferred.push({ task, lane });
            continue;
          }
          if (this.waitsForSlot(task)) {
            lane.queue.unshift(task);
            break;
          }
          if (!this.admit(task, bytes.bytes)) continue;
          lane.active++;
          this.running++;
          if (task.kind === 'page') this.pagesRunning++;
          if (this.running > this.peakRunning) this.peakRunning = this.running;
          if (lane.spacingMs > 0) lane.notBefore = now + lane.spacingMs;
          const job = run(task, lane).finally(() => {
            lane.active--;
            this.running--;
            if (task.kind === 'page') this.pagesRunning--;
            running.delete(job);
            this.wake();
          });
          running.add(job);
        }
      }
      if (running.size === 0 && nextWake === Infinity && this.deferred.length > 0) {
        // Settled: the preferred files not started by now were not found. The new ones waiting
        // take what is left of the limit, in the order they were found.
        this.reserved.page = this.reserved.file = 0;
        for (const { task, lane } of this.deferred.splice(0)) lane.queue.push(task);
        continue;
      }
      if (running.size === 0 && nextWake === Infinity && !busy()) break;
      await new Promise<void>((resolve) => {
        this.wakeDrain = resolve;
        if (nextWake !== Infinity) setTimeout(resolve, Math.max(1, nextWake - Date.now()));
      });
      this.wakeDrain = null;
    }
    await Promise.allSettled(running);
  }

  /** A new task that would take the share of the page or file limit kept for preferred ones. */
  private defers(task: Task): boolean {
    if (task.attempt > 0 || this.preferred.has(task.url.href)) return false;
    const { page, file } = this.reserved;
    if (task.kind === 'page' && page > 0 && this.pagesStarted + page >= this.limits.maxPages)
      return true;
    return file > 0 && this.filesStarted + file >= this.limits.maxFiles;
  }

  /** A preferred file (`kind` as it was) started: its share is its own now. */
  private started(url: string): void {
    const kind = this.preferred.get(url);
    if (!kind) return;
    if (this.reserved.file > 0) this.reserved.file--;
    if (kind === 'page' && this.reserved.page > 0) this.reserved.page--;
  }

  /** A slot of the page limit may still come back from a page being fetched. */
  private mayGiveBack(): boolean {
    return this.pagesRunning > 0 && this.pagesGivenBack < this.limits.maxPages;
  }

  /** A new page past the page limit waits while a page being fetched may give its slot back. */
  private waitsForSlot(task: Task): boolean {
    return (
      task.kind === 'page' &&
      task.attempt === 0 &&
      this.pagesStarted >= this.limits.maxPages &&
      this.mayGiveBack()
    );
  }

  /** Limits checked when a task is about to start. */
  private admit(task: Task, bytes: number): boolean {
    if (bytes >= this.limits.maxBytes) {
      this.refuse(task.url.href, 'limit', `byte limit of ${this.limits.maxBytes} reached`);
      return false;
    }
    if (task.attempt > 0) return true;
    if (task.kind === 'page') {
      if (this.pagesStarted >= this.limits.maxPages) {
        this.refuse(task.url.href, 'limit', `page limit of ${this.limits.maxPages} reached`);
        return false;
      }
      this.pagesStarted++;
      this.openPages.add(task.url.href);
    }
    if (this.filesStarted >= this.limits.maxFiles) {
      this.refuse(task.url.href, 'limit', `file limit of ${this.limits.maxFiles} reached`);
      return false;
    }
    this.filesStarted++;
    this.started(task.url.href);
    return true;
  }

  /** Reports every task still queued (the run stopped before them). */
  refuseQueued(): void {
    for (const { task } of this.deferred.splice(0))
      this.refuse(task.url.href, 'limit', 'time limit reached');
    for (const lane of this.lanes.all()) {
      for (const task of lane.queue.clear())
        this.refuse(task.url.href, 'limit', 'time limit reached');
    }
  }

  /**
   * `url` has an entry or a failure: whoever waits for it goes on. `copiedPage`: its entry is a
   * page of the copy; a page task without one gives its slot of the page limit back.
   */
  settle(url: string, copiedPage = false): void {
    this.settled.add(url);
    if (this.openPages.delete(url) && !copiedPage && this.pagesGivenBack < this.limits.maxPages) {
      this.pagesStarted--;
      this.pagesGivenBack++;
    }
    const waiters = this.settledWaiters.get(url);
    if (!waiters) return;
    this.settledWaiters.delete(url);
    for (const wake of waiters) wake();
  }

  /** Resolves once `url` has an entry or a failure; at once when it was never queued. */
  whenSettled(url: string): Promise<void> {
    if (this.signal.aborted || this.settled.has(url) || !this.seen.has(url))
      return Promise.resolve();
    if (!this.releasesWaitersOnAbort) {
      // A cancelled run fetches nothing more: whoever waits for a file goes on without it.
      this.releasesWaitersOnAbort = true;
      this.signal.addEventListener('abort', () => this.settleAll(), { once: true });
    }
    return new Promise((resolve) => {
      const waiters = this.settledWaiters.get(url) ?? [];
      waiters.push(resolve);
      this.settledWaiters.set(url, waiters);
    });
  }

  private settleAll(): void {
    for (const url of [...this.settledWaiters.keys()]) {
      const waiters = this.settledWaiters.get(url)!;
      this.settledWaiters.delete(url);
      for (const wake of waiters) wake();
    }
  }
}
