/**
 * Who a sandboxed run is (issue 30, item 7). A server that runs as root starts each run as an
 * unprivileged user (`MIRROR_SANDBOX_USER`, default `nobody`): the run then cannot read the
 * server's `/proc/<pid>/environ` or memory, signal it, or read the data folder (the server keeps
 * it closed to other users), and Chromium, no longer root, can use its own sandbox where the
 * kernel gives unprivileged user namespaces. A server that does not run as root cannot switch
 * users: its runs share its user and rely on their minimal environment (docs/security.md).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface RunUser {
  name: string;
  uid: number;
  gid: number;
}

export interface RunPrivileges {
  /** The user runs switch to, or null when they run as the server's own user (not root). */
  user: RunUser | null;
  /** Why runs keep the server's user, when they do. */
  sameUserReason: string | null;
  /** Chromium may run with its own sandbox. */
  chromiumSandbox: boolean;
  /** Why it may not, when it may not. */
  noChromiumSandboxReason: string | null;
}

/** A user name of /etc/passwd (with its primary group), or `uid:gid`. */
export function resolveRunUser(spec: string, passwdFile = '/etc/passwd'): RunUser {
  const numeric = /^(\d+):(\d+)$/.exec(spec);
  let user: RunUser | undefined;
  if (numeric) {
    user = { name: spec, uid: Number(numeric[1]), gid: Number(numeric[2]) };
  } else {
    let passwd = '';
    try {
      passwd = fs.readFileSync(passwdFile, 'utf8');
    } catch {
      // No passwd file: only uid:gid can be used.
    }
    for (const line of passwd.split('\n')) {
      const [name, , uid, gid] = line.split(':');
      if (name === spec && uid !== undefined && gid !== undefined) {
        user = { name, uid: Number(uid), gid: Number(gid) };
        break;
      }
    }
  }
  if (!user || !Number.isInteger(user.uid) || !Number.isInteger(user.gid)) {
    throw new Error(
      `MIRROR_SANDBOX_USER: there is no user "${spec}" on this machine (give a user name or uid:gid).`,
    );
  }
  if (user.uid === 0 || user.gid === 0) {
    throw new Error(
      'MIRROR_SANDBOX_USER: sandboxed runs must not run as root or in the root group.',
    );
  }
  return user;
}

/**
 * Whether Chromium can sandbox itself as `user` (null: this process's user): it refuses to as
 * root, and otherwise needs new user, PID and network namespaces without privileges, which
 * `unshare` tries exactly (kernels or containers that forbid them, AppArmor's
 * `apparmor_restrict_unprivileged_userns`, systemd's `RestrictNamespaces=`). The reason when not.
 */
