import { Buffer } from 'node:buffer';
import type { Socket } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { NetError } from './errors.js';
import { createHttpClient, type HttpClient, type HttpClientOptions } from './http-client.js';
import {
  patternBody,
  sleep,
  startHostileServer,
  write,
  type HostileServer,
  type Script,
} from '../../test/hostile-server.js';

// Servers written byte by byte on 127.0.0.1: every way a server can misbehave must end in a
// NetError with a stable code (or a complete body), in bounded time, with the connection let go.

const servers: HostileServer[] = [];
const clients: HttpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(script: Script): Promise<HostileServer> {
  const server = await startHostileServer(script);
  servers.push(server);
  return server;
}

function client(options: HttpClientOptions = {}): HttpClient {
  const created = createHttpClient({ allowPrivateNetworks: true, timeoutMs: 2_000, ...options });
  clients.push(created);
  return created;
}

async function bytes(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

async function failure(promise: Promise<unknown>): Promise<NetError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(NetError);
    return error as NetError;
  }
  throw new Error('expected a failure');
}

/** Writes `chunk` again and again while the client takes it; returns the bytes written. */
async function flood(socket: Socket, chunk: Buffer, max = Infinity): Promise<number> {
  let sent = 0;
  while (!socket.destroyed && sent < max) {
    await write(socket, chunk);
    sent += chunk.length;
  }
  return sent;
}

/** Sends `data` a few bytes at a time, forever or until the client hangs up. */
async function drip(socket: Socket, data: Buffer, every = 50, size = 1): Promise<void> {
  for (let at = 0; !socket.destroyed; at = (at + size) % data.length) {
    socket.write(data.subarray(at, at + size));
    await sleep(every);
  }
}

const OK_HEAD = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok';

/** A gzip stream that decodes to `mib` MiB of zeros at ~1 KiB per MiB (independent blocks). */
function gzipBomb(mib: number): { head: Buffer; block: Buffer; blocks: number } {
  const block = zlib.deflateRawSync(Buffer.alloc(1024 * 1024), {
    finishFlush: zlib.constants.Z_FULL_FLUSH,
  });
  return { head: Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]), block, blocks: mib };
}

