import { isIP } from 'node:net';

/**
 * Which requests belong to tenant sites rather than the app. Tenant content is never served on the
 * app's own origin (the app keeps its token in localStorage), so this decision comes first.
 */
export function hostnameOf(hostHeader: string | undefined): string {
  if (!hostHeader) return '';
  const host = hostHeader.trim().toLowerCase();
  // [::1]:8080 → ::1 ; example.com:8080 → example.com ; trailing dot of a FQDN dropped
  const bare = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d+$/, '');
  return bare.replace(/\.$/, '');
}

/** The subdomain label when `hostname` is `{label}.{sitesDomain}`, else null. */
export function siteLabelOf(hostname: string, sitesDomain: string): string | null {
  const suffix = `.${sitesDomain}`;
  if (!hostname.endsWith(suffix)) return null;
  const label = hostname.slice(0, -suffix.length);
  return label.length > 0 && !label.includes('.') ? label : null;
}

/**
 * True when a request for `hostname` belongs to a tenant: every host name but the app's own (its
 * URL's host, the loopback names, APP_HOSTS). Subdomains of SITES_DOMAIN, custom and parked domains
 * and unknown names all go to the sites host, which answers the last with "No site here". An IP
 * address is never a tenant (sites are reached by name), so health checks by address reach the app.
 */
export function isTenantHostname(hostname: string, appHosts: readonly string[]): boolean {
  return hostname !== '' && isIP(hostname) === 0 && !appHosts.includes(hostname);
}
