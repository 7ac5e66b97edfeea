// A server under test for `bench/hosting/run.mjs`, one process or a Node cluster of WORKERS
// processes sharing PORT (how the `sites` role runs on a multi-core machine).
//   MODE=site  Fastify (logger off) routing every request to createSiteServer's handle(), the
//              manifest read from MANIFEST, blobs from the FS store at BLOBS.
//   MODE=node  the same site server behind a bare node:http server (handleNode()).
//   MODE=bare  node:http answering one file from memory (BARE_FILE, BARE_TYPE, BARE_GZIP): the
//              ceiling for any Node server on this machine, as in BENCH-NOTES.
// Prints READY once every worker listens.
import cluster from 'node:cluster';
import fs from 'node:fs';
import http from 'node:http';

const env = process.env;
const workers = Number(env.WORKERS ?? '1');
const port = Number(env.PORT);

if (cluster.isPrimary && workers > 1) {
  let ready = 0;
  let stopping = false;
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on('message', (_worker, message) => {
    if (message === 'ready' && ++ready === workers) console.log('READY');
  });
  cluster.on('exit', (worker, code) => {
    if (stopping) return;
    console.error(`worker ${worker.process.pid} exited with ${code}`);
    process.exit(1);
  });
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} else {
  const server = env.MODE === 'bare' ? await bareServer() : await siteServer(env.MODE === 'node');
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  if (cluster.isWorker) {
    process.send?.('ready');
    // The primary went away: do not outlive it.
    process.on('disconnect', () => process.exit(0));
  } else {
    console.log('READY');
    process.on('SIGTERM', () => process.exit(0));
  }
}

async function siteServer(bare) {
  const { default: Fastify } = await import('fastify');
  const { createSiteServer } = await import(env.SITE_SERVER_MODULE);
  const { createFsBlobStore } = await import(env.ENGINE_MODULE);
  const manifest = JSON.parse(fs.readFileSync(env.MANIFEST, 'utf8'));
  const sites = createSiteServer(
    {
      blobs: createFsBlobStore(env.BLOBS),
      // Any host is the benchmarked site (the real caller asks the database; answers are cached
      // for 2 s by the site server, so this runs a few times per run).
      resolveHost: async () => ({ siteId: 'bench', versionId: 'v1' }),
      loadManifest: async () => manifest,
      // The analytics hook is called on every answer, as in production (here it does nothing).
      recordVisit: () => {},
    },
    { appUrl: 'http://localhost:8080/' },
  );
  if (bare) return http.createServer((req, res) => sites.handleNode(req, res));
  const app = Fastify({ logger: false });
  app.addHook('onRequest', (request, reply) => sites.handle(request, reply));
  await app.ready();
  return app.server;
}

async function bareServer() {
  const body = fs.readFileSync(env.BARE_FILE);
  const gz = fs.readFileSync(env.BARE_GZIP);
  const type = env.BARE_TYPE;
  return http.createServer((req, res) => {
    const useGzip = (req.headers['accept-encoding'] ?? '').includes('gzip');
    const payload = useGzip ? gz : body;
    const head = ['content-type', type, 'content-length', String(payload.length)];
    if (useGzip) head.push('content-encoding', 'gzip');
    res.writeHead(200, head);
    res.end(payload);
  });
}
