import http from 'node:http';
import net, { type AddressInfo, type LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetError, RefusedAddressError } from './errors.js';
import { createHttpClient, createSafeConnector } from './http-client.js';
import { assertPublicUrl, createCheckedResolver, createSafeLookup } from './safe-lookup.js';

let server: http.Server;
let port = 0;

beforeAll(async () => {
  server = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const fixed =
  (map: Record<string, string[]>) =>
  async (hostname: string): Promise<string[]> =>
    map[hostname] ?? [];

function lookupOnce(
  lookup: LookupFunction,
  hostname: string,
  options: { all?: boolean; family?: number } = {},
): Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }> {
  return new Promise((resolve) => {
    lookup(hostname, options, (error, address, family) => resolve({ error, address, family }));
  });
}

/** Opens a raw TCP connection through the lookup; resolves with the remote address or the error. */
function connectThrough(
  lookup: LookupFunction,
  host: string,
  autoSelectFamily: boolean,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port, lookup, autoSelectFamily });
    socket.once('connect', () => {
      resolve(socket.remoteAddress ?? '');
      socket.destroy();
    });
    socket.once('error', reject);
  });
}

describe('createSafeLookup', () => {
  it('answers with one address, or all of them with options.all', async () => {
    const lookup = createSafeLookup({
      resolve: fixed({ 'a.test': ['1.1.1.1', '2606:4700::1111'] }),
    });
    expect(await lookupOnce(lookup, 'a.test')).toEqual({
      error: null,
      address: '1.1.1.1',
      family: 4,
    });
    const all = await lookupOnce(lookup, 'a.test', { all: true });
    expect(all.address).toEqual([
      { address: '1.1.1.1', family: 4 },
      { address: '2606:4700::1111', family: 6 },
    ]);
    const v6 = await lookupOnce(lookup, 'a.test', { family: 6 });
    expect(v6.address).toBe('2606:4700::1111');
  });

  it('refuses when any address is not public, naming host and address', async () => {
    const lookup = createSafeLookup({
      resolve: fixed({ 'mixed.test': ['1.1.1.1', '192.168.0.10'] }),
    });
    const { error } = await lookupOnce(lookup, 'mixed.test', { all: true });
    expect(error?.code).toBe('EREFUSEDADDRESS');
    expect(error?.message).toBe('Refused address: mixed.test resolves to 192.168.0.10 (private)');
  });

  it('takes IP literals as they are, without asking the resolver', async () => {
    const asked: string[] = [];
    const lookup = createSafeLookup({
      resolve: async (host) => {
        asked.push(host);
        return ['1.1.1.1'];
      },
    });
    const { error } = await lookupOnce(lookup, '0x7f.1');
    expect(error?.message).toBe('Refused address: 0x7f.1 resolves to 127.0.0.1 (loopback)');
    expect(asked).toEqual([]);
  });

  it('fails with ENOTFOUND when nothing (of the wanted family) resolves', async () => {
    const lookup = createSafeLookup({ resolve: fixed({ 'v4.test': ['1.1.1.1'] }) });
    expect((await lookupOnce(lookup, 'none.test')).error?.code).toBe('ENOTFOUND');
    expect((await lookupOnce(lookup, 'v4.test', { family: 6 })).error?.code).toBe('ENOTFOUND');
  });

  it.each([true, false])(
    'guards net.connect (autoSelectFamily %s): refused by default, connects when allowed',
    async (autoSelectFamily) => {
      const resolve = fixed({ 'local.test': ['127.0.0.1'] });
      await expect(
        connectThrough(createSafeLookup({ resolve }), 'local.test', autoSelectFamily),
      ).rejects.toMatchObject({ code: 'EREFUSEDADDRESS' });
      const allowed = createSafeLookup({ resolve, allowPrivateNetworks: true });
      expect(await connectThrough(allowed, 'local.test', autoSelectFamily)).toBe('127.0.0.1');
      const exempt = createSafeLookup({ resolve, allowAddresses: ['127.0.0.1'] });
      expect(await connectThrough(exempt, 'local.test', autoSelectFamily)).toBe('127.0.0.1');
    },
  );

  it('uses the system resolver by default (localhost is refused)', async () => {
    const { error } = await lookupOnce(createSafeLookup(), 'localhost', { all: true });
    expect(error).toBeInstanceOf(RefusedAddressError);
    expect((error as RefusedAddressError).reason).toBe('loopback');
  });
});

