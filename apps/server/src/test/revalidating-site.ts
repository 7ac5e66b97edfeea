import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small website on 127.0.0.1 that answers conditional requests as real servers do (an `ETag`
 * per body, `304` to a matching `If-None-Match`) and can hold a request until a test lets it go:
 * for tests of what a run in progress reuses and of what happens meanwhile.
 */
export interface RevalidatingSite {
  url: string;
  /** Served files by path; a body changed here gets a new ETag. */
  files: Map<string, { type: string; body: string | Buffer }>;
  /** Paths answered 304, in order. */
  notModified: string[];
  /**
   * Holds the next request for `path` (once `after` was answered, when given) until `release()`;
   * `arrived` resolves when it is held.
   */
  hold(path: string, after?: string): { arrived: Promise<void>; release(): void };
  close(): Promise<void>;
}

export async function startRevalidatingSite(
  files: Record<string, { type: string; body: string | Buffer }>,
): Promise<RevalidatingSite> {
  /** Answers sent per path, and who waits for the next one. */
  const answers = new Map<string, number>();
  const listeners: (() => void)[] = [];
  const answeredSince = async (path: string, count: number) => {
    while ((answers.get(path) ?? 0) <= count) await new Promise<void>((r) => listeners.push(r));
  };
  const holds = new Map<
    string,
    { wait: () => Promise<void>; arrived: () => void; released: Promise<void> }
  >();

  const state: RevalidatingSite = {
    url: '',
    files: new Map(Object.entries(files)),
    notModified: [],
    hold(path, after) {
      let arrived!: () => void;
      let release!: () => void;
      const arrival = new Promise<void>((resolve) => (arrived = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      const count = after ? (answers.get(after) ?? 0) : 0;
      const wait = after ? () => answeredSince(after, count) : async () => undefined;
      holds.set(path, { wait, arrived, released });
      return { arrived: arrival, release };
    },
    close: async () => undefined,
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const held = holds.get(path);
      if (held) {
        holds.delete(path);
        await held.wait();
        held.arrived();
        await held.released;
      }
      const file = state.files.get(path);
      if (!file) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      } else {
        const etag = `"${createHash('sha256').update(file.body).digest('hex').slice(0, 16)}"`;
        if (req.headers['if-none-match'] === etag) {
          state.notModified.push(path);
          res.writeHead(304, { etag }).end();
        } else {
          res.writeHead(200, { 'content-type': file.type, etag }).end(file.body);
        }
      }
      answers.set(path, (answers.get(path) ?? 0) + 1);
      for (const wake of listeners.splice(0)) wake();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
