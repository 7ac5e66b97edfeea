import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// The real entry point in a child process: configuration errors, serving, and shutdown on signals.
const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function startMain(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-main-'));
  dirs.push(dataDir);
  const child = spawn(
    process.execPath,
    ['--conditions', 'source', '--import', 'tsx', 'src/main.ts'],
    {
      cwd: serverRoot,
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

async function waitForLine(
  read: () => string,
  pattern: RegExp,
  timeoutMs = 15_000,
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = read().match(pattern);
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${read()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('main', () => {
  it('serves, then shuts down cleanly on SIGTERM', async () => {
    const main = startMain({});
    const [, port] = await waitForLine(
      () => main.output().stdout,
      /Server listening at http:\/\/127\.0\.0\.1:(\d+)/,
    );
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(await res.json()).toEqual({ status: 'ok' });
    main.child.kill('SIGTERM');
    expect(await main.exited).toBe(0);
    expect(main.output().stdout).toContain('shutting down');
  });

  it('refuses to start with a bad configuration and lists every problem', async () => {
    const main = startMain({ PORT: 'eighty', LOG_LEVEL: 'loud' });
    expect(await main.exited).toBe(1);
    const { stderr } = main.output();
    expect(stderr).toContain('Invalid configuration');
    expect(stderr).toContain('PORT');
    expect(stderr).toContain('LOG_LEVEL');
  });
});
