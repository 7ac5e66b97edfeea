import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from '../config/env.js';

/** A started process role: its logger, the address it listens on, and its graceful stop. */
export interface RunningRole {
  log: Pick<Logger, 'info' | 'error'>;
  url: string;
  /** Stops taking requests and jobs, finishes or requeues in-flight work, releases connections. */
  close(): Promise<void>;
}

/**
 * Listens with a bare `node:http` server (the roles without Fastify), logging the address the way
 * Fastify does, and returns a close that lets in-flight requests finish.
 */
export async function listenPlain(
  server: http.Server,
  config: Config,
  log: Pick<Logger, 'info'>,
): Promise<{ url: string; close(): Promise<void> }> {
  // Fastify's defaults: longer than a typical load balancer's idle timeout.
  server.keepAliveTimeout = 72_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: config.host, port: config.port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  log.info(`Server listening at ${url}`);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle keep-alive connections would hold the close open; busy ones finish their request.
        server.closeIdleConnections();
      }),
  };
}

export function sendPlain(res: http.ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ message });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
}
