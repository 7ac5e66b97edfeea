import dgram from 'node:dgram';
import { isIPv6 } from 'node:net';

/**
 * A tiny authoritative DNS server on 127.0.0.1 (UDP) for tests: the domain checks ask it through
 * node's own resolver (DNS_SERVERS), so the real lookups run. It answers A, AAAA, CNAME, TXT, CAA
 * and SOA from records the test sets, follows CNAME chains inside its data the way a recursive
 * resolver does, and says NXDOMAIN for names it knows nothing about. TTLs are 0: nothing is cached.
 */

export interface CaaRecord {
  flags?: number;
  tag: 'issue' | 'issuewild' | 'iodef';
  value: string;
}

export interface DnsNode {
  A?: string[];
  AAAA?: string[];
  CNAME?: string;
  /** Each record is one string or its character-strings. */
  TXT?: (string | string[])[];
  CAA?: CaaRecord[];
  /** Marks a zone apex. */
  SOA?: boolean;
}

export interface TestDnsServer {
  /** `127.0.0.1:port`, for DNS_SERVERS. */
  address: string;
  /** Sets the records of a name (replacing the types given, keeping the others). */
  set(name: string, records: DnsNode): void;
  /** Forgets a name or some of its record types. */
  remove(name: string, types?: (keyof DnsNode)[]): void;
  /** Names and types asked so far. */
  readonly queries: { name: string; type: string }[];
  /** While true, queries go unanswered (DNS that cannot be reached: the resolver times out). */
  silent: boolean;
  close(): Promise<void>;
}

const TYPES = { A: 1, NS: 2, CNAME: 5, SOA: 6, TXT: 16, AAAA: 28, CAA: 257 } as const;
const TYPE_NAMES = new Map<number, string>(Object.entries(TYPES).map(([k, v]) => [v, k]));

function encodeName(name: string): Buffer {
  const parts = name
    .replace(/\.$/, '')
    .split('.')
    .filter((label) => label !== '');
  return Buffer.concat([
    ...parts.map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label)])),
    Buffer.from([0]),
  ]);
}

/** Reads the (uncompressed) question name at `offset`. */
function readName(message: Buffer, offset: number): { name: string; next: number } {
  const labels: string[] = [];
  let at = offset;
  for (;;) {
    const length = message[at]!;
    if (length === 0) return { name: labels.join('.').toLowerCase(), next: at + 1 };
    labels.push(message.subarray(at + 1, at + 1 + length).toString('latin1'));
    at += 1 + length;
  }
}

function ipv6Bytes(address: string): Buffer {
  const [head, tail] = address.split('::') as [string, string | undefined];
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - headParts.length - tailParts.length).fill('0');
  const groups = [...headParts, ...fill, ...tailParts];
  const out = Buffer.alloc(16);
  groups.forEach((group, i) => out.writeUInt16BE(parseInt(group, 16), i * 2));
  return out;
}

function characterStrings(value: string | string[]): Buffer {
  const chunks = Array.isArray(value) ? value : [value];
  return Buffer.concat(
    chunks.map((chunk) => Buffer.concat([Buffer.from([chunk.length]), Buffer.from(chunk)])),
  );
}

function rdataOf(type: number, value: unknown, zone: string): Buffer {
  switch (type) {
    case TYPES.A:
      return Buffer.from((value as string).split('.').map(Number));
    case TYPES.AAAA:
      return ipv6Bytes(value as string);
    case TYPES.CNAME:
      return encodeName(value as string);
    case TYPES.TXT:
      return characterStrings(value as string | string[]);
    case TYPES.CAA: {
      const caa = value as CaaRecord;
      return Buffer.concat([
        Buffer.from([caa.flags ?? 0, caa.tag.length]),
        Buffer.from(caa.tag),
        Buffer.from(caa.value),
      ]);
    }
    case TYPES.SOA: {
      const numbers = Buffer.alloc(20);
      [1, 3600, 600, 86400, 60].forEach((n, i) => numbers.writeUInt32BE(n, i * 4));
      return Buffer.concat([encodeName(`ns1.${zone}`), encodeName(`hostmaster.${zone}`), numbers]);
    }
    default:
      return Buffer.alloc(0);
  }
}

