import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readBlob } from '@mirror/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { escapeTask } from '../../test/escape-tasks.js';
import { createTestApp } from '../../test/test-app.js';
import { createSandbox } from './sandbox.js';

/**
 * What code that took over a sandboxed run (a renderer exploit, a parser bug in a stranger's page)
 * can reach of the server (issue 30, item 7): its secrets, its process, its data folder; and
 * whether the run's Chromium sandboxes itself. Before, the run had AWS_* credentials in its
 * environment and the S3 keys in its memory, ran as root like the server, read the server's
 * /proc/<pid>/environ and the SQLite file, and launched Chromium with --no-sandbox.
 */
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ROOT = process.getuid?.() === 0;
const NOT_ROOT =
  'the tests do not run as root: runs keep the server user and rely on their environment alone';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function scratchSandbox(s3Secret?: string) {
  const blobsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-privileges-'));
  cleanups.push(() => fs.rmSync(blobsDir, { recursive: true, force: true }));
  return createSandbox({
    blobs: {
      blobsDir,
      s3: s3Secret
        ? {
            bucket: 'mirror-item7',
            prefix: '',
            endpoint: 'http://127.0.0.1:9',
            region: 'us-east-1',
            forcePathStyle: true,
            credentials: { accessKeyId: 'AKIAITEMSEVEN0000000', secretAccessKey: s3Secret },
          }
        : undefined,
    },
    memoryMb: 768,
  });
}

