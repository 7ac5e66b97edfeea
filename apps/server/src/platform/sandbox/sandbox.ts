/**
 * Work on pages chosen by strangers (mirror runs, screenshots, thumbnails, exports) runs here: in a
 * child process of its own, never in the process that serves the API and the sites. Whatever the
 * page does to the child — a parser bug that throws where nobody can catch it, a loop that never
 * yields, memory without end — the child dies and the run fails with a reason; the server keeps
 * answering.
 *
 * Limits are enforced from outside, because a child busy in a loop cannot enforce its own: the
 * child's heap is capped by V8, the memory of the child and everything it started (Chromium) is
 * measured here every second, and the time limit is a timer here. Over a limit, the whole process
 * tree is killed.
 *
 * Privileges are kept from it too (issue 30, item 7): the child gets a minimal environment and no
 * storage settings (its blob store is this process's, over IPC: `blob-channel.ts`); under a root
 * server it runs as an unprivileged user, and its Chromium with its own sandbox where the kernel
 * allows (`run-user.ts`).
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BlobStore } from '@mirror/engine';
import { createBlobStore, type BlobStoreSettings } from '../blobs/blob-store.js';
import { serveBlobs } from './blob-channel.js';
import { createCodeCache } from './code-cache.js';
import {
  killProcesses,
  killTree,
  processTree,
  residentBytes,
  type ProcessRef,
} from './process-tree.js';
import {
  makeRunFolder,
  removeRunFolder,
  runEnv,
  removeStaleRunFolders,
  runPrivileges,
  takeOutput,
  type RunPrivileges,
} from './run-user.js';
import type { LogLevel, TaskErrorData, ToChild, ToParent } from './sandbox-protocol.js';

const MiB = 1024 * 1024;

export const SANDBOX_DEFAULTS = {
  /**
   * How often the memory of a run's processes is measured (a run can grow by hundreds of MB in a
   * second), and how often the list of its processes is read again (that reads all of /proc).
   */
  memoryCheckMs: 250,
  treeCheckMs: 1_000,
  /** After an abort (shutdown, cancel), time the task gets to stop before it is killed. */
  abortGraceMs: 1_500,
  /** After its answer, time the child gets to exit by itself. */
  exitGraceMs: 5_000,
  /** Share of the memory limit given to the child's JavaScript heap (the rest: Chromium, buffers). */
  heapShare: 0.5,
  /** Last bytes of the child's stderr kept to explain a crash. */
  stderrTail: 8 * 1024,
} as const;

/** What a task module's `run` gets besides its input. */
export interface SandboxContext {
  /** The deployment's blob store, held by the parent (the run has no storage credentials). */
  blobs: BlobStore;
  /** Aborted when the parent cancels the run (shutdown): stop soon. */
  signal: AbortSignal;
  /** Sends a progress value to the parent's `onProgress`. */
  progress(value: unknown): void;
  log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void;
  /** An empty folder of the run's for the files it hands back (see `SandboxRunOptions.output`). */
  outputDir: string;
}

/** A task: a module that exports `run(input, context)`, named by its file URL. */
export interface SandboxTask<I, O> {
  module: string;
  /** Carries the types only. */
  readonly types?: (input: I) => O;
}

/**
 * Declares a task from its own module: `export const fooTask = sandboxTask(import.meta.url, run)`.
 * `run` is only there for the types; the child imports the module again and calls its `run`.
 */
export function sandboxTask<I, O>(
  moduleUrl: string,
  _run: (input: I, context: SandboxContext) => Promise<O>,
): SandboxTask<I, O> {
  return { module: moduleUrl };
}

export type SandboxFailure = 'timeout' | 'memory' | 'crashed' | 'aborted';

export interface SandboxUsage {
  /** Most memory the child and its descendants used together at one time (0 where unmeasured). */
  peakBytes: number;
  durationMs: number;
}

/** The sandbox itself ended the run: a limit, a crash, or an abort. */
export class SandboxError extends Error {
  constructor(
    readonly reason: SandboxFailure,
    message: string,
    readonly usage: SandboxUsage,
  ) {
    super(message);
    this.name = 'SandboxError';
  }
}

/** The task threw; its error as the child described it. */
export class SandboxTaskError extends Error {
  readonly taskErrorName: string;
  readonly code: string | undefined;
  readonly causeCode: string | undefined;

