import dgram from 'node:dgram';
import {
  startDnsServer,
  type DnsNode,
  type TestDnsServer,
} from '../../apps/server/src/test/dns-server';
import { E2E_PORT } from './server';

/**
 * Domain checks ask DNS through node's resolver. The e2e server is pointed (DNS_E2E_ENV in
 * playwright.config.ts) at a fixed loopback port, where a spec answers with the server tests' own
 * DNS stand-in: it plays the customer's DNS provider, holding the records the app told them to create.
 */
export const E2E_DNS_PORT = Number(process.env.E2E_DNS_PORT ?? E2E_PORT + 12);

/** For the webServer's env in playwright.config.ts. */
export const DNS_E2E_ENV = { DNS_SERVERS: `127.0.0.1:${E2E_DNS_PORT}` };

export interface E2eDns {
  set(name: string, records: DnsNode): void;
  close(): Promise<void>;
}

/**
 * The stand-in listens on a port of its own choosing; a relay on E2E_DNS_PORT hands each query to it
 * and the answer back. While another spec holds the port, this waits for it (up to `waitForPortMs`).
 */
export async function startE2eDns({ waitForPortMs = 20_000 } = {}): Promise<E2eDns> {
  const upstream: TestDnsServer = await startDnsServer();
  const upstreamPort = Number(upstream.address.split(':').pop());
  const relay = dgram.createSocket('udp4');
  relay.on('message', (query, client) => {
    const out = dgram.createSocket('udp4');
    const timer = setTimeout(() => out.close(), 5_000);
    out.once('message', (answer) => {
      clearTimeout(timer);
      relay.send(answer, client.port, client.address, () => out.close());
    });
    out.send(query, upstreamPort, '127.0.0.1');
  });

  const deadline = Date.now() + waitForPortMs;
  for (;;) {
    try {
      await new Promise<void>((resolve, reject) => {
        relay.once('error', reject);
        relay.bind(E2E_DNS_PORT, '127.0.0.1', () => {
          relay.off('error', reject);
          resolve();
        });
      });
      break;
    } catch (error) {
      const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
      if (!inUse || Date.now() > deadline) {
        await upstream.close();
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  return {
    set: (name, records) => upstream.set(name, records),
    close: async () => {
      await new Promise<void>((resolve) => relay.close(() => resolve()));
      await upstream.close();
    },
  };
}
