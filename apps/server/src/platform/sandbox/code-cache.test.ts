import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../test/test-app.js';
import { createCodeCache } from './code-cache.js';
import { resolveRunUser } from './run-user.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const ROOT = process.getuid?.() === 0;
/** The child entry as `npm run build` leaves it: a warm-up is a child of the built server. */
const BUILT_ENTRY = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../dist/platform/sandbox/sandbox-child.js',
);

/** A folder as the system's temporary one is: open to every user for reading. */
function openFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-code-cache-test-'));
  fs.chmodSync(dir, 0o755);
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A task module and the module it imports, readable by the run user. */
function taskModule(dir: string): string {
  fs.writeFileSync(path.join(dir, 'helper.mjs'), 'export const twice = (n) => n * 2;\n');
  const task = path.join(dir, 'task.mjs');
  fs.writeFileSync(
    task,
    "import { twice } from './helper.mjs';\nexport async function run(n) { return twice(n); }\n",
  );
  return task;
}

/** Node, as `uid`, importing `module` with the cache; its compile cache's report (stderr). */
function importAs(uid: number, cacheDir: string, script: string) {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    uid,
    gid: uid,
    env: {
      PATH: process.env.PATH,
      NODE_COMPILE_CACHE: cacheDir,
      NODE_DEBUG_NATIVE: 'COMPILE_CACHE',
    },
    encoding: 'utf8',
  });
  return { status: result.status, stderr: result.stderr };
}

describe("the runs' compile cache", () => {
  it('of a root server: filled by the server once per build, read by the runs, written by none of them', async (ctx) => {
    if (!ROOT) ctx.skip('the tests do not run as root: runs write the cache of their own user');
    if (!fs.existsSync(BUILT_ENTRY)) ctx.skip('no build: npm run build makes the warm-up child');
    const nobody = resolveRunUser('nobody');
    const root = openFolder();
    const task = taskModule(openFolder());
    const cache = createCodeCache(nobody, root)!;
    expect(cache.dir).toBe(path.join(root, 'mirror-code-cache-0'));
    expect(fs.statSync(cache.dir).mode & 0o777).toBe(0o755);

    const load = { entry: BUILT_ENTRY, module: pathToFileURL(task).href };
    cache.warm(load, []);
    const warmed = path.join(cache.dir, 'warmed');
    await waitFor(
      () => (fs.existsSync(warmed) && fs.readdirSync(warmed).length === 1) || undefined,
      30_000,
    );
    // The same build is not compiled again, and the scratch folder is gone.
    cache.warm(load, []);
    expect(fs.readdirSync(root).filter((name) => name.startsWith('mirror-run-'))).toEqual([]);

    // The run user's folder of Node's holds the task and what it imports, root's and read-only.
    const folders = fs.readdirSync(cache.dir).filter((name) => name !== 'warmed');
    expect(folders).toHaveLength(1);
    expect(folders[0]).toMatch(new RegExp(`-${nobody.uid}$`));

    const loaded = importAs(
      nobody.uid,
      cache.dir,
      `const { run } = await import(${JSON.stringify(load.module)}); if (await run(21) !== 42) process.exit(3);`,
    );
    expect(loaded.status).toBe(0);
    for (const file of ['task.mjs', 'helper.mjs'])
      expect(loaded.stderr).toMatch(new RegExp(`V8 code cache for ESM \\S+/${file} was accepted`));

    const userFolder = path.join(cache.dir, folders[0]!);
    const attempt = importAs(
      nobody.uid,
      cache.dir,
      `import fs from 'node:fs'; fs.writeFileSync(${JSON.stringify(path.join(userFolder, 'planted'))}, 'x');`,
    );
    expect(attempt.stderr).toContain('EACCES');
    for (const entry of fs.readdirSync(userFolder, { recursive: true, withFileTypes: true })) {
      const stat = fs.statSync(path.join(entry.parentPath, entry.name));
      expect(stat.uid).toBe(0);
      expect(stat.mode & 0o022).toBe(0);
    }
  }, 60_000);

  it('is not used when someone else could have written it', (ctx) => {
    const root = openFolder();
    const uid = process.getuid?.();
    if (uid === undefined) ctx.skip('no user ids on this system');
    const dir = path.join(root, `mirror-code-cache-${uid}`);
    // Left open to everyone (as a folder another user made in a shared /tmp could be).
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o777);
    expect(createCodeCache(null, root)).toBeNull();
    // A link to a folder elsewhere.
    fs.rmSync(dir, { recursive: true });
    fs.symlinkSync(openFolder(), dir);
    expect(createCodeCache(null, root)).toBeNull();
  });

  it('of a server that is not root: its runs, of its own user, fill it themselves', () => {
    const root = openFolder();
    const cache = createCodeCache(null, root)!;
    cache.warm({ entry: BUILT_ENTRY, module: pathToFileURL(taskModule(openFolder())).href }, []);
    expect(fs.readdirSync(cache.dir)).toEqual([]);
    expect(fs.readdirSync(root)).toEqual([path.basename(cache.dir)]);
  });
});