function record(name: string, type: number, rdata: Buffer): Buffer {
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(type, 0);
  fixed.writeUInt16BE(1, 2); // class IN
  fixed.writeUInt32BE(0, 4); // TTL 0: never cached
  fixed.writeUInt16BE(rdata.length, 8);
  return Buffer.concat([encodeName(name), fixed, rdata]);
}

function valuesOf(node: DnsNode, type: number): unknown[] {
  switch (type) {
    case TYPES.A:
      return node.A ?? [];
    case TYPES.AAAA:
      return node.AAAA ?? [];
    case TYPES.CNAME:
      return node.CNAME ? [node.CNAME] : [];
    case TYPES.TXT:
      return node.TXT ?? [];
    case TYPES.CAA:
      return node.CAA ?? [];
    case TYPES.SOA:
      return node.SOA ? [true] : [];
    default:
      return [];
  }
}

/** Listens on a free port, or on `port` when given (a fixed port a server started earlier asks). */
export async function startDnsServer(options: { port?: number } = {}): Promise<TestDnsServer> {
  const zone = new Map<string, DnsNode>();
  const queries: { name: string; type: string }[] = [];
  const socket = dgram.createSocket('udp4');

  function exists(name: string): boolean {
    if (zone.has(name)) return true;
    for (const known of zone.keys()) if (known.endsWith(`.${name}`)) return true;
    return false;
  }

  function answer(query: Buffer): Buffer | null {
    if (query.length < 12) return null;
    const { name, next } = readName(query, 12);
    const type = query.readUInt16BE(next);
    queries.push({ name, type: TYPE_NAMES.get(type) ?? String(type) });
    const question = query.subarray(12, next + 4);
    const answers: Buffer[] = [];
    let owner = name;
    for (let hops = 0; hops < 8; hops++) {
      const node = zone.get(owner);
      if (!node) break;
      if (node.CNAME && type !== TYPES.CNAME) {
        answers.push(record(owner, TYPES.CNAME, encodeName(node.CNAME)));
        owner = node.CNAME.toLowerCase().replace(/\.$/, '');
        continue;
      }
      for (const value of valuesOf(node, type)) {
        answers.push(record(owner, type, rdataOf(type, value, owner)));
      }
      break;
    }
    const header = Buffer.alloc(12);
    header.writeUInt16BE(query.readUInt16BE(0), 0); // id
    const recursionDesired = query[2]! & 0x01;
    header[2] = 0x80 | 0x04 | recursionDesired; // response, authoritative
    header[3] = 0x80 | (answers.length === 0 && !exists(name) ? 3 : 0); // RA, NXDOMAIN or NOERROR
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    return Buffer.concat([header, question, ...answers]);
  }

  const server: TestDnsServer = {
    address: '',
    queries,
    silent: false,
    set(name, records) {
      const key = name.toLowerCase().replace(/\.$/, '');
      for (const address of records.AAAA ?? []) {
        if (!isIPv6(address)) throw new Error(`not an IPv6 address: ${address}`);
      }
      zone.set(key, { ...zone.get(key), ...records });
    },
    remove(name, types) {
      const key = name.toLowerCase().replace(/\.$/, '');
      if (!types) {
        zone.delete(key);
        return;
      }
      const node = { ...zone.get(key) };
      for (const type of types) delete node[type];
      zone.set(key, node);
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };

  socket.on('message', (message, remote) => {
    if (server.silent) return;
    let reply: Buffer | null = null;
    try {
      reply = answer(message);
    } catch {
      reply = null;
    }
    if (reply) socket.send(reply, remote.port, remote.address);
  });

  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(options.port ?? 0, '127.0.0.1', () => {
      socket.off('error', reject);
      resolve();
    });
  });
  const port = socket.address().port;

  server.address = `127.0.0.1:${port}`;
  return server;
}
