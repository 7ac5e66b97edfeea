/**
 * What code that took over a sandboxed run (a renderer exploit, a parser bug) would try next, for
 * the sandbox's privilege tests (issue 30, item 7): read the server's secrets, its process, its
 * data folder; and what its Chromium runs with.
 */
import fs from 'node:fs';
import { getHeapSnapshot } from 'node:v8';
import { launchChromium, openContext, readBlob } from '@mirror/engine';
import { processTree } from '../platform/sandbox/process-tree.js';
import { sandboxTask, type SandboxContext } from '../platform/sandbox/sandbox.js';

export type EscapeInput =
  | { kind: 'secrets'; reversedSecrets: string[] }
  | { kind: 'server'; serverPid: number }
  | { kind: 'files'; paths: string[]; store: string }
  | { kind: 'chromium'; chromiumPath: string };

/** Which of `secrets` appear anywhere in a heap snapshot of this process. */
async function secretsIn(snapshot: AsyncIterable<unknown>, secrets: string[]): Promise<string[]> {
  const found = new Set<string>();
  const keep = Math.max(...secrets.map((s) => s.length));
  let tail = '';
  for await (const chunk of snapshot) {
    const text = tail + (chunk as Buffer).toString('utf8');
    for (const secret of secrets) if (text.includes(secret)) found.add(secret);
    tail = text.slice(-keep);
  }
  return [...found];
}

/** 'read' or the error code of reading `file` (a folder is listed). */
function tryRead(file: string): string {
  try {
    if (fs.statSync(file).isDirectory()) fs.readdirSync(file);
    else fs.readFileSync(file);
    return 'read';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
}

export async function run(input: EscapeInput, context: SandboxContext): Promise<unknown> {
  switch (input.kind) {
    case 'secrets': {
      // Taken before the secrets are spelled here: they come reversed, so the input is no match.
      const snapshot = getHeapSnapshot();
      const inHeap = await secretsIn(
        snapshot,
        input.reversedSecrets.map((s) => [...s].reverse().join('')),
      );
      return { env: { ...process.env }, argv: process.argv.join(' '), inHeap };
    }
    case 'server': {
      const proc = (name: string) => tryRead(`/proc/${input.serverPid}/${name}`);
      let signal = 'sent';
      try {
        process.kill(input.serverPid, 0);
      } catch (error) {
        signal = (error as NodeJS.ErrnoException).code ?? String(error);
      }
      return {
        uid: process.getuid?.(),
        environ: proc('environ'),
        mem: proc('mem'),
        maps: proc('maps'),
        cwd: proc('cwd'),
        signal,
      };
    }
    case 'files': {
      // Storage still works: through the parent.
      const { hash } = await context.blobs.put(
        (async function* () {
          yield Buffer.from(input.store);
        })(),
      );
      return {
        reads: Object.fromEntries(input.paths.map((p) => [p, tryRead(p)])),
        stored: { hash, back: (await readBlob(context.blobs, hash)).toString('utf8') },
      };
    }
    case 'chromium': {
      const browser = await launchChromium({ executablePath: input.chromiumPath });
      try {
        const page = await (await openContext(browser, {})).newPage();
        await page.goto('data:text/html,<p>hello</p>');
        await page.textContent('p');
        return processTree(process.pid)
          .filter((p) => p.pid !== process.pid)
          .map(({ pid }) => {
            const read = (name: string) => {
              try {
                return fs.readFileSync(`/proc/${pid}/${name}`, 'utf8');
              } catch {
                return '';
              }
            };
            return {
              // Chromium's helpers write their command line back as one line with spaces.
              args: read('cmdline')
                .split(/[\0\s]+/)
                .filter(Boolean),
              // Its pid in each PID namespace it is in: two or more inside a sandbox's namespace.
              nsPids: (/^NSpid:\s*(.*)$/m.exec(read('status'))?.[1] ?? '')
                .split(/\s+/)
                .filter(Boolean),
            };
          });
      } finally {
        await browser.close();
      }
    }
  }
}

export const escapeTask = sandboxTask(import.meta.url, run);
