// A server under test for `bench/hosting/run.mjs`, one process or a Node cluster of WORKERS
// processes sharing PORT.
//   MODE=app   the product itself: each process runs apps/server's entry point, main (SERVER_DIR,
//              ROLE=all by default, or ROLE=sites: the process role that serves tenant sites only,
//              SERVER_EXT), exactly as `npm start` does (configuration from this environment:
//              DATA_DIR, SITES_DOMAIN, APP_URL, HOST, PORT, LOG_LEVEL…), under node:cluster so
//              that WORKERS processes share the port. Before they start, the site SUBDOMAIN is
//              published from MANIFEST (a mirror run's manifest, blobs already in DATA_DIR/blobs)
//              with the server's own database and manifest code. Tenant requests then take the
//              production path: the HTTP server's listener (createSitesFront) → the sites host's
//              handleNode, host from the database (cached), visits counted, answers from memory.
//   MODE=bare  node:http answering one file from memory (BARE_FILE, BARE_TYPE, BARE_GZIP): the
//              ceiling for any Node server on this machine, as in BENCH-NOTES.
// Prints READY once every process listens.
import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const env = process.env;
const workers = Number(env.WORKERS ?? '1');
const port = Number(env.PORT);
const serverModule = (name) => path.join(env.SERVER_DIR ?? '', `${name}.${env.SERVER_EXT ?? 'js'}`);

if (cluster.isPrimary && env.MODE === 'app') await publishBenchSite();

if (cluster.isPrimary && (workers > 1 || env.MODE === 'app')) {
  let ready = 0;
  let stopping = false;
  for (let i = 0; i < workers; i++) cluster.fork();
  const onReady = () => {
    if (++ready === workers) console.log('READY');
  };
  // main() does not say when it listens (below LOG_LEVEL info): the cluster does.
  if (env.MODE === 'app') cluster.on('listening', onReady);
  else cluster.on('message', (_worker, message) => message === 'ready' && onReady());
  cluster.on('exit', (worker, code) => {
    if (stopping) return;
    console.error(`worker ${worker.process.pid} exited with ${code}`);
    process.exit(1);
  });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // Workers close gracefully (main's shutdown talks to this process while it closes its server).
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    const done = () => Object.keys(cluster.workers ?? {}).length === 0 && process.exit(0);
    cluster.on('exit', done);
    done();
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} else if (env.MODE === 'app') {
  // The entry point runs on import: config, tuneProcessForServing, the role (ROLE: all, or sites
  // for the process that serves tenant sites only), listen, signals.
  if (env.ROLE) process.argv.push('--role', env.ROLE);
  await import(serverModule('main'));
  process.on('disconnect', () => process.exit(0));
} else {
  await listen(bareServer());
  if (cluster.isWorker) {
    process.send?.('ready');
    // The primary went away: do not outlive it.
    process.on('disconnect', () => process.exit(0));
  } else {
    console.log('READY');
    process.on('SIGTERM', () => process.exit(0));
  }
}

/** Inserts the site and its live version once (the database is shared by every worker). */
async function publishBenchSite() {
  const { loadConfig } = await import(serverModule('config/env'));
  const { openDatabase } = await import(serverModule('platform/db/database'));
  const { saveManifest } = await import(serverModule('modules/sites/manifests'));
  const { createFsBlobStore } = await import(env.ENGINE_MODULE);
  const config = loadConfig(env);
  const database = await openDatabase(config.database);
  const db = database.db;
  try {
    const existing = await db
      .selectFrom('sites')
      .select('id')
      .where('subdomain', '=', env.SUBDOMAIN)
      .executeTakeFirst();
    if (existing) return;
    const manifest = JSON.parse(fs.readFileSync(env.MANIFEST, 'utf8'));
    const manifestHash = await saveManifest(createFsBlobStore(config.mirror.blobsDir), manifest);
    const now = new Date().toISOString();
    const siteId = randomUUID();
    const versionId = randomUUID();
    await db
      .insertInto('sites')
      .values({
        id: siteId,
        owner_id: null,
        source_url: manifest.startUrl,
        subdomain: env.SUBDOMAIN,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto('site_versions')
      .values({
        id: versionId,
        site_id: siteId,
        number: 1,
        status: 'completed',
        manifest_hash: manifestHash,
        error: null,
        created_at: now,
        finished_at: now,
      })
      .execute();
    await db
      .updateTable('sites')
      .set({ live_version_id: versionId, status: 'completed' })
      .where('id', '=', siteId)
      .execute();
  } finally {
    await database.destroy();
  }
}

function listen(server) {
  return new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
}

function bareServer() {
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
