import path from 'node:path';
import { FIXTURES, serveFixture } from '../../packages/engine/test/fixture-server';

export interface StaticSite {
  /** `http://127.0.0.1:{port}` */
  origin: string;
  close: () => Promise<void>;
}

/**
 * The engine's `basic` fixture (h1 "Mirror fixture") with its `{{CDN}}` assets on a second server,
 * served by the engine tests' own fixture server, as a website for the e2e server to mirror (it runs
 * with MIRROR_ALLOW_PRIVATE_NETWORKS=true).
 */
export async function startFixtureSite(): Promise<StaticSite> {
  const cdn = await serveFixture(path.join(FIXTURES, 'cdn'));
  const site = await serveFixture(path.join(FIXTURES, 'basic'));
  site.vars.CDN = cdn.origin;
  return {
    origin: site.origin,
    close: async () => {
      await Promise.all([site.close(), cdn.close()]);
    },
  };
}