  constructor(
    data: TaskErrorData,
    readonly usage: SandboxUsage,
  ) {
    super(data.message);
    this.name = 'SandboxTaskError';
    this.taskErrorName = data.name;
    this.code = data.code;
    this.causeCode = data.causeCode;
  }
}

export interface SandboxRunOptions {
  /** The task is killed when it runs longer than this. */
  timeoutMs: number;
  /** Memory of the child and its descendants (Chromium) together; default: the sandbox's. */
  memoryMb?: number;
  signal?: AbortSignal;
  onProgress?(value: unknown): void;
  log?: SandboxLogger;
  /**
   * Where the files the run writes in `context.outputDir` go when it answers (an export's folder;
   * must not exist yet). They are taken back first (`takeBack`): the server's, plain files only.
   */
  output?: string;
}

/** pino's shape (a job's logger). */
export interface SandboxLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface SandboxResult<O> {
  output: O;
  usage: SandboxUsage;
}

export interface SandboxOptions {
  blobs: BlobStoreSettings;
  memoryMb: number;
  /** The user runs switch to when the server runs as root (MIRROR_SANDBOX_USER); default nobody. */
  user?: string;
  /** Says once how runs are isolated (their user, Chromium's sandbox or why not). */
  log?: Pick<SandboxLogger, 'info' | 'warn'>;
  /**
   * A server running from its TypeScript sources (tests, `npm run dev`) has its runs load the
   * built JavaScript of their task (`dist/`, MIRROR_SANDBOX_BUILT) where the build has one: some
   * seconds less per run than compiling the sources on load. Only after a fresh build.
   */
  loadBuilt?: boolean;
}

export interface Sandbox {
  run<I, O>(
    task: SandboxTask<I, O>,
    input: I,
    options: SandboxRunOptions,
  ): Promise<SandboxResult<O>>;
  /** Runs in progress. */
  readonly active: number;
  /** Runs started so far (tests prove that a refused request started none). */
  readonly started: number;
  /** Who the runs are and whether their Chromium sandboxes itself. */
  readonly privileges: RunPrivileges;
  /** Kills every run in progress (the process is exiting). */
  killAll(): void;
}

const here = fileURLToPath(import.meta.url);
/** The child entry beside this file: `.ts` under tsx and vitest, `.js` when built. */
const childEntry = path.join(path.dirname(here), `sandbox-child${path.extname(here)}`);
/** The server's sources and their build (`apps/server/src` → `apps/server/dist`). */
const serverRoots = {
  source: path.resolve(path.dirname(here), '../..'),
  build: path.resolve(path.dirname(here), '../../../dist'),
};

/**
 * What a run's child loads: with `loadBuilt`, a task module of the sources (`src/…/x.task.ts`)
 * is swapped for its built twin (`dist/…/x.task.js`) and the child entry for the built one, when
 * the build has both; anything else (a built server, a test-only task) loads as named.
 */
export function moduleToLoad(
  module: string,
  loadBuilt: boolean,
  roots: { source: string; build: string } = serverRoots,
): { module: string; entry: string } {
  const source = module.startsWith('file:') ? fileURLToPath(module) : module;
  if (loadBuilt && source.endsWith('.ts') && source.startsWith(roots.source + path.sep)) {
    const built = (file: string) =>
      path.join(roots.build, path.relative(roots.source, file)).replace(/\.ts$/, '.js');
    const twin = built(source);
    const entry = built(path.join(roots.source, path.relative(serverRoots.source, childEntry)));
    if (fs.existsSync(twin) && fs.existsSync(entry))
      return { module: pathToFileURL(twin).href, entry };
  }
  return { module, entry: childEntry };
}

/** Node options a child needs to load TypeScript sources (tests, `npm run dev`). */
function loaderArgs(module: string): string[] {
  return module.endsWith('.ts') ? ['--conditions', '@mirror/source', '--import', 'tsx'] : [];
}

function describeExit(code: number | null, signal: NodeJS.Signals | null, stderr: string): string {
  const lastLine = stderr.trim().split('\n').filter(Boolean).pop();
  const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
  return lastLine ? `${how}: ${lastLine.slice(0, 300)}` : how;
}

