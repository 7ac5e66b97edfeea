import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { startHostileServer } from '../../test/hostile-server.js';
import { createSafeConnector } from './http-client.js';
import { hasUndiciParser, undiciSymbols } from './paused-parser-guard.js';

const here = dirname(fileURLToPath(import.meta.url));
const engineRoot = join(here, '..', '..');

describe('undici internals the paused-parser guard relies on', () => {
  // If one of these fails, undici changed under paused-parser-guard.ts: the guard may have
  // silently stopped working (and the crash of undici issue 5360 be back). Re-check the guard
  // against the new undici, or drop it when undici fixes the crash itself (undici 8 does).
  const require = createRequire(import.meta.url);
  const agents: Agent[] = [];
  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.close()));
  });

  it('is undici 7, whose HTTP/1 parser still asserts it is not paused when finishing', () => {
    const pkg = JSON.parse(readFileSync(require.resolve('undici/package.json'), 'utf8')) as {
      version: string;
    };
    expect(pkg.version).toMatch(/^7\./);
    const source = readFileSync(require.resolve('undici/lib/dispatcher/client-h1.js'), 'utf8');
    expect(source).toContain('assert(!this.paused)');
  });

  it('exports kParser and kError from lib/core/symbols.js', () => {
    expect(typeof undiciSymbols.kParser).toBe('symbol');
    expect(typeof undiciSymbols.kError).toBe('symbol');
    expect(undiciSymbols.kParser.description).toBe('parser');
    expect(undiciSymbols.kError.description).toBe('error');
  });

  it('attaches the parser when the connector calls back, with a paused flag, resuming by reading', async () => {
    const server = await startHostileServer((socket) =>
      socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'),
    );
    const connect = createSafeConnector({ allowPrivateNetworks: true });
    let attached: boolean | undefined;
    let socket: Socket | undefined;
    const agent = new Agent({
      connect: (options, callback) =>
        connect(options, (...args) => {
          callback(...args);
          socket = args[1] ?? undefined;
          // Synchronously, right after undici's callback returned.
          if (socket) attached = hasUndiciParser(socket);
        }),
    });
    agents.push(agent);
    const res = await agent.request({
      origin: new URL(server.url('/')).origin,
      path: '/',
      method: 'GET',
    });
    const parser = (socket as unknown as Record<symbol, unknown>)[undiciSymbols.kParser] as Record<
      string,
      unknown
    >;
    expect(attached).toBe(true);
    expect(typeof parser.paused).toBe('boolean');
    // The guard learns that the parser resumed from the socket read its resume starts with.
    const resume = Object.getPrototypeOf(parser).resume as () => void;
    expect(resume.toString()).toContain('this.socket.read()');
    expect(await res.body.text()).toBe('ok');
    await server.close();
  });
});

describe('no server can crash the process through a paused parser (undici issue 5360)', () => {
  it('servers that close, cut or reset mid-body, read slowly, late, partly or never (child process)', async () => {
    // A child process, because the crash is an uncaught exception from a socket event handler:
    // in this process it would take the test runner down instead of failing a test.
    const script = join(engineRoot, 'test', 'paused-parser-child.mjs');
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve) => {
        const child = execFile(
          process.execPath,
          ['--conditions', '@mirror/source', '--import', 'tsx', script],
          { cwd: engineRoot, timeout: 60_000, env: { ...process.env, ROUNDS: '3' } },
          (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
        );
      },
    );
    expect(run.stderr).not.toContain('AssertionError');
    expect(run.code, run.stderr).not.toBeNull();
    const report = JSON.parse(run.stdout) as {
      tls: boolean;
      results: { name: string; ok: boolean; detail?: Record<string, unknown> }[];
    };
    const failed = report.results.filter((result) => !result.ok);
    expect(failed).toEqual([]);
    expect(run.code).toBe(0);
    const result = (name: string) => report.results.find((entry) => entry.name === name);
    // The two scenarios of the issue, by name: a complete body, and a clean NetError.
    expect(result('tcp | http/1.0 close-delimited | slow')?.detail).toEqual({ bytes: 512 * 1024 });
    expect(result('tcp | http/1.0 close-delimited, 70 KiB | late')?.detail).toEqual({
      bytes: 70 * 1024,
    });
    expect(
      result('tcp | headers, part of the body, FIN (content-length + close) | slow')?.detail,
    ).toMatchObject({ name: 'NetError', error: 'EBADRESPONSE' });
    expect(report.results.length).toBe(report.tls ? 90 : 45);
  }, 90_000);
});
