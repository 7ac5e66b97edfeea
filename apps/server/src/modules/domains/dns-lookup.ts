import { Resolver } from 'node:dns/promises';
import type { Config } from '../../config/env.js';

/** Answers that mean "no such records": the name does not exist, or has none of this type. */
const EMPTY_ANSWERS = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN', 'EBADRESP']);

/** DNS could not be asked (timeout, refused, SERVFAIL): nothing can be concluded from it. */
export class DnsUnreachableError extends Error {
  constructor(
    readonly host: string,
    readonly code: string,
  ) {
    super(`DNS lookup of ${host} failed (${code})`);
    this.name = 'DnsUnreachableError';
  }
}

export interface CaaAnswer {
  critical: number;
  issue?: string;
  issuewild?: string;
  iodef?: string;
}

/** The lookups a domain check makes; every list is empty when the name has no such records. */
export interface DnsLookup {
  cname(host: string): Promise<string[]>;
  a(host: string): Promise<string[]>;
  aaaa(host: string): Promise<string[]>;
  /** Each TXT record with its character-strings joined. */
  txt(host: string): Promise<string[]>;
  caa(host: string): Promise<CaaAnswer[]>;
  /** True when `host` is a zone apex (it has an SOA record), false when not, null when unknown. */
  isZoneApex(host: string): Promise<boolean | null>;
}

const normalize = (name: string) => name.toLowerCase().replace(/\.$/, '');

/**
 * Lookups through node's resolver (c-ares), asking DNS_SERVERS when set and the system's
 * resolvers otherwise. A fresh resolver per check: nothing is cached between checks, so Check Now
 * sees what DNS says now.
 */
export function createDnsLookup(config: Config['domains']): DnsLookup {
  const resolver = new Resolver({ timeout: config.dnsTimeoutMs, tries: 2 });
  if (config.dnsServers.length > 0) resolver.setServers(config.dnsServers);

  async function ask<T>(host: string, query: () => Promise<T[]>): Promise<T[]> {
    try {
      return await query();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
      if (EMPTY_ANSWERS.has(code)) return [];
      throw new DnsUnreachableError(host, code);
    }
  }

  return {
    cname: async (host) => (await ask(host, () => resolver.resolveCname(host))).map(normalize),
    a: (host) => ask(host, () => resolver.resolve4(host)),
    aaaa: async (host) =>
      (await ask(host, () => resolver.resolve6(host))).map((v) => v.toLowerCase()),
    txt: async (host) =>
      (await ask(host, () => resolver.resolveTxt(host))).map((chunks) => chunks.join('')),
    caa: (host) => ask(host, () => resolver.resolveCaa(host) as Promise<CaaAnswer[]>),
    async isZoneApex(host) {
      try {
        await resolver.resolveSoa(host);
        return true;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? '';
        return EMPTY_ANSWERS.has(code) ? false : null;
      }
    },
  };
}