function chromiumSandboxRefusal(user: RunUser | null): string | null {
  if (process.platform !== 'linux') return 'not Linux';
  const uid = user?.uid ?? process.getuid?.();
  if (uid === 0) return 'the runs run as root, where Chromium refuses its sandbox';
  const probe = spawnSync(
    'unshare',
    ['--user', '--map-root-user', '--pid', '--net', '--fork', 'true'],
    {
      cwd: '/',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
      timeout: 5_000,
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
    },
  );
  if (probe.error) {
    const code = (probe.error as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? 'unshare(1) (util-linux) is not installed, so user namespaces cannot be checked'
      : `unshare(1) could not be run (${code ?? probe.error.message})`;
  }
  if (probe.status !== 0) {
    const said = probe.stderr.trim().split('\n').pop() || `exit ${probe.status}`;
    return `unprivileged user namespaces are not available (${said})`;
  }
  return null;
}

const decided = new Map<string, RunPrivileges>();

/** The privileges of this process's runs (decided once per process and setting). */
export function runPrivileges(spec: string): RunPrivileges {
  const known = decided.get(spec);
  if (known) return known;
  const root = process.getuid?.() === 0;
  const user = root ? resolveRunUser(spec) : null;
  const refusal = chromiumSandboxRefusal(user);
  const privileges: RunPrivileges = {
    user,
    sameUserReason: root
      ? null
      : process.getuid
        ? 'the server does not run as root, so it cannot start runs as another user'
        : 'this system has no user ids',
    chromiumSandbox: refusal === null,
    noChromiumSandboxReason: refusal,
  };
  decided.set(spec, privileges);
  return privileges;
}

/** A run's folders, made by `makeRunFolder` and removed with `removeRunFolder`. */
export interface RunFolder {
  /** The server's (the run can enter it but not change it, so it cannot swap what is inside). */
  base: string;
  /** The run's home (Chromium's profile and caches go here or in `tmp`). */
  home: string;
  /**
   * The run's temporary folder (Chromium's profile): its own, removed with it even when the run is
   * killed; or the system's, for a run that loads TypeScript (tsx keeps its compile cache there).
   */
  tmp: string;
  /** An empty folder of the run's for files it hands back (`takeOutput`). */
  out: string;
}

/** Whether others may pass through `dir` and every folder above it. */
function reachableByOthers(dir: string): boolean {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    try {
      if ((fs.statSync(current).mode & 0o001) === 0) return false;
    } catch {
      return false;
    }
    if (path.dirname(current) === current) return true;
  }
}

/** A sticky folder everyone may write in (as /tmp is). */
function sharedTemporary(dir: string): boolean {
  try {
    return (fs.statSync(dir).mode & 0o1777) === 0o1777 && reachableByOthers(dir);
  } catch {
    return false;
  }
}

/**
 * Makes a run's folders: in the system's temporary folder, or in /tmp when the run's user cannot
 * reach that one (a server whose TMPDIR is private to it).
 */
export function makeRunFolder(user: RunUser | null, options: { sharedTmp: boolean }): RunFolder {
  const system = os.tmpdir();
  const root = !user || reachableByOthers(system) ? system : '/tmp';
  // Named for this process: what a process killed before it could clean up leaves is found again.
  const base = fs.mkdtempSync(path.join(root, `mirror-run-${process.pid}-`));
  try {
    fs.chmodSync(base, 0o711);
    const mine = (name: string) => {
      const dir = path.join(base, name);
      fs.mkdirSync(dir, { mode: 0o700 });
      if (user) fs.chownSync(dir, user.uid, user.gid);
      return dir;
    };
    const shared = !options.sharedTmp
      ? null
      : !user
        ? system
        : sharedTemporary(system)
          ? system
          : sharedTemporary(root)
            ? root
            : null;
    return { base, home: mine('home'), tmp: shared ?? mine('tmp'), out: mine('out') };
  } catch (error) {
    fs.rmSync(base, { recursive: true, force: true });
    throw error;
  }
}

/** Age after which a folder of a process that is gone is surely no run's (see below). */
const STALE_AFTER_MS = 12 * 60 * 60_000;

/**
 * Removes the run folders that processes no longer running left behind (killed before their runs
 * ended), in the places `makeRunFolder` uses; only old ones, since a process of another PID
 * namespace sharing the folder would look gone.
 */