describe('createCheckedResolver', () => {
  it('names the literal as written and the address it denotes', async () => {
    const check = createCheckedResolver({});
    await expect(check('2130706433')).rejects.toThrow(
      'Refused address: 2130706433 resolves to 127.0.0.1 (loopback)',
    );
    await expect(check('[::1]')).rejects.toThrow('Refused address: [::1] (loopback)');
    expect(await check('8.8.8.8')).toEqual(['8.8.8.8']);
  });

  it('normalizes resolved addresses and refuses garbage from the resolver', async () => {
    const check = createCheckedResolver({
      resolve: fixed({ 'ok.test': ['2606:4700:0:0:0:0:0:1111'], 'bad.test': ['nonsense'] }),
    });
    expect(await check('ok.test')).toEqual(['2606:4700::1111']);
    await expect(check('bad.test')).rejects.toMatchObject({
      code: 'EREFUSEDADDRESS',
      reason: 'invalid',
    });
  });
});

describe('assertPublicUrl', () => {
  const resolve = fixed({
    'example.test': ['93.184.215.14'],
    'localhost.test': ['127.0.0.1'],
    'meta.test': ['169.254.169.254'],
  });

  it('passes public hosts and returns the checked addresses', async () => {
    expect(await assertPublicUrl(new URL('https://example.test/a'), { resolve })).toEqual([
      '93.184.215.14',
    ]);
  });

  it.each([
    ['http://localhost.test/', 'Refused address: localhost.test resolves to 127.0.0.1 (loopback)'],
    ['http://meta.test/', 'Refused address: meta.test resolves to 169.254.169.254 (link-local)'],
    ['http://127.1/', 'Refused address: 127.0.0.1 (loopback)'],
    ['http://[fe80::1]/', 'Refused address: [fe80::1] (link-local)'],
  ])('refuses %s with a clear message', async (url, message) => {
    const error = await assertPublicUrl(new URL(url), { resolve }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RefusedAddressError);
    expect((error as RefusedAddressError).message).toBe(message);
    expect((error as RefusedAddressError).url).toBe(new URL(url).href);
  });

  it.each(['file:///etc/passwd', 'ftp://example.test/', 'data:,x', 'javascript:void(0)'])(
    'refuses the scheme of %s',
    async (url) => {
      const error = await assertPublicUrl(new URL(url), { resolve }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetError);
      expect((error as NetError).code).toBe('EBADSCHEME');
    },
  );

  it('lets private hosts through with allowPrivateNetworks', async () => {
    const url = new URL('http://localhost.test/');
    expect(await assertPublicUrl(url, { resolve, allowPrivateNetworks: true })).toEqual([
      '127.0.0.1',
    ]);
  });
});

describe('connect-time checks (no DNS rebinding between check and connect)', () => {
  it('checks the answer the connection uses, not an earlier one', async () => {
    // First answer passes (the exempted fixture address), the next one rebinds to 10.0.0.1.
    const answers = [['127.0.0.1'], ['10.0.0.1']];
    const resolve = async () => answers.shift() ?? [];
    const policy = { resolve, allowAddresses: ['127.0.0.1'] };
    await assertPublicUrl(new URL(`http://rebind.test:${port}/`), policy);
    const client = createHttpClient(policy);
    try {
      await expect(client.request(`http://rebind.test:${port}/`)).rejects.toMatchObject({
        code: 'EREFUSEDADDRESS',
        address: '10.0.0.1',
      });
    } finally {
      await client.close();
    }
  });

  it('resolves once per connection, and kept-alive requests reuse the checked socket', async () => {
    let lookups = 0;
    const client = createHttpClient({
      resolve: async () => {
        lookups++;
        return ['127.0.0.1'];
      },
      allowAddresses: ['127.0.0.1'],
    });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await client.request(`http://public.test:${port}/`);
        for await (const _chunk of res.body) {
          // drain
        }
      }
      expect(lookups).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('the undici connector refuses IP literals itself (Node skips lookup for them)', async () => {
    const connect = createSafeConnector({});
    const error = await new Promise<Error | null>((resolve) => {
      connect(
        { hostname: '127.0.0.1', host: `127.0.0.1:${port}`, protocol: 'http:', port: String(port) },
        (err, socket) => {
          socket?.destroy();
          resolve(err);
        },
      );
    });
    expect(error).toMatchObject({ code: 'EREFUSEDADDRESS', reason: 'loopback' });
    const ipv6 = await new Promise<Error | null>((resolve) => {
      connect({ hostname: '::1', protocol: 'http:', port: String(port) }, (err, socket) => {
        socket?.destroy();
        resolve(err);
      });
    });
    expect(ipv6).toMatchObject({ code: 'EREFUSEDADDRESS', reason: 'loopback' });
  });
});
