import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NetError, RefusedAddressError } from './errors.js';
import { createHttpClient, type HttpClient, type HttpClientOptions } from './http-client.js';

// ---------------------------------------------------------------------------------------------
// Fixture server on 127.0.0.1: routes by path, counts connections and requests.

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

let server: http.Server;
let port = 0;
let connections = 0;
const seen: { method: string; path: string; headers: http.IncomingHttpHeaders }[] = [];

const routes: Record<string, Handler> = {
  '/': (_req, res) => {
    res.setHeader('X-Custom', 'Yes');
    res.end('hello');
  },
  '/echo': (req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ method: req.method, headers: req.headers }));
  },
  // /redirect?to=<url>&status=302
  '/redirect': (_req, res, url) => {
    res.statusCode = Number(url.searchParams.get('status') ?? 302);
    res.setHeader('location', url.searchParams.get('to') ?? '/');
    res.end('moved');
  },
  // /chain?n=3 → /chain?n=2 → … → /chain?n=0 (200)
  '/chain': (_req, res, url) => {
    const n = Number(url.searchParams.get('n'));
    if (n <= 0) return void res.end('end of chain');
    res.statusCode = 301;
    res.setHeader('location', `/chain?n=${n - 1}`);
    res.end();
  },
  '/loop': (_req, res) => {
    res.statusCode = 302;
    res.setHeader('location', '/loop');
    res.end();
  },
  '/gzip': (_req, res) => {
    res.setHeader('content-encoding', 'gzip');
    res.end(zlib.gzipSync('gzip body '.repeat(1000)));
  },
  '/br': (_req, res) => {
    res.setHeader('content-encoding', 'br');
    res.end(zlib.brotliCompressSync('brotli body '.repeat(1000)));
  },
  '/deflate': (_req, res) => {
    res.setHeader('content-encoding', 'deflate');
    res.end(zlib.deflateSync('deflate body '.repeat(100)));
  },
  '/deflate-raw': (_req, res) => {
    res.setHeader('content-encoding', 'deflate');
    res.end(zlib.deflateRawSync('raw deflate body '.repeat(100)));
  },
  '/gzip-br': (_req, res) => {
    res.setHeader('content-encoding', 'gzip, br');
    res.end(zlib.brotliCompressSync(zlib.gzipSync('twice encoded')));
  },
  '/unknown-encoding': (_req, res) => {
    res.setHeader('content-encoding', 'zstd');
    res.end('opaque');
  },
  '/gzip-bomb': (_req, res) => {
    res.setHeader('content-encoding', 'gzip');
    res.end(zlib.gzipSync(Buffer.alloc(10 * 1024 * 1024)));
  },
  '/not-modified': (_req, res) => {
    res.statusCode = 304;
    res.setHeader('content-encoding', 'gzip');
    res.end();
  },
  // 1 MiB, chunked (no content-length).
  '/big-chunked': (_req, res) => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    for (let i = 0; i < 16; i++) res.write(chunk);
    res.end();
  },
  '/big-declared': (_req, res) => {
    res.setHeader('content-length', String(1024 * 1024));
    res.end(Buffer.alloc(1024 * 1024, 'b'));
  },
  '/hang': () => {
    // Never answers.
  },
  '/stall-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('first part');
    // …and nothing more.
  },
  '/http-version': (req, res) => {
    res.end(req.httpVersion);
  },
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    seen.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers });
    const route = routes[url.pathname];
    if (route === undefined) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    route(req, res, url);
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const clients: HttpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** Test resolver: names under .test map to fixed addresses; anything else does not exist. */
const names: Record<string, string[]> = {
  'public.test': ['127.0.0.1'],
  'other.test': ['127.0.0.1'],
  'localhost.test': ['127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'private.test': ['10.0.0.1'],
  'mixed.test': ['93.184.215.14', '10.0.0.5'],
  'mixed-v6.test': ['2606:4700::1111', 'fd00::1'],
  'v6-loopback.test': ['::1'],
  'mapped.test': ['::ffff:10.0.0.1'],
  'nat64.test': ['64:ff9b::a9fe:a9fe'],
  'cgnat.test': ['100.64.0.1'],
  'garbage.test': ['not-an-address'],
};
const resolve = async (hostname: string): Promise<string[]> => {
  const addresses = names[hostname];
  if (addresses === undefined) {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  }
  return addresses;
};

function client(options: HttpClientOptions = {}): HttpClient {
  const created = createHttpClient({ resolve, timeoutMs: 2_000, ...options });
  clients.push(created);
  return created;
}

async function text(body: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
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

/** Stands for the fixture port in the tables below. */
const P = '{port}';

// ---------------------------------------------------------------------------------------------

describe('refused targets (default policy, through the real client)', () => {
  // [url, expected code, expected reason (refused addresses only)]
  const table: [string, string, string?][] = [
    // IPv4 loopback in every form
    [`http://127.0.0.1:${P}/`, 'EREFUSEDADDRESS', 'loopback'],
    [`http://127.1:${P}/`, 'EREFUSEDADDRESS', 'loopback'],
    [`http://127.0.1:${P}/`, 'EREFUSEDADDRESS', 'loopback'],
    [`http://2130706433:${P}/`, 'EREFUSEDADDRESS', 'loopback'],
    [`http://0x7f000001:${P}/`, 'EREFUSEDADDRESS', 'loopback'],
    [`http://0177.0.0.1:${P}/`, 'EREFUSEDADDRESS', 'loopback'],
    [`http://0x7f.0.0.1:${P}/`, 'EREFUSEDADDRESS', 'loopback'],
    [`http://127.0.0.1.:${P}/`, 'EREFUSEDADDRESS', 'loopback'],
    [`http://127.255.255.254:${P}/`, 'EREFUSEDADDRESS', 'loopback'],
    [`https://127.0.0.1:${P}/`, 'EREFUSEDADDRESS', 'loopback'],
    // IPv6 loopback and embedded loopback
    [`http://[::1]:${P}/`, 'EREFUSEDADDRESS', 'loopback'],
    [`http://[0:0:0:0:0:0:0:1]:${P}/`, 'EREFUSEDADDRESS', 'loopback'],
    [`http://[::ffff:127.0.0.1]:${P}/`, 'EREFUSEDADDRESS', 'loopback'],
    [`http://[::ffff:7f00:1]:${P}/`, 'EREFUSEDADDRESS', 'loopback'],
    [`http://[::127.0.0.1]:${P}/`, 'EREFUSEDADDRESS', 'loopback'],
    [`http://[64:ff9b::7f00:1]:${P}/`, 'EREFUSEDADDRESS', 'loopback'],
    [`http://[2002:7f00:1::]:${P}/`, 'EREFUSEDADDRESS', 'loopback'],
    // Private, shared, link-local / metadata
    ['http://10.0.0.1/', 'EREFUSEDADDRESS', 'private'],
    ['http://172.16.0.1/', 'EREFUSEDADDRESS', 'private'],
    ['http://172.31.255.255/', 'EREFUSEDADDRESS', 'private'],
    ['http://192.168.1.1/', 'EREFUSEDADDRESS', 'private'],
    ['http://3232235777/', 'EREFUSEDADDRESS', 'private'],
    ['http://100.64.0.1/', 'EREFUSEDADDRESS', 'shared'],
    ['http://169.254.169.254/latest/meta-data/', 'EREFUSEDADDRESS', 'link-local'],
    ['http://169.254.43518/latest/meta-data/', 'EREFUSEDADDRESS', 'link-local'],
    ['http://[::ffff:169.254.169.254]/', 'EREFUSEDADDRESS', 'link-local'],
    ['http://[64:ff9b::a9fe:a9fe]/', 'EREFUSEDADDRESS', 'link-local'],
    ['http://[2002:a9fe:a9fe::]/', 'EREFUSEDADDRESS', 'link-local'],
    ['http://[fd00:ec2::254]/', 'EREFUSEDADDRESS', 'unique-local'],
    ['http://[fc00::1]/', 'EREFUSEDADDRESS', 'unique-local'],
    ['http://[fe80::1]/', 'EREFUSEDADDRESS', 'link-local'],
    // Unspecified, multicast, reserved, broadcast, special-purpose
    [`http://0.0.0.0:${P}/`, 'EREFUSEDADDRESS', 'this-network'],
    [`http://0:${P}/`, 'EREFUSEDADDRESS', 'this-network'],
    [`http://[::]:${P}/`, 'EREFUSEDADDRESS', 'unspecified'],
    ['http://224.0.0.1/', 'EREFUSEDADDRESS', 'multicast'],
    ['http://[ff02::1]/', 'EREFUSEDADDRESS', 'multicast'],
    ['http://240.0.0.1/', 'EREFUSEDADDRESS', 'reserved'],
    ['http://255.255.255.255/', 'EREFUSEDADDRESS', 'broadcast'],
    ['http://198.18.0.1/', 'EREFUSEDADDRESS', 'benchmarking'],
    ['http://192.0.2.1/', 'EREFUSEDADDRESS', 'documentation'],
    ['http://192.0.0.1/', 'EREFUSEDADDRESS', 'ietf-protocol'],
    ['http://[2001:db8::1]/', 'EREFUSEDADDRESS', 'documentation'],
    ['http://[100::1]/', 'EREFUSEDADDRESS', 'discard'],
    // Host names the resolver maps to refused addresses
    [`http://localhost.test:${P}/`, 'EREFUSEDADDRESS', 'loopback'],
    ['http://metadata.test/latest/meta-data/', 'EREFUSEDADDRESS', 'link-local'],
    ['http://private.test/', 'EREFUSEDADDRESS', 'private'],
    ['http://mixed.test/', 'EREFUSEDADDRESS', 'private'],
    ['http://mixed-v6.test/', 'EREFUSEDADDRESS', 'unique-local'],
    [`http://v6-loopback.test:${P}/`, 'EREFUSEDADDRESS', 'loopback'],
    ['http://mapped.test/', 'EREFUSEDADDRESS', 'private'],
    ['http://nat64.test/', 'EREFUSEDADDRESS', 'link-local'],
    ['http://cgnat.test/', 'EREFUSEDADDRESS', 'shared'],
    ['http://garbage.test/', 'EREFUSEDADDRESS', 'invalid'],
    // Schemes
    ['file:///etc/passwd', 'EBADSCHEME'],
    ['ftp://example.com/', 'EBADSCHEME'],
    ['data:text/html,<h1>hi</h1>', 'EBADSCHEME'],
    ['javascript:alert(1)', 'EBADSCHEME'],
    [`gopher://127.0.0.1:${P}/_INFO`, 'EBADSCHEME'],
    ['ws://example.com/', 'EBADSCHEME'],
  ];

  it.each(table)('%s is refused (%s %s)', async (template, code, reason) => {
    const url = template.replace(P, String(port));
    const before = connections;
    const error = await failure(client().request(url));
    expect(error.code).toBe(code);
    if (reason !== undefined) {
      expect(error).toBeInstanceOf(RefusedAddressError);
      expect((error as RefusedAddressError).reason).toBe(reason);
      expect(error.message).toMatch(/^Refused address: /);
      expect(error.message).toContain(`(${reason})`);
    }
    expect(connections).toBe(before);
  });

  it('names the host and the address in the message', async () => {
    const error = await failure(client().request(`http://localhost.test:${port}/`));
    expect(error.message).toBe('Refused address: localhost.test resolves to 127.0.0.1 (loopback)');
    const literal = await failure(client().request('http://2130706433/'));
    // The URL parser already normalizes IPv4 literals in every form.
    expect(literal.message).toBe('Refused address: 127.0.0.1 (loopback)');
    const v6 = await failure(client().request('http://[::ffff:7f00:1]/'));
    expect(v6.message).toBe('Refused address: [::ffff:7f00:1] (loopback)');
  });
});

describe('redirects re-checked on every hop (fixture exempted with the allowAddresses seam)', () => {
  // public.test → 127.0.0.1 is the only exempted address; every redirect target below is refused.
  const exempt = () => client({ allowAddresses: ['127.0.0.1'] });
  const redirect = (to: string, status = 302) =>
    `http://public.test:${port}/redirect?status=${status}&to=${encodeURIComponent(to)}`;

  it('reaches the exempted fixture through a resolved name', async () => {
    const res = await exempt().request(`http://public.test:${port}/`);
    expect(res.status).toBe(200);
    expect(await text(res.body)).toBe('hello');
  });

  it.each([
    [() => `http://127.0.0.2:${port}/`, 'loopback'],
    [() => `http://[::1]:${port}/`, 'loopback'],
    [() => `http://0x7f000002:${port}/`, 'loopback'],
    [() => 'http://10.0.0.1/', 'private'],
    [() => 'http://169.254.169.254/latest/meta-data/', 'link-local'],
    [() => 'http://metadata.test/latest/meta-data/', 'link-local'],
    [() => 'http://private.test/', 'private'],
    [() => 'http://mixed.test/', 'private'],
  ])('a redirect to %s is refused', async (target, reason) => {
    for (const status of [301, 302, 303, 307, 308]) {
      const error = await failure(exempt().request(redirect(target(), status)));
      expect(error.code).toBe('EREFUSEDADDRESS');
      expect((error as RefusedAddressError).reason).toBe(reason);
    }
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/', 'javascript:alert(1)', 'data:,x'])(
    'a redirect to %s is refused as a bad scheme',
    async (target) => {
      const error = await failure(exempt().request(redirect(target)));
      expect(error.code).toBe('EBADSCHEME');
    },
  );

  it('follows a redirect to another name that resolves to the exempted address', async () => {
    const res = await exempt().request(redirect(`http://other.test:${port}/`));
    expect(res.status).toBe(200);
    expect(res.url).toBe(`http://other.test:${port}/`);
    expect(res.redirects).toEqual([
      {
        from: redirect(`http://other.test:${port}/`),
        to: `http://other.test:${port}/`,
        status: 302,
      },
    ]);
    await res.discard();
  });

  it('followRedirects: false returns the redirect to a refused target without following it', async () => {
    const res = await exempt().request(redirect('http://169.254.169.254/'), {
      followRedirects: false,
    });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('http://169.254.169.254/');
    expect(await text(res.body)).toBe('moved');
  });
});

describe('client with allowPrivateNetworks', () => {
  const local = (options: HttpClientOptions = {}) =>
    client({ allowPrivateNetworks: true, ...options });
  const base = () => `http://127.0.0.1:${port}`;

  it('fetches from a local server, lower-case headers, streamed body', async () => {
    const res = await local().request(`${base()}/`);
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${base()}/`);
    expect(res.headers['x-custom']).toBe('Yes');
    expect(res.redirects).toEqual([]);
    expect(await text(res.body)).toBe('hello');
  });

  it('reaches names resolving to private addresses', async () => {
    const res = await local().request(`http://localhost.test:${port}/`);
    expect(await text(res.body)).toBe('hello');
  });

  it('sends user-agent, accept-encoding and caller headers', async () => {
    const res = await local({ userAgent: 'MirrorBot/1.0' }).request(`${base()}/echo`, {
      headers: { Accept: 'text/html', 'If-None-Match': '"abc"' },
    });
    const echoed = JSON.parse(await text(res.body)) as { headers: Record<string, string> };
    expect(echoed.headers['user-agent']).toBe('MirrorBot/1.0');
    expect(echoed.headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(echoed.headers.accept).toBe('text/html');
    expect(echoed.headers['if-none-match']).toBe('"abc"');
  });

  it('follows and records redirects, relative locations included, without the fragment', async () => {
    const res = await local().request(`${base()}/chain?n=3#top`);
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${base()}/chain?n=0`);
    expect(res.redirects).toEqual([
      { from: `${base()}/chain?n=3`, to: `${base()}/chain?n=2`, status: 301 },
      { from: `${base()}/chain?n=2`, to: `${base()}/chain?n=1`, status: 301 },
      { from: `${base()}/chain?n=1`, to: `${base()}/chain?n=0`, status: 301 },
    ]);
    expect(await text(res.body)).toBe('end of chain');
  });

  it('follows exactly 10 redirects, fails on the 11th with EREDIRECTLOOP', async () => {
    const ten = await local().request(`${base()}/chain?n=10`);
    expect(ten.redirects).toHaveLength(10);
    await ten.discard();
    const error = await failure(local().request(`${base()}/chain?n=11`));
    expect(error.code).toBe('EREDIRECTLOOP');
    const loop = await failure(local().request(`${base()}/loop`));
    expect(loop.code).toBe('EREDIRECTLOOP');
    expect(loop.message).toContain('Too many redirects');
  });

  it('turns POST into GET on 303 and keeps the method on 307', async () => {
    const to = encodeURIComponent('/echo');
    const see = await local().request(`${base()}/redirect?status=303&to=${to}`, { method: 'POST' });
    expect(JSON.parse(await text(see.body))).toMatchObject({ method: 'GET' });
    const temp = await local().request(`${base()}/redirect?status=307&to=${to}`, {
      method: 'DELETE',
    });
    expect(JSON.parse(await text(temp.body))).toMatchObject({ method: 'DELETE' });
  });

  it('drops credentials on a cross-origin redirect', async () => {
    const to = encodeURIComponent(`http://localhost.test:${port}/echo`);
    const res = await local().request(`${base()}/redirect?to=${to}`, {
      headers: { authorization: 'Bearer secret', cookie: 'a=b', 'x-keep': '1' },
    });
    const echoed = JSON.parse(await text(res.body)) as { headers: Record<string, string> };
    expect(echoed.headers.authorization).toBeUndefined();
    expect(echoed.headers.cookie).toBeUndefined();
    expect(echoed.headers['x-keep']).toBe('1');
  });

  it('followRedirects: false returns the 3xx itself', async () => {
    const res = await local().request(`${base()}/redirect?status=301&to=%2Fnext`, {
      followRedirects: false,
    });
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/next');
    expect(res.redirects).toEqual([]);
    expect(res.url).toBe(`${base()}/redirect?status=301&to=%2Fnext`);
    await res.discard();
  });

  it('reuses one keep-alive connection for sequential requests', async () => {
    const c = local();
    const before = connections;
    for (let i = 0; i < 5; i++) {
      const res = await c.request(`${base()}/`);
      expect(await text(res.body)).toBe('hello');
    }
    const res = await c.request(`${base()}/chain?n=2`);
    await res.discard();
    expect(connections - before).toBe(1);
  });

  it('respects connectionsPerHost', async () => {
    const c = local({ connectionsPerHost: 2 });
    const before = connections;
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => c.request(`${base()}/`).then((res) => text(res.body))),
    );
    expect(responses.every((body) => body === 'hello')).toBe(true);
    expect(connections - before).toBeLessThanOrEqual(2);
  });

  it.each([
    ['/gzip', 'gzip body '.repeat(1000)],
    ['/br', 'brotli body '.repeat(1000)],
    ['/deflate', 'deflate body '.repeat(100)],
    ['/deflate-raw', 'raw deflate body '.repeat(100)],
    ['/gzip-br', 'twice encoded'],
  ])('decodes %s and drops content-encoding / content-length', async (path, expected) => {
    const res = await local().request(`${base()}${path}`);
    expect(await text(res.body)).toBe(expected);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-length']).toBeUndefined();
  });

  it('leaves an unknown encoding as sent', async () => {
    const res = await local().request(`${base()}/unknown-encoding`);
    expect(res.headers['content-encoding']).toBe('zstd');
    expect(await text(res.body)).toBe('opaque');
  });

  it('does not decode empty 304 and HEAD bodies', async () => {
    const c = local();
    const notModified = await c.request(`${base()}/not-modified`);
    expect(notModified.status).toBe(304);
    expect(await text(notModified.body)).toBe('');
    const head = await c.request(`${base()}/gzip`, { method: 'HEAD' });
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(await text(head.body)).toBe('');
  });

  it('aborts a streamed body past maxBytes with ETOOLARGE', async () => {
    const res = await local().request(`${base()}/big-chunked`, { maxBytes: 100_000 });
    expect(res.status).toBe(200);
    const error = await failure(text(res.body));
    expect(error.code).toBe('ETOOLARGE');
    // Within the limit, the same body passes.
    const ok = await local().request(`${base()}/big-chunked`, { maxBytes: 1024 * 1024 });
    expect((await text(ok.body)).length).toBe(1024 * 1024);
  });

  it('refuses up front when content-length exceeds maxBytes', async () => {
    const error = await failure(local().request(`${base()}/big-declared`, { maxBytes: 1000 }));
    expect(error.code).toBe('ETOOLARGE');
  });

  it('counts decoded bytes against maxBytes (decompression bombs)', async () => {
    const res = await local().request(`${base()}/gzip-bomb`, { maxBytes: 1024 * 1024 });
    const error = await failure(text(res.body));
    expect(error.code).toBe('ETOOLARGE');
  });

  it('times out waiting for headers with ETIMEDOUT', async () => {
    const error = await failure(local({ timeoutMs: 200 }).request(`${base()}/hang`));
    expect(error.code).toBe('ETIMEDOUT');
  });

  it('times out on a stalled body with ETIMEDOUT', async () => {
    const res = await local({ timeoutMs: 200 }).request(`${base()}/stall-body`);
    expect(res.status).toBe(200);
    const error = await failure(text(res.body));
    expect(error.code).toBe('ETIMEDOUT');
  });

  it('passes network error codes through', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await failure(local().request(`http://127.0.0.1:${closedPort}/`));
    expect(refused.code).toBe('ECONNREFUSED');
    const unknown = await failure(local().request('http://does-not-exist.test/'));
    expect(unknown.code).toBe('ENOTFOUND');
  });

  it('stops on abort', async () => {
    const controller = new AbortController();
    const pending = local().request(`${base()}/hang`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toThrow();
  });

  it('a body can be read once', async () => {
    const res = await local().request(`${base()}/`);
    expect(await text(res.body)).toBe('hello');
    expect(() => res.body[Symbol.asyncIterator]()).toThrow(/already read/);
  });
});

// ---------------------------------------------------------------------------------------------
// HTTP/2 through ALPN: a TLS fixture with a throwaway self-signed certificate.

function selfSignedCertificate(): { key: string; cert: string } | null {
  const dir = mkdtempSync(join(tmpdir(), 'mirror-net-'));
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
        '/CN=h2.test',
        '-addext',
        'subjectAltName=DNS:h2.test',
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

const tlsMaterial = selfSignedCertificate();

describe.skipIf(tlsMaterial === null)('HTTP/2', () => {
  let h2server: http2.Http2SecureServer;
  let h2port = 0;

  beforeAll(async () => {
    if (tlsMaterial === null) return;
    h2server = http2.createSecureServer({ ...tlsMaterial, allowHTTP1: true }, (req, res) => {
      if (req.url === '/gzip') {
        res.setHeader('content-encoding', 'gzip');
        res.end(zlib.gzipSync(`over ${req.httpVersion}`));
        return;
      }
      res.end(`over ${req.httpVersion}`);
    });
    await new Promise<void>((resolve) => h2server.listen(0, '127.0.0.1', resolve));
    h2port = (h2server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => h2server.close(() => resolve()));
  });

  it('speaks HTTP/2 when the server offers it, and decodes its bodies', async () => {
    const c = createHttpClient({
      resolve: async () => ['127.0.0.1'],
      allowAddresses: ['127.0.0.1'],
      tlsCa: tlsMaterial?.cert ?? '',
      timeoutMs: 2_000,
    });
    clients.push(c);
    const res = await c.request(`https://h2.test:${h2port}/`);
    expect(await text(res.body)).toBe('over 2.0');
    const gz = await c.request(`https://h2.test:${h2port}/gzip`);
    expect(await text(gz.body)).toBe('over 2.0');
  });

  it('refuses an h2 origin resolving to a refused address', async () => {
    const c = createHttpClient({ resolve: async () => ['127.0.0.1'], tlsCa: tlsMaterial?.cert });
    clients.push(c);
    const error = await failure(c.request(`https://h2.test:${h2port}/`));
    expect(error.code).toBe('EREFUSEDADDRESS');
  });
});
