/**
 * TEST-ONLY: servers on 127.0.0.1 that answer with raw bytes (plain TCP or TLS), for the HTTP
 * client's tests against servers no HTTP library would let us write: close-delimited HTTP/1.0,
 * FIN or RST mid-body, malformed framing, dripping bytes. Not used by the library.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net, { type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';

/** Answers one request: `head` is the request head as received (up to the blank line). */
export type Script = (socket: Socket, head: string) => unknown;

export interface TlsMaterial {
  key: string;
  cert: string;
}

export interface HostileServer {
  port: number;
  /** `http://127.0.0.1:port/…` (or https). */
  url(path?: string): string;
  /** Connections accepted so far. */
  readonly accepted: number;
  /**
   * Connections that received a request and are not closed yet. (Idle connections do not count:
   * undici's pool opens spare ones, which its keep-alive timeout closes.)
   */
  readonly busy: number;
  /** Resolves once no connection is busy (the client let go of every socket), or rejects. */
  drained(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startHostileServer(
  script: Script,
  options: { tls?: TlsMaterial } = {},
): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  const busy = new Set<Socket>();
  let accepted = 0;
  const onSocket = (socket: Socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      busy.delete(socket);
    });
    // The client hanging up mid-answer is what several tests are about.
    socket.on('error', () => {});
    let head = '';
    const onData = (data: Buffer) => {
      head += data.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.off('data', onData);
      busy.add(socket);
      Promise.resolve(script(socket, head.slice(0, end))).catch(() => socket.destroy());
    };
    socket.on('data', onData);
  };
  const server = options.tls
    ? tls.createServer({ ...options.tls, ALPNProtocols: ['http/1.1'] }, onSocket)
    : net.createServer(onSocket);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const scheme = options.tls ? 'https' : 'http';
  return {
    port,
    url: (path = '/') => `${scheme}://127.0.0.1:${port}${path}`,
    get accepted() {
      return accepted;
    },
    get busy() {
      return busy.size;
    },
    async drained(timeoutMs = 2_000) {
      const until = Date.now() + timeoutMs;
      while (busy.size > 0) {
        if (Date.now() > until) throw new Error(`${busy.size} connection(s) still open`);
        await sleep(10);
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Writes and waits until the bytes are handed to the kernel (or the socket is gone). */
export function write(socket: Socket, data: string | Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve();
    socket.write(data, () => resolve());
  });
}

/** A body whose bytes depend on their position, so a lost or repeated chunk shows. */
export function patternBody(size: number): Buffer {
  const body = Buffer.alloc(size);
  for (let i = 0; i < size; i++) body[i] = (i * 7 + (i >> 10)) & 0xff;
  return body;
}

/** A throwaway self-signed certificate for 127.0.0.1 and `names`; null without openssl. */
export function selfSignedCertificate(names: string[] = []): TlsMaterial | null {
  const dir = mkdtempSync(join(tmpdir(), 'mirror-net-'));
  const san = ['IP:127.0.0.1', ...names.map((name) => `DNS:${name}`)].join(',');
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        `/CN=${names[0] ?? '127.0.0.1'}`,
        '-addext',
        `subjectAltName=${san}`,
      ],
      { stdio: 'ignore' },
    );
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
