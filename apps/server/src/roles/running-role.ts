import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Probes } from '../platform/ops/probes.js';
import type { Platform } from '../services.js';

/** A started process role: its logger, the address it listens on, and its graceful stop. */
export interface RunningRole {
  log: Pick<Logger, 'info' | 'error'>;
  url: string;
  /** Stops taking requests and jobs, finishes or requeues in-flight work, releases connections. */
  close(): Promise<void>;
}

/**
 * Runs a role without Fastify: listens with its bare `node:http` server, logging the address the
 * way Fastify does. Its close says "unavailable" on `/api/ready`, lets in-flight requests finish,
 * then closes the platform (draining jobs, if the role runs them).
 */
export async function servePlain(
  server: http.Server,
  platform: Platform,
  probes: Probes,
): Promise<RunningRole> {
  const { config, log } = platform;
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
    log,
    url,
    async close() {
      probes.drain();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle keep-alive connections would hold the close open; busy ones finish their request.
        server.closeIdleConnections();
      });
      await platform.close();
    },
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
