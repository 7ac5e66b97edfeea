import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnServer } from './test/spawn-server.js';

// The real entry point in a child process: configuration errors, serving, and shutdown on signals.
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function startMain(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-main-'));
  dirs.push(dataDir);
  return spawnServer({ DATA_DIR: dataDir, ...env });
}

describe('main', () => {
  it('serves, then shuts down cleanly on SIGTERM', async () => {
    const main = startMain({});
    const port = await main.port;
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(await res.json()).toEqual({ status: 'ok' });
    main.child.kill('SIGTERM');
    expect(await main.exited).toBe(0);
    expect(main.output().stdout).toContain('shutting down');
    // Starting a whole server process (tsx compiles it) and draining it: 20 s was not enough in the
    // service matrix on a loaded 2-core machine.
  }, 60_000);

  it('refuses to start with a bad configuration and lists every problem', async () => {
    const main = startMain({ PORT: 'eighty', LOG_LEVEL: 'loud' });
    expect(await main.exited).toBe(1);
    const { stderr } = main.output();
    expect(stderr).toContain('Invalid configuration');
    expect(stderr).toContain('PORT');
    expect(stderr).toContain('LOG_LEVEL');
  });
});
