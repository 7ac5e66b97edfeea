import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/database.js';
import { canonicalHostOf, isApexOf } from './dns-check.js';

/** What the sites host does with a request for an active domain's host. */
export type HostRoute =
  | { kind: 'site'; domainId: string; siteId: string }
  | { kind: 'parked'; domainId: string }
  /** The other one of an apex and its www: sent to the canonical host. */
  | { kind: 'redirect'; to: string };

export interface DomainRegistry {
  /** The route of an active domain's host name (lower case, no port), if any. */
  route(hostname: string): HostRoute | undefined;
  /** Whether the TLS edge may get a certificate for this host name. */
  allowsCertificate(hostname: string): boolean;
  /** Bumped whenever the routes change (callers memoize by it). */
  readonly version: number;
  /** Reloads the routes from the database; listeners hear about actual changes only. */
  refresh(): Promise<void>;
  onChange(listener: () => void): void;
}

interface ActiveRow {
  id: string;
  kind: 'custom' | 'parked';
  domain: string;
  zone: string;
  www_redirect: 'www-to-apex' | 'apex-to-www';
  site_id: string | null;
}

function routesOf(rows: ActiveRow[]): Map<string, HostRoute> {
  const routes = new Map<string, HostRoute>();
  // Companions (the www of an apex) only where no domain of their own claims the name.
  const companions: [string, HostRoute][] = [];
  for (const row of rows) {
    const dns = { domain: row.domain, zone: row.zone, wwwRedirect: row.www_redirect };
    const content: HostRoute | null =
      row.kind === 'parked'
        ? { kind: 'parked', domainId: row.id }
        : row.site_id
          ? { kind: 'site', domainId: row.id, siteId: row.site_id }
          : null;
    if (!content) continue;
    if (!isApexOf(dns)) {
      routes.set(row.domain, content);
      continue;
    }
    // Parked pages stay on the apex; a site follows its owner's www choice.
    const canonical = row.kind === 'parked' ? row.domain : canonicalHostOf(dns);
    const other = canonical === row.domain ? `www.${row.domain}` : row.domain;
    routes.set(canonical, content);
    if (other === row.domain) routes.set(other, { kind: 'redirect', to: canonical });
    else companions.push([other, { kind: 'redirect', to: canonical }]);
  }
  for (const [host, route] of companions) if (!routes.has(host)) routes.set(host, route);
  return routes;
}

function signatureOf(routes: Map<string, HostRoute>): string {
  return JSON.stringify([...routes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Every active domain's hosts, in memory: the sites host routes by it and the TLS `ask` endpoint
 * answers from it, so neither queries the database per request (a flood of unknown names costs a
 * map lookup). Refreshed after every change made in this process and periodically, for changes
 * made by other processes.
 */
export function createDomainRegistry(deps: { db: Db; log?: FastifyBaseLogger }): DomainRegistry {
  let routes = new Map<string, HostRoute>();
  let signature = '[]';
  let version = 0;
  const listeners: (() => void)[] = [];
  let running: Promise<void> | null = null;
  let again = false;

  async function load(): Promise<void> {
    const rows = await deps.db
      .selectFrom('domains')
      .select(['id', 'kind', 'domain', 'zone', 'www_redirect', 'site_id'])
      .where('status', '=', 'active')
      .execute();
    const next = routesOf(rows);
    const nextSignature = signatureOf(next);
    if (nextSignature === signature) return;
    routes = next;
    signature = nextSignature;
    version++;
    for (const listener of listeners) {
      try {
        listener();
      } catch (err) {
        deps.log?.error({ err }, 'domain route listener failed');
      }
    }
  }

  return {
    route: (hostname) => routes.get(hostname),
    allowsCertificate: (hostname) => routes.has(hostname),
    get version() {
      return version;
    },
    async refresh() {
      // One load at a time; a refresh asked for meanwhile runs once more after it.
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        try {
          do {
            again = false;
            await load();
          } while (again);
        } finally {
          running = null;
        }
      })();
      return running;
    },
    onChange(listener) {
      listeners.push(listener);
    },
  };
}