describe('every body is read or destroyed, on every path', () => {
  it('destroys a huge redirect body instead of reading it, and follows the redirect', async () => {
    let sent = 0;
    const server = await serve(async (socket, head) => {
      if (head.startsWith('GET /next')) return void socket.end(OK_HEAD);
      socket.write(
        `HTTP/1.1 302 Found\r\nLocation: /next\r\nContent-Length: ${100 * 2 ** 20}\r\n\r\n`,
      );
      sent = await flood(socket, Buffer.alloc(64 * 1024, 'x'));
    });
    const started = Date.now();
    const res = await client().request(server.url('/'));
    expect(res.status).toBe(200);
    expect((await bytes(res.body)).toString()).toBe('ok');
    expect(Date.now() - started).toBeLessThan(1_000);
    await server.drained();
    expect(sent).toBeLessThan(8 * 2 ** 20);
  });

  it('drops a redirect body that drips instead of waiting for it', async () => {
    const server = await serve(async (socket, head) => {
      if (head.startsWith('GET /next')) return void socket.end(OK_HEAD);
      socket.write('HTTP/1.1 301 Moved\r\nLocation: /next\r\nTransfer-Encoding: chunked\r\n\r\n');
      await drip(socket, Buffer.from('1\r\nx\r\n'), 20, 6);
    });
    const res = await client({ timeoutMs: 10_000 }).request(server.url('/'));
    expect((await bytes(res.body)).toString()).toBe('ok');
    await server.drained();
  });

  it('releases 304, 204 and HEAD bodies itself: the connection is reused without reading', async () => {
    const server = await serve(function answer(socket, head) {
      const status = head.startsWith('GET /304') ? '304 Not Modified' : '204 No Content';
      socket.write(`HTTP/1.1 ${status}\r\nETag: "x"\r\n\r\n`);
      // Keep-alive: the next request on this connection gets the same treatment.
      let next = '';
      const more = (data: Buffer) => {
        next += data.toString('latin1');
        if (!next.includes('\r\n\r\n')) return;
        socket.off('data', more);
        answer(socket, next);
      };
      socket.on('data', more);
    });
    const c = client();
    for (const path of ['/304', '/204', '/304', '/204']) {
      const res = await c.request(server.url(path));
      expect(res.status).toBe(path === '/304' ? 304 : 204);
      // Not read, not discarded.
    }
    expect(server.accepted).toBe(1);
    const head = await c.request(server.url('/head'), { method: 'HEAD' });
    expect((await bytes(head.body)).length).toBe(0);
  });

  it('refuses a declared 10 GB body at once (ETOOLARGE), reading nothing', async () => {
    let sent = 0;
    const server = await serve(async (socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${10 * 2 ** 30}\r\n\r\n`);
      sent = await flood(socket, Buffer.alloc(64 * 1024, 'x'));
    });
    const started = Date.now();
    const error = await failure(client().request(server.url('/'), { maxBytes: 2 ** 20 }));
    expect(error.code).toBe('ETOOLARGE');
    expect(Date.now() - started).toBeLessThan(500);
    await server.drained();
    expect(sent).toBeLessThan(8 * 2 ** 20);
  });

  it('stops a body past maxBytes (ETOOLARGE) and closes its connection', async () => {
    const server = await serve(async (socket) => {
      socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n');
      await flood(
        socket,
        Buffer.concat([Buffer.from('10000\r\n'), patternBody(0x10000), Buffer.from('\r\n')]),
      );
    });
    const res = await client().request(server.url('/'), { maxBytes: 300_000 });
    expect((await failure(bytes(res.body))).code).toBe('ETOOLARGE');
    await server.drained();
  });

  it('fails a body that does not decode (EBADRESPONSE) and closes its connection', async () => {
    const server = await serve(async (socket) => {
      socket.write(
        'HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n',
      );
      await write(socket, 'f\r\nthis is no gzip\r\n');
      // …and the rest never comes: the connection must still be let go.
    });
    const res = await client().request(server.url('/'));
    const error = await failure(bytes(res.body));
    expect(error.code).toBe('EBADRESPONSE');
    expect(error.message).toContain('incorrect header check');
    await server.drained();
  });

  it('a body aborted through the signal mid-way closes its connection', async () => {
    const server = await serve(async (socket) => {
      socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n');
      await drip(socket, Buffer.from('5\r\nhello\r\n'), 10, 10);
    });
    const controller = new AbortController();
    const res = await client().request(server.url('/'), { signal: controller.signal });
    const reading = bytes(res.body);
    setTimeout(() => controller.abort(), 100);
    await expect(reading).rejects.toThrow();
    await server.drained();
  });

  it('discard() after partial reading, and a reader that throws, close the connection', async () => {
    const server = await serve(async (socket) => {
      socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n');
      await drip(socket, Buffer.from('5\r\nhello\r\n'), 10, 10);
    });
    const c = client();
    const partly = await c.request(server.url('/a'));
    await partly.body[Symbol.asyncIterator]().next();
    await partly.discard();
    await server.drained();

    const thrown = await c.request(server.url('/b'));
    await expect(
      (async () => {
        for await (const _chunk of thrown.body) throw new Error('the reader gave up');
      })(),
    ).rejects.toThrow('the reader gave up');
    await server.drained();
  });

  it('a body abandoned unread is released at the deadline (ETOOSLOW when read later)', async () => {
    const server = await serve(async (socket) => {
      socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n');
      await flood(
        socket,
        Buffer.concat([Buffer.from('10000\r\n'), patternBody(0x10000), Buffer.from('\r\n')]),
      );
    });
    const res = await client({ maxRequestMs: 300 }).request(server.url('/'));
    await server.drained(1_500);
    expect((await failure(bytes(res.body))).code).toBe('ETOOSLOW');
  });
});

describe('bounded time, whatever the server sends', () => {
  it('a body dripping a byte at a time fails at the request deadline (ETOOSLOW)', async () => {
    const server = await serve(async (socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n');
      await drip(socket, Buffer.from('abcdefgh'), 20);
    });
    const started = Date.now();
    const res = await client({ maxRequestMs: 600, minBytesPerSecond: 0 }).request(server.url('/'));
    const error = await failure(bytes(res.body));
    expect(error.code).toBe('ETOOSLOW');
    expect(error.message).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/ sent too slowly: \d+ bytes in 0\.\d s/,
    );
    expect(Date.now() - started).toBeLessThan(1_500);
    await server.drained();
  });

  it('a body slower than the minimum speed fails once the grace time is over (ETOOSLOW)', async () => {
    const server = await serve(async (socket) => {
      socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n');
      // ~200 bytes/s, never idle long enough for the body timeout.
      await drip(socket, Buffer.from('a\r\n0123456789\r\n'), 50, 15);
    });
    const started = Date.now();
    const res = await client({ minBytesPerSecond: 1000, minSpeedAfterMs: 400 }).request(
      server.url('/'),
    );
    const error = await failure(bytes(res.body));
    expect(error.code).toBe('ETOOSLOW');
    expect(error.message).toMatch(/sent too slowly: \d+ bytes in 0\.[4-6] s \(under 1000 bytes\/s/);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('does not take a slow reader for a slow server', async () => {
    const body = patternBody(256 * 1024);
    const server = await serve((socket) => {
      socket.end(
        Buffer.concat([
          Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`),
          body,
        ]),
      );
    });
    const res = await client({ minBytesPerSecond: 10 * 2 ** 20, minSpeedAfterMs: 100 }).request(
      server.url('/'),
    );
    const chunks: Buffer[] = [];
    for await (const chunk of res.body) {
      chunks.push(Buffer.from(chunk));
      await sleep(60);
    }
    expect(Buffer.concat(chunks).equals(body)).toBe(true);
  });

  it('bounds a server that never answers, or drips its headers (ETIMEDOUT, not restarted)', async () => {
    const silent = await serve(() => {});
    const dripping = await serve((socket) =>
      drip(socket, Buffer.from('HTTP/1.1 200 OK\r\n' + 'X-Slow: yes\r\n'.repeat(1000)), 20),
    );
    for (const server of [silent, dripping]) {
      const started = Date.now();
      const error = await failure(client({ timeoutMs: 300 }).request(server.url('/')));
      expect(error.code).toBe('ETIMEDOUT');
      // undici's timers tick every half second or so.
      expect(Date.now() - started).toBeLessThan(1_500);
    }
    // The request's deadline bounds the headers too, when it is the shorter.
    const error = await failure(
      client({ timeoutMs: 10_000 }).request(dripping.url('/'), { maxRequestMs: 400 }),
    );
    expect(error.code).toBe('ETOOSLOW');
  });

  it("bounds endless 1xx answers, which restart undici's headers timeout (ETOOSLOW)", async () => {
    const server = await serve(async (socket) => {
      while (!socket.destroyed) {
        socket.write('HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n');
        await sleep(50);
      }
    });
    const started = Date.now();
    // A 300 ms headers timeout would fire within about a second, were it not restarted.
    const c = client({ timeoutMs: 300, maxRequestMs: 5_000 });
    const error = await failure(c.request(server.url('/'), { maxRequestMs: 1_500 }));
    expect(error.code).toBe('ETOOSLOW');
    expect(error.message).toContain('0 bytes in 1.5 s (more than the 1.5 s allowed per request)');
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('counts redirects against the same deadline', async () => {
    const server = await serve(async (socket, head) => {
      const n = Number(/GET \/(\d+)/.exec(head)?.[1] ?? 0);
      await sleep(150);
      socket.end(`HTTP/1.1 302 Found\r\nLocation: /${n + 1}\r\nContent-Length: 0\r\n\r\n`);
    });
    const error = await failure(client({ maxRequestMs: 500 }).request(server.url('/0')));
    expect(error.code).toBe('ETOOSLOW');
  });
});

