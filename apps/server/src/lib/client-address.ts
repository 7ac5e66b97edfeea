import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The visitor's address of a request answered outside Fastify (tenant hosts): the first
 * X-Forwarded-For entry when the app sits behind a proxy it trusts (TRUST_PROXY, as Fastify's
 * `request.ip` reads it), else the socket's peer. An IPv4 peer seen through an IPv6 socket
 * (`::ffff:1.2.3.4`) is given as IPv4, so one visitor has one address either way.
 */
export function clientAddressOf(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? req.headers['x-forwarded-for'] : undefined;
  let address = typeof forwarded === 'string' ? forwarded.split(',')[0]!.trim() : '';
  if (address === '') address = req.socket.remoteAddress ?? '';
  if (address.startsWith('::ffff:') && address.includes('.')) address = address.slice(7);
  return address || 'unknown';
}

/**
 * What a per-address count is kept under: an IPv4 address as it is, an IPv6 address by its /64
 * (`2001:db8:1:2::/64`). One subscriber, one host even, gets a whole /64 and can send from any of
 * its 2^64 addresses, so counting single IPv6 addresses counts nothing. IPv4-mapped IPv6 is IPv4;
 * anything that is not an address is kept as it is.
 */
export function addressGroupOf(address: string): string {
  const bare = address.split('%')[0]!;
  if (isIP(bare) === 0) return address;
  const ip = ipaddr.process(bare);
  if (ip.kind() === 'ipv4') return ip.toString();
  const prefix = (ip as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}
