import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const engineRoot = join(here, '..', '..');

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
