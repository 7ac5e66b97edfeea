/**
 * A stored version served on 127.0.0.1 by the sites host's own answering code, exactly as visitors
 * get it, for Chromium in a sandboxed task to render (the fidelity check's copy, the visual diff's
 * two versions). Nothing else is served: the host is always that version.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Manifest } from '@mirror/engine';
import type { SandboxContext } from '../platform/sandbox/sandbox.js';
import { createSiteServer } from './site-server.js';

export interface LocalCopyServer {
  /** `http://127.0.0.1:PORT`: the version's pages at their paths. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `manifests.get(current())` until closed: `current` names the version to serve now (a
 * fidelity check switches to its repaired copy), each name always the same manifest.
 */
export async function serveLocalCopy(
  context: Pick<SandboxContext, 'blobs' | 'log'>,
  manifests: ReadonlyMap<string, Manifest>,
  current: () => string,
): Promise<LocalCopyServer> {
  const siteServer = createSiteServer(
    {
      blobs: context.blobs,
      resolveHost: async () => ({ siteId: 'local-copy', versionId: current(), preview: true }),
      loadManifest: async (versionId) => manifests.get(versionId)!,
    },
    {
      hostCacheTtlMs: 0,
      log: {
        warn: (details, message) => context.log('warn', message, { ...details }),
        error: (details, message) => context.log('error', message, { ...details }),
      },
    },
  );
  const server = http.createServer((req, res) => void siteServer.handleNode(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