describe('malformed HTTP is a NetError, never a crash or a hang', () => {
  const table: [string, string | Buffer, string][] = [
    [
      'an invalid chunk size',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n',
      'EBADRESPONSE',
    ],
    [
      'a flood of 10 000 header lines',
      'HTTP/1.1 200 OK\r\n' +
        Array.from({ length: 10_000 }, (_, i) => `X-H${i}: v\r\n`).join('') +
        '\r\nok',
      'EBADRESPONSE',
    ],
    [
      'a 1 MiB header line',
      `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(2 ** 20)}\r\n\r\n`,
      'EBADRESPONSE',
    ],
    ['a bad status line', 'HTTP/1.1 OK GO\r\nContent-Length: 2\r\n\r\nok', 'EBADRESPONSE'],
    ['no HTTP at all', 'SSH-2.0-OpenSSH_9.6\r\n', 'EBADRESPONSE'],
    [
      'a body shorter than Content-Length',
      'HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\nshort',
      'EBADRESPONSE',
    ],
    [
      'an unfinished chunked body',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n',
      'EBADRESPONSE',
    ],
    ['nothing before closing', '', 'UND_ERR_SOCKET'],
  ];

  it.each(table)('%s', async (_name, answer, code) => {
    const server = await serve((socket) => socket.end(answer));
    const started = Date.now();
    const error = await failure(
      client()
        .request(server.url('/'))
        .then((res) => bytes(res.body)),
    );
    expect(error.code).toBe(code);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('a body longer than Content-Length: the declared bytes, then a new connection', async () => {
    const server = await serve((socket) =>
      socket.end('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello, and more besides'),
    );
    const c = client();
    expect((await bytes((await c.request(server.url('/a'))).body)).toString()).toBe('hello');
    expect((await bytes((await c.request(server.url('/b'))).body)).toString()).toBe('hello');
  });

  it('a gzip bomb (16 GiB from 16 MB) stops at maxBytes with ETOOLARGE, in bounded memory', async () => {
    // Larger than the loopback can hold unread (a send buffer of up to 4 MiB, tcp_wmem, and the
    // receiver's window): with 4 MB, a client slow to start reading let the kernel take all of
    // it, and "not sent to the end" failed (seen once on CI).
    const { head, block, blocks } = gzipBomb(16384);
    let sent = 0;
    const server = await serve(async (socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n');
      await write(socket, head);
      sent = await flood(socket, block, block.length * blocks);
    });
    const before = process.memoryUsage().rss;
    let peak = before;
    const res = await client().request(server.url('/'), { maxBytes: 32 * 2 ** 20 });
    let decoded = 0;
    const error = await failure(
      (async () => {
        for await (const chunk of res.body) {
          decoded += chunk.byteLength;
          peak = Math.max(peak, process.memoryUsage().rss);
        }
      })(),
    );
    expect(error.code).toBe('ETOOLARGE');
    expect(decoded).toBeLessThanOrEqual(32 * 2 ** 20);
    expect(peak - before).toBeLessThan(200 * 2 ** 20);
    await server.drained();
    expect(sent).toBeLessThan(block.length * blocks);
  });

  it('endless redirects end with EREDIRECTLOOP', async () => {
    const server = await serve((socket, head) => {
      const n = Number(/GET \/(\d+)/.exec(head)?.[1] ?? 0);
      socket.end(`HTTP/1.1 302 Found\r\nLocation: /${n + 1}\r\nContent-Length: 5\r\n\r\nmoved`);
    });
    const error = await failure(client().request(server.url('/0')));
    expect(error.code).toBe('EREDIRECTLOOP');
  });
});
