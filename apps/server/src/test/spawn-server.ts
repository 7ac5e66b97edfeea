import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from './test-app.js';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * How the entry point runs: after `npm test`'s build (MIRROR_SANDBOX_BUILT), as `npm start` runs
 * it, from `dist/` (compiling the sources with tsx took over 45 s on a loaded CI machine); else
 * from the sources.
 */
const ENTRY = process.env.MIRROR_SANDBOX_BUILT
  ? ['dist/main.js']
  : ['--conditions', '@mirror/source', '--import', 'tsx', 'src/main.ts'];

/**
 * The real entry point (`main.ts`) in a child process on 127.0.0.1 and a free port, for tests
 * of start-up, shutdown and crashes. `env` is the whole configuration besides PATH and the defaults
 * below; `args` such as `--role worker`. DATABASE_URL is passed on when the suite runs against PostgreSQL.
 */
export function spawnServer(env: Record<string, string>, args: string[] = []) {
  const child = spawn(process.execPath, [...ENTRY, ...args], {
    cwd: serverRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  let exit: string | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code, signal) => {
      exit = signal ? `killed by ${signal}` : `exit ${code}`;
      resolve(code);
    }),
  );
  const tail = () =>
    `\n--- stdout ---\n${stdout.slice(-3_000)}\n--- stderr ---\n${stderr.slice(-3_000)}`;
  /**
   * The port it listens on, once it says so (compiling the sources takes a while on a busy
   * machine). A process that ends first, or says nothing in time, fails with what it printed.
   */
  const port = waitFor(() => {
    const listening = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout)?.[1];
    if (!listening && exit) throw new Error(exit);
    return listening;
  }, 45_000).catch(() => {
    const what = exit
      ? `the server ended (${exit}) before it listened`
      : 'the server did not listen within 45 s';
    throw new Error(`${what}${tail()}`);
  });
  port.catch(() => undefined);
  return { child, exited, port, output: () => ({ stdout, stderr }) };
}
