import { resolverFromHosts, type HostsTable, type SafeLookupOptions } from '@mirror/engine';

/**
 * The engine's address policy as plain data, for a sandboxed run in another process (a resolver
 * function cannot cross to it).
 */
export interface NetSettings {
  allowPrivateNetworks: boolean;
  /** TEST-ONLY: exact addresses exempt from the policy. */
  allowAddresses?: string[];
  /** TEST-ONLY: names and their answers instead of DNS (see `resolverFromHosts`). */
  hosts?: HostsTable;
}

/** The engine's options for a policy given as data. */
export function safeLookupOptions(net: NetSettings): SafeLookupOptions {
  return {
    allowPrivateNetworks: net.allowPrivateNetworks,
    ...(net.allowAddresses ? { allowAddresses: net.allowAddresses } : {}),
    ...(net.hosts ? { resolve: resolverFromHosts(net.hosts) } : {}),
  };
}