describe('a sandboxed run that was taken over', () => {
  it("holds none of the server's secrets: not in its environment, not in its memory", async () => {
    const secrets: Record<string, string> = {
      AWS_ACCESS_KEY_ID: 'AKIAITEMSEVENENVKEY0',
      AWS_SECRET_ACCESS_KEY: 'aws-secret-item7-3c1f9e07',
      AWS_SESSION_TOKEN: 'aws-session-item7-77ab2d',
      STRIPE_SECRET_KEY: 'sk_test_item7secretkey',
      DATABASE_URL: 'postgres://mirror:db-password-item7@db.invalid/mirror',
      SMTP_URL: 'smtp://mail:smtp-password-item7@mail.invalid',
      AI_API_KEY: 'sk-ai-item7-secret-key',
      METRICS_TOKEN: 'metrics-token-item7-secret',
      S3_SECRET_ACCESS_KEY: 's3-env-secret-item7-e0d2',
    };
    const before = Object.fromEntries(Object.keys(secrets).map((k) => [k, process.env[k]]));
    Object.assign(process.env, secrets);
    cleanups.push(() => {
      for (const [name, value] of Object.entries(before)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });
    // The store's own keys: the server uses them, the run never gets them.
    const s3Secret = 's3-config-secret-item7-9f41';
    const sandbox = scratchSandbox(s3Secret);

    const { output } = await sandbox.run(
      escapeTask,
      {
        kind: 'secrets',
        reversedSecrets: [...Object.values(secrets), s3Secret].map((s) =>
          [...s].reverse().join(''),
        ),
      },
      { timeoutMs: 60_000 },
    );
    const { env, argv, inHeap } = output as {
      env: Record<string, string>;
      argv: string;
      inHeap: string[];
    };
    expect(
      Object.keys(env).filter((name) => /^(AWS|S3|STRIPE|SMTP|AI|METRICS|DATABASE)_/.test(name)),
    ).toEqual([]);
    const everything = JSON.stringify(env) + argv;
    for (const secret of [...Object.values(secrets), s3Secret]) {
      expect(everything).not.toContain(secret);
    }
    expect(inHeap).toEqual([]);
    // What it keeps: enough to run Node and Chromium, with a home of its own.
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.HOME).not.toBe(process.env.HOME);
  }, 90_000);

  it("cannot read the server's /proc/<pid>/environ or memory, nor signal it", async (ctx) => {
    if (!ROOT) ctx.skip(NOT_ROOT);
    const sandbox = scratchSandbox();
    expect(sandbox.privileges.user).toMatchObject({ name: 'nobody', uid: 65534 });
    const { output } = await sandbox.run(
      escapeTask,
      { kind: 'server', serverPid: process.pid },
      { timeoutMs: 60_000 },
    );
    expect(output).toEqual({
      uid: 65534,
      environ: 'EACCES',
      mem: 'EACCES',
      maps: 'EACCES',
      cwd: 'EACCES',
      signal: 'EPERM',
    });
  }, 90_000);

  it('cannot read the data folder (database, blob files), and stores its blobs through the server', async (ctx) => {
    if (!ROOT) ctx.skip(NOT_ROOT);
    // A data folder the server makes itself, in an open place (as ./data or /var/lib/mirror).
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-privileges-'));
    fs.chmodSync(base, 0o755);
    cleanups.push(() => fs.rmSync(base, { recursive: true, force: true }));
    const dataDir = path.join(base, 'data');
    const t = await createTestApp({ DATA_DIR: dataDir });
    cleanups.push(() => t.close());
    const kept = await t.app.blobs.put(
      (async function* () {
        yield Buffer.from('a file of the server');
      })(),
    );
    const blobFile = path.join(
      dataDir,
      'blobs',
      kept.hash.slice(0, 2),
      kept.hash.slice(2, 4),
      kept.hash,
    );
    const paths = [dataDir, path.join(dataDir, 'mirror.db'), path.join(dataDir, 'blobs'), blobFile];

    const { output } = await t.app.sandbox.run(
      escapeTask,
      { kind: 'files', paths, store: 'written by the run' },
      { timeoutMs: 60_000 },
    );
    const { reads, stored } = output as {
      reads: Record<string, string>;
      stored: { hash: string; back: string };
    };
    expect(reads).toEqual(Object.fromEntries(paths.map((p) => [p, 'EACCES'])));
    expect(stored.back).toBe('written by the run');
    expect((await readBlob(t.app.blobs, stored.hash)).toString('utf8')).toBe('written by the run');
  }, 120_000);

  it('runs Chromium with its own sandbox (renderers in namespaces of their own), not --no-sandbox', async (ctx) => {
    if (!fs.existsSync(CHROMIUM)) ctx.skip(`no Chromium at ${CHROMIUM}`);
    const sandbox = scratchSandbox();
    if (!sandbox.privileges.chromiumSandbox) {
      ctx.skip(
        `Chromium cannot sandbox itself here: ${sandbox.privileges.noChromiumSandboxReason}`,
      );
    }
    const { output } = await sandbox.run(
      escapeTask,
      { kind: 'chromium', chromiumPath: CHROMIUM },
      { timeoutMs: 90_000 },
    );
    const processes = output as { args: string[]; nsPids: string[] }[];
    const chromium = processes.filter((p) => p.args.some((a) => a.includes('chrom')));
    expect(chromium.length).toBeGreaterThan(1);
    expect(chromium.filter((p) => p.args.includes('--no-sandbox'))).toEqual([]);
    const renderers = chromium.filter((p) => p.args.includes('--type=renderer'));
    expect(renderers.length).toBeGreaterThan(0);
    for (const renderer of renderers) expect(renderer.nsPids.length).toBeGreaterThan(1);
  }, 120_000);

  it('falls back to --no-sandbox with a logged reason where user namespaces cannot be had', () => {
    // No unshare(1) to try them with (as on a system without util-linux).
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-privileges-'));
    cleanups.push(() => fs.rmSync(empty, { recursive: true, force: true }));
    fs.chmodSync(empty, 0o755);
    const path0 = process.env.PATH;
    process.env.PATH = empty;
    cleanups.push(() => (process.env.PATH = path0));
    const warnings: string[] = [];
    const sandbox = createSandbox({
      blobs: { blobsDir: empty, s3: undefined },
      memoryMb: 512,
      // Another spelling of the same user: decided anew, not taken from the tests above.
      user: '65534:65534',
      log: { info: () => undefined, warn: (_fields, msg) => warnings.push(msg) },
    });
    expect(sandbox.privileges.chromiumSandbox).toBe(false);
    expect(warnings).toEqual([
      'Chromium runs without its own sandbox (--no-sandbox): unshare(1) (util-linux) is not installed, so user namespaces cannot be checked',
    ]);
  });

  it('refuses to start with a sandbox user that does not exist', (ctx) => {
    if (!ROOT) ctx.skip(NOT_ROOT);
    expect(() =>
      createSandbox({
        blobs: { blobsDir: os.tmpdir(), s3: undefined },
        memoryMb: 512,
        user: 'no-such-user-item7',
      }),
    ).toThrow('MIRROR_SANDBOX_USER: there is no user "no-such-user-item7" on this machine');
  });
});