export function removeStaleRunFolders(user: RunUser | null): void {
  for (const root of new Set([os.tmpdir(), '/tmp'])) {
    let names: string[] = [];
    try {
      names = fs.readdirSync(root);
    } catch {
      continue;
    }
    for (const name of names) {
      const pid = Number(/^mirror-run-(\d+)-/.exec(name)?.[1]);
      if (!pid || pid === process.pid || alive(pid)) continue;
      const base = path.join(root, name);
      try {
        const stat = fs.lstatSync(base);
        if (!stat.isDirectory() || stat.uid !== process.getuid?.()) continue;
        if (Date.now() - stat.mtimeMs < STALE_AFTER_MS) continue;
        const folder = {
          base,
          home: path.join(base, 'home'),
          tmp: '',
          out: path.join(base, 'out'),
        };
        removeRunFolder(folder, user);
      } catch {
        // Another process is removing it, or it is not ours to remove.
      }
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function removeRunFolder(folder: RunFolder, user: RunUser | null): void {
  try {
    // The run may still be alive: its folders are locked before they are removed.
    for (const dir of [folder.home, folder.out, path.join(folder.base, 'tmp')]) {
      if (fs.existsSync(dir)) takeBack(dir, user);
    }
  } finally {
    fs.rmSync(folder.base, { recursive: true, force: true, maxRetries: 3 });
  }
}

/**
 * The environment a run gets: what Node and Chromium need to start, and nothing of the server's
 * (database URL, storage, payment, mail or AI credentials, AWS_* for the SDK's own chain). Its
 * home is a folder of its own.
 */
export function runEnv(folder: RunFolder, codeCache: string | null = null): NodeJS.ProcessEnv {
  const keep = /^(PATH|LANG|LANGUAGE|LC_\w+|TZ|NODE_ENV|NODE_EXTRA_CA_CERTS|FONTCONFIG_\w+)$/;
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (keep.test(name)) env[name] = value;
  return {
    ...env,
    HOME: folder.home,
    TMPDIR: folder.tmp,
    XDG_CONFIG_HOME: path.join(folder.home, '.config'),
    XDG_CACHE_HOME: path.join(folder.home, '.cache'),
    XDG_DATA_HOME: path.join(folder.home, '.local', 'share'),
    // Node's compile cache of the server's code (`code-cache.ts`).
    ...(codeCache ? { NODE_COMPILE_CACHE: codeCache } : {}),
  };
}

/**
 * Takes a folder the run wrote in back, before the server reads it: each folder is made the
 * server's and closed to others before it is listed (the run, possibly still alive, can change
 * nothing in it after that), and whatever is not a plain folder or a plain file of the run's own
 * (a link to elsewhere, a device, a hard link) is removed. So reading it afterwards never reads
 * anything the run could not read itself. The folder must sit in one the run cannot change.
 */
export function takeBack(dir: string, user: RunUser | null): void {
  const uid = process.getuid?.() ?? -1;
  const gid = process.getgid?.() ?? -1;
  const walk = (folder: string) => {
    if (user) {
      fs.lchownSync(folder, uid, gid);
      fs.chmodSync(folder, 0o700);
    }
    for (const name of fs.readdirSync(folder)) {
      const full = path.join(folder, name);
      const stat = fs.lstatSync(full, { throwIfNoEntry: false });
      if (!stat) continue; // Removed meanwhile (Chromium's crash handler outlives the run).
      if (stat.isDirectory()) {
        walk(full);
      } else if (stat.isFile() && stat.nlink === 1 && (!user || stat.uid === user.uid)) {
        if (user) fs.lchownSync(full, uid, gid);
      } else {
        fs.rmSync(full, { force: true });
      }
    }
  };
  if (!fs.lstatSync(dir).isDirectory()) throw new Error(`${dir} is no longer a folder`);
  walk(dir);
}

/**
 * Moves the files a run wrote in `folder.out`, taken back, to `to` (which must not exist yet): the
 * run never needs a way into the server's folders.
 */
export function takeOutput(folder: RunFolder, user: RunUser | null, to: string): void {
  takeBack(folder.out, user);
  try {
    fs.renameSync(folder.out, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    fs.cpSync(folder.out, to, { recursive: true });
  }
}

/**
 * The data folder (SQLite database, blob files, outbox) is closed to other users, made so if it
 * is missing: a root server's runs run as one of them. Group access is left as the operator set it.
 */
export function closeDataFolder(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o750 });
  const stat = fs.statSync(dir);
  const uid = process.getuid?.();
  if ((stat.mode & 0o007) !== 0 && (uid === 0 || uid === stat.uid)) {
    fs.chmodSync(dir, stat.mode & 0o7770);
  }
}