/**
 * Runs of every sandbox of this process, each with what stops it and removes its folders: when
 * the process exits without closing its sandboxes (a test worker, a crash), its runs still go.
 */
const everyRun = new Set<() => void>();
let stopsAtExit = false;

function stopAtExit(stop: () => void): void {
  everyRun.add(stop);
  if (stopsAtExit) return;
  stopsAtExit = true;
  process.once('exit', () => {
    for (const each of everyRun) each();
  });
}

/** The start-up line that says how runs are isolated. */
function describePrivileges(
  privileges: RunPrivileges,
  log: Pick<SandboxLogger, 'info' | 'warn'> | undefined,
): void {
  const { user } = privileges;
  const fields = {
    sandboxUser: user ? `${user.name} (${user.uid}:${user.gid})` : null,
    chromiumSandbox: privileges.chromiumSandbox,
  };
  log?.info(
    fields,
    user
      ? `sandboxed runs run as ${user.name} (${user.uid}:${user.gid})`
      : `sandboxed runs run as the server's user: ${privileges.sameUserReason}`,
  );
  if (!privileges.chromiumSandbox) {
    log?.warn(
      fields,
      `Chromium runs without its own sandbox (--no-sandbox): ${privileges.noChromiumSandboxReason}`,
    );
  }
}

