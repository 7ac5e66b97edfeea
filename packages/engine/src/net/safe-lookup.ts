/**
 * DNS resolution that enforces the address policy at connect time. The lookup function plugs into
 * `net.connect` / `tls.connect` (and undici's connector), so the address that was checked is the
 * address connected to: a host cannot pass the check with a public address and then rebind to a
 * private one before the socket opens.
 */
import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { classifyAddress, parseHostAsIp } from './address-policy.js';
import { NetError, RefusedAddressError } from './errors.js';

export type Resolve = (hostname: string) => Promise<string[]>;

export interface AddressPolicyOptions {
  /** Opens loopback and private ranges: for tests and self-hosters only, never the default. */
  allowPrivateNetworks?: boolean;
  /**
   * TEST-ONLY seam: exact addresses exempt from the policy (e.g. `['127.0.0.1']` for a fixture
   * server reached through a resolver mapping `public.test` to it), so that everything else —
   * `127.0.0.2`, `10.0.0.1`, names resolving to 169.254.169.254 — is still refused. Never set it
   * from user input; production code leaves it unset.
   */
  allowAddresses?: readonly string[];
}

export interface SafeLookupOptions extends AddressPolicyOptions {
  /** Name resolution handed in (tests map names to addresses); defaults to the system resolver. */
  resolve?: Resolve;
}

const systemResolve: Resolve = async (hostname) =>
  (await dns.lookup(hostname, { all: true })).map((entry) => entry.address);

/**
 * Names and their answers as plain data, for a resolver that must cross a process boundary (a
 * mirror run in its own process). Each name maps to its answers in the order they are given out:
 * the first lookup gets the first list, the next lookup the next, and the last list repeats — so
 * `{ 'rebind.test': [['93.184.216.34'], ['127.0.0.1']] }` is a name that rebinds after one look.
 * Names not listed are not found.
 */
export type HostsTable = Readonly<Record<string, readonly (readonly string[])[]>>;

export function resolverFromHosts(hosts: HostsTable): Resolve {
  const asked = new Map<string, number>();
  return async (hostname) => {
    const name = hostname.toLowerCase().replace(/\.$/, '');
    const answers = hosts[name];
    if (!answers || answers.length === 0) {
      throw new NetError('ENOTFOUND', `No address found for ${hostname}`);
    }
    const turn = asked.get(name) ?? 0;
    asked.set(name, turn + 1);
    return [...answers[Math.min(turn, answers.length - 1)]!];
  };
}

function allowedSet(options: AddressPolicyOptions): Set<string> {
  const set = new Set<string>();
  for (const address of options.allowAddresses ?? []) {
    const ip = parseHostAsIp(address);
    if (ip !== null) set.add(ip);
  }
  return set;
}

/** Compiles a policy into a check that throws RefusedAddressError or returns the normalized IP. */
export function createAddressCheck(
  options: AddressPolicyOptions,
): (host: string, address: string) => string {
  const allowed = allowedSet(options);
  return (host, address) => {
    const ip = parseHostAsIp(address);
    if (ip === null) throw new RefusedAddressError(host, address, 'invalid');
    if (options.allowPrivateNetworks === true || allowed.has(ip)) return ip;
    const verdict = classifyAddress(ip);
    if (verdict !== 'public') throw new RefusedAddressError(host, ip, verdict);
    return ip;
  };
}

/**
 * Resolves a host (an IP literal in any form is taken as is, not resolved) and checks every
 * address: one non-public address refuses the host, whatever the others are.
 */
export function createCheckedResolver(
  options: SafeLookupOptions,
): (host: string) => Promise<string[]> {
  const check = createAddressCheck(options);
  const resolve = options.resolve ?? systemResolve;
  return async (host) => {
    const literal = parseHostAsIp(host);
    if (literal !== null) return [check(host, literal)];
    // A string Node takes for an IP but we cannot read must never reach the resolver.
    if (isIP(host) !== 0) throw new RefusedAddressError(host, host, 'invalid');
    const addresses = await resolve(host);
    if (addresses.length === 0) {
      throw new NetError('ENOTFOUND', `No address found for ${host}`);
    }
    return addresses.map((address) => check(host, address));
  };
}

function familyOf(address: string): 4 | 6 {
  return isIP(address) === 6 ? 6 : 4;
}

function wantedFamily(family: LookupOptions['family']): 0 | 4 | 6 {
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return 0;
}

/**
 * A `lookup` for `net.connect` / `tls.connect` / undici's `connect` options: resolves, refuses
 * with code EREFUSEDADDRESS when any address is not public (unless allowPrivateNetworks), and
 * hands the checked addresses to the socket. Supports `options.all` and `options.family`.
 */
export function createSafeLookup(options: SafeLookupOptions = {}): LookupFunction {
  const resolveChecked = createCheckedResolver(options);
  return (hostname, lookupOptions, callback) => {
    const family = wantedFamily(lookupOptions.family);
    const all = lookupOptions.all === true;
    resolveChecked(hostname).then(
      (addresses) => {
        const entries: LookupAddress[] = addresses
          .map((address) => ({ address, family: familyOf(address) }))
          .filter((entry) => family === 0 || entry.family === family);
        const first = entries[0];
        if (first === undefined) {
          const error = new NetError('ENOTFOUND', `No IPv${family} address found for ${hostname}`);
          callback(error, all ? [] : '');
        } else if (all) {
          callback(null, entries);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, all ? [] : ''),
    );
  };
}

/**
 * Up-front check of a URL: http(s) only, and its host must resolve to public addresses only.
 * Returns the checked addresses. Throws NetError EBADSCHEME or RefusedAddressError
 * ('Refused address: localhost resolves to 127.0.0.1 (loopback)').
 */
export async function assertPublicUrl(
  url: URL,
  options: SafeLookupOptions = {},
): Promise<string[]> {
  assertHttpScheme(url);
  try {
    return await createCheckedResolver(options)(url.hostname);
  } catch (error) {
    if (error instanceof RefusedAddressError && error.url === undefined) {
      throw new RefusedAddressError(error.host, error.address, error.reason, { url: url.href });
    }
    throw error;
  }
}

export function assertHttpScheme(url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new NetError(
      'EBADSCHEME',
      `Refused scheme: ${url.protocol} (only http: and https: URLs can be fetched)`,
      { url: url.href },
    );
  }
}
