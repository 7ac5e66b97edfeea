/**
 * Node's compile cache (V8's code cache on disk, `NODE_COMPILE_CACHE`) for the runs' children.
 * Every run is a fresh Node process that loads the engine and its task before it does any work:
 * the mirror task took 0.35 s to import on a quiet machine, 0.28 s with its modules found compiled
 * (a run's fork to answer: about 450 → 330 ms), and more on a loaded one.
 *
 * The cache is code that every later run executes, so a run must not be able to write it where
 * another run reads it:
 * - runs of a server that is not root are the server's own user, who owns the server's files
 *   anyway: they read and write the cache themselves;
 * - runs of a root server are another user (`run-user.ts`) and only read it. The server fills it
 *   once per task module and build: a child of the server's own user, which imports the module and
 *   nothing else (no input of anyone's), compiles into a scratch folder; the server then moves what
 *   it wrote under the run user's name (Node keeps one folder per uid), read-only for others.
 *
 * A cache that cannot be used (another owner, writable by others, no uid on this system) is left
 * out: runs then compile as before. It is an optimisation only: V8 checks every entry against the
 * source it was made from and compiles afresh when they differ.
 */
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunUser } from './run-user.js';

export interface CodeCache {
  /** `NODE_COMPILE_CACHE` of a run's child. */
  dir: string;
  /**
   * Makes sure the cache will hold `module`'s graph (once per module and build; nothing to do
   * when runs write it themselves). Returns at once; the cache is filled in the background.
   */
  warm(load: { entry: string; module: string }, execArgv: string[]): void;
}

/** The cache folder of this system user, made if missing; null when it cannot be trusted. */
function ownCacheRoot(root: string): string | null {
  const uid = process.getuid?.();
  if (uid === undefined) return null;
  const dir = path.join(root, `mirror-code-cache-${uid}`);
  try {
    fs.mkdirSync(dir, { mode: 0o755 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return null;
  }
  const stat = fs.lstatSync(dir);
  // Someone else's folder (made before us in a shared /tmp), a link, or one others can write in.
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o022) !== 0) return null;
  return dir;
}

/** Files of `from` (Node's folder for `fromUid`) put under `to`'s folder for `toUid`, read-only. */
function install(from: string, to: string, fromUid: number, toUid: number): void {
  for (const name of fs.readdirSync(from)) {
    // Node names its folder `v<version>-<arch>-<flags hash>-<uid>`.
    if (!name.endsWith(`-${fromUid}`)) continue;
    const target = path.join(to, `${name.slice(0, -`${fromUid}`.length)}${toUid}`);
    const move = (source: string, destination: string) => {
      fs.mkdirSync(destination, { recursive: true, mode: 0o755 });
      for (const entry of fs.readdirSync(source, { withFileTypes: true })) {
        const src = path.join(source, entry.name);
        const dst = path.join(destination, entry.name);
        if (entry.isDirectory()) move(src, dst);
        else if (entry.isFile() && !fs.existsSync(dst)) {
          fs.chmodSync(src, 0o644);
          fs.renameSync(src, dst);
        }
      }
    };
    move(path.join(from, name), target);
  }
}

/** What names one build of a task module: its path, its file's time and Node's version. */
function buildKey(module: string): string | null {
  try {
    const file = module.startsWith('file:') ? fileURLToPath(module) : module;
    const { mtimeMs } = fs.statSync(file);
    return createHash('sha256')
      .update(`${process.version}\0${file}\0${mtimeMs}`)
      .digest('hex')
      .slice(0, 24);
  } catch {
    return null;
  }
}

export function createCodeCache(
  user: RunUser | null,
  root: string = os.tmpdir(),
): CodeCache | null {
  const dir = ownCacheRoot(root);
  if (!dir) return null;
  if (!user) return { dir, warm: () => undefined };
  const serverUid = process.getuid!();
  /** Warm-ups this process started (one that failed is not tried again). */
  const warming = new Set<string>();
  return {
    dir,
    warm(load, execArgv) {
      // TypeScript sources load through tsx, which Node's cache does not cover.
      if (load.module.endsWith('.ts') || load.entry.endsWith('.ts')) return;
      const key = buildKey(load.module);
      const marker = key && path.join(dir, 'warmed', key);
      if (!marker || warming.has(marker) || fs.existsSync(marker)) return;
      warming.add(marker);
      // Named like a run's folder: one a killed process leaves is removed like theirs.
      const scratch = fs.mkdtempSync(path.join(root, `mirror-run-${process.pid}-code-`));
      const child = fork(load.entry, [], {
        execArgv,
        env: { PATH: process.env.PATH, NODE_COMPILE_CACHE: scratch },
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      });
      child.on('error', () => fs.rmSync(scratch, { recursive: true, force: true }));
      child.on('exit', (code) => {
        try {
          if (code === 0) {
            install(scratch, dir, serverUid, user.uid);
            fs.mkdirSync(path.dirname(marker), { recursive: true, mode: 0o755 });
            fs.writeFileSync(marker, '');
          }
        } catch {
          // Left to the next warm-up: runs compile meanwhile.
        } finally {
          fs.rmSync(scratch, { recursive: true, force: true });
        }
      });
      child.send({ type: 'warm', module: load.module });
      // A warm-up never keeps the server (or a test) alive.
      child.unref();
      child.channel?.unref();
    },
  };
}