export function createSandbox(options: SandboxOptions): Sandbox {
  /** Runs in progress, each with what stops it and removes its folders. */
  const running = new Map<ChildProcess, () => void>();
  let started = 0;
  const procAvailable = fs.existsSync('/proc/self/stat');
  const privileges = runPrivileges(options.user ?? 'nobody');
  const { user } = privileges;
  describePrivileges(privileges, options.log);
  removeStaleRunFolders(user);
  const codeCache = createCodeCache(user);

  async function run<I, O>(
    task: SandboxTask<I, O>,
    input: I,
    runOptions: SandboxRunOptions,
  ): Promise<SandboxResult<O>> {
    runOptions.signal?.throwIfAborted();
    started++;
    const memoryMb = runOptions.memoryMb ?? options.memoryMb;
    const heapMb = Math.max(128, Math.round(memoryMb * SANDBOX_DEFAULTS.heapShare));
    const startedAt = Date.now();
    let peakBytes = 0;
    const usage = (): SandboxUsage => ({ peakBytes, durationMs: Date.now() - startedAt });

    const load = moduleToLoad(task.module, options.loadBuilt ?? false);
    const loader = loaderArgs(load.module);
    const execArgv = [...loader, `--max-old-space-size=${heapMb}`];
    codeCache?.warm(load, execArgv);
    const folder = makeRunFolder(user, { sharedTmp: loader.length > 0 });
    // This run's own store: what it remembers having written is what this run wrote.
    const store = createBlobStore(options.blobs);
    let child: ChildProcess;
    try {
      child = fork(load.entry, [], {
        execArgv,
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        env: runEnv(folder, codeCache?.dir ?? null),
        ...(user ? { uid: user.uid, gid: user.gid } : {}),
      });
    } catch (error) {
      removeRunFolder(folder, user);
      throw error;
    }
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-SANDBOX_DEFAULTS.stderrTail);
    });

    return new Promise<SandboxResult<O>>((resolve, reject) => {
      let settled = false;
      /** Why we killed it, when we did. */
      let killedFor: SandboxFailure | null = null;
      /** The tree as last measured: what to kill if the child dies before its descendants. */
      let lastTree: ProcessRef[] = [];
      const timers: NodeJS.Timeout[] = [];

      const kill = (reason: SandboxFailure) => {
        killedFor ??= reason;
        if (child.pid !== undefined && child.exitCode === null && child.signalCode === null)
          killTree(child.pid);
      };
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        outcome();
      };
      let cleaned = false;
      const cleanUp = () => {
        if (cleaned) return;
        cleaned = true;
        for (const timer of timers) clearTimeout(timer);
        clearInterval(memoryWatch);
        runOptions.signal?.removeEventListener('abort', onAbort);
        running.delete(child);
        everyRun.delete(stop);
        blobServer.close();
        if ('client' in store) (store.client as { destroy(): void }).destroy();
        try {
          removeRunFolder(folder, user);
        } catch {
          // A folder that cannot be removed is left to the system's temporary-file cleaning.
        }
      };

      const stop = () => {
        if (child.pid !== undefined && child.exitCode === null && child.signalCode === null)
          killTree(child.pid);
        cleanUp();
      };
      running.set(child, stop);
      stopAtExit(stop);
      const limitTimer = setTimeout(() => kill('timeout'), runOptions.timeoutMs);
      timers.push(limitTimer);
      let treeReadAt = 0;
      const memoryWatch = setInterval(() => {
        if (!procAvailable || child.pid === undefined) return;
        const now = Date.now();
        if (now - treeReadAt >= SANDBOX_DEFAULTS.treeCheckMs) {
          lastTree = processTree(child.pid);
          treeReadAt = now;
        }
        const bytes = residentBytes(lastTree);
        peakBytes = Math.max(peakBytes, bytes);
        if (bytes > memoryMb * MiB) kill('memory');
      }, SANDBOX_DEFAULTS.memoryCheckMs);

      const onAbort = () => {
        send({ type: 'abort' });
        timers.push(setTimeout(() => kill('aborted'), SANDBOX_DEFAULTS.abortGraceMs));
      };
      runOptions.signal?.addEventListener('abort', onAbort, { once: true });

      const send = (message: ToChild) => {
        if (child.connected) child.send(message, () => undefined);
      };
      const blobServer = serveBlobs(store, (id, answer) => send({ type: 'blob', id, answer }));

      child.on('message', (message: ToParent) => {
        switch (message.type) {
          case 'blob':
            blobServer.handle(message.id, message.call);
            break;
          case 'progress':
            runOptions.onProgress?.(message.value);
            break;
          case 'log':
            runOptions.log?.[message.level](message.fields, message.msg);
            break;
          case 'done':
            try {
              // What the run wrote is the server's again before anyone reads it.
              if (!settled && runOptions.output) takeOutput(folder, user, runOptions.output);
              settle(() => resolve({ output: message.output as O, usage: usage() }));
            } catch (error) {
              const why = error instanceof Error ? error.message : String(error);
              settle(() =>
                reject(
                  new SandboxError('crashed', `The run's files could not be kept: ${why}`, usage()),
                ),
              );
            }
            // It exits by itself; one that does not is not left behind.
            timers.push(setTimeout(() => kill('crashed'), SANDBOX_DEFAULTS.exitGraceMs));
            break;
          case 'failed':
            settle(() => {
              if (runOptions.signal?.aborted) {
                reject(new SandboxError('aborted', 'The run was stopped.', usage()));
              } else reject(new SandboxTaskError(message.error, usage()));
            });
            timers.push(setTimeout(() => kill('crashed'), SANDBOX_DEFAULTS.exitGraceMs));
            break;
        }
      });

      child.on('error', (error) => {
        cleanUp();
        settle(() =>
          reject(new SandboxError('crashed', `The run could not start: ${error.message}`, usage())),
        );
      });

      child.on('exit', (code, signal) => {
        // Whatever it started must not outlive it (Chromium has its own process group, and once
        // the child is gone its descendants can no longer be found from its pid).
        killProcesses(lastTree);
        cleanUp();
        settle(() => {
          const reason: SandboxFailure =
            killedFor ??
            (runOptions.signal?.aborted
              ? 'aborted'
              : /heap out of memory|Reached heap limit|Allocation failed/i.test(stderr)
                ? 'memory'
                : 'crashed');
          const messages: Record<SandboxFailure, string> = {
            timeout: `The run took longer than its time limit of ${Math.round(runOptions.timeoutMs / 1000)} s.`,
            memory: `The run needed more than its memory limit of ${memoryMb} MB.`,
            aborted: 'The run was stopped.',
            crashed: `The run stopped unexpectedly (${describeExit(code, signal, stderr)}).`,
          };
          reject(new SandboxError(reason, messages[reason], usage()));
        });
      });

      send({
        type: 'start',
        module: load.module,
        input,
        chromiumSandbox: privileges.chromiumSandbox,
        outputDir: folder.out,
      });
    });
  }

  return {
    run,
    get active() {
      return running.size;
    },
    get started() {
      return started;
    },
    privileges,
    killAll() {
      // The process is exiting: it may not hear of the runs' end, so their folders go now.
      for (const stop of running.values()) stop();
    },
  };
}
