import type { IncomingMessage } from 'node:http';

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
