#!/usr/bin/env node
// npm run bench:forms — form submissions on a hosted copy, through the `sites` role as built
// (issue 34): a small business site with a contact form is mirrored by the app (in this process,
// SQLite and local blobs, as `npm start`), its original is stopped, and a `sites` process on the
// same data answers visitors who submit the form: --count submissions (2,000) from as many
// addresses (X-Forwarded-For, TRUST_PROXY), --concurrency at once (1, 8 and 32 by default), each a
// urlencoded form of four fields as a browser sends it. Printed per concurrency: submissions/s,
// latency p50/p95/p99/max, and answers other than the 303 to the thank-you page; then the bytes a
// submission keeps (its row's fields, and the database file's growth per submission).
// The owner is on Agency (10,000 a month) and the limits per address and site are scaled up
// (RATE_LIMIT_FACTOR), so the run measures taking submissions, not refusing them.
// Options: --count N (2000)  --concurrency 1,8,32  --no-build
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  buildServer,
  deploymentEnv,
  importServer,
  printTable,
  startRole,
  tmpDir,
  waitFor,
} from '../faults/lib.mjs';

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '1,8,32' },
    'no-build': { type: 'boolean', default: false },
  },
});
const count = Number(args.count);
const levels = args.concurrency.split(',').map(Number);
if (!(count > 0 && count <= 20_000) || levels.some((c) => !(c >= 1 && c <= 64)))
  throw new Error('--count must be 1–20,000 and each --concurrency 1–64');
buildServer(args['no-build']);

const CONTACT = `<!doctype html><html lang="en"><head><title>Contact</title></head><body>
<h1>Write to us</h1><form action="/contact.php" method="post">
<label>Name <input name="name" required></label><label>Email <input type="email" name="email" required></label>
<label>Phone <input type="tel" name="phone"></label><label>Message <textarea name="message" required></textarea></label>
<button>Send</button></form><p><a href="/thank-you.html">Thanks</a></p></body></html>`;
const origin = http.createServer((req, res) => {
  const pathname = new URL(req.url ?? '/', 'http://x').pathname;
  if (pathname === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(CONTACT);
  else if (pathname === '/thank-you.html')
    res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Thank you!</h1>');
  else res.writeHead(404).end();
});
await new Promise((resolve) => origin.listen(0, '127.0.0.1', resolve));
const originUrl = `http://127.0.0.1:${origin.address().port}/`;

const dataDir = tmpDir('mirror-bench-forms-');
const env = deploymentEnv(dataDir, {
  RATE_LIMIT_FACTOR: '1000',
  TRUST_PROXY: 'true',
  LOG_LEVEL: 'warn',
});
const { loadConfig } = await importServer('config/env.js');
const { buildApp } = await importServer('app.js');
const app = await buildApp(loadConfig(env));
await app.ready();

const call = async (method, url, payload, headers = {}) => {
  const res = await app.inject({ method, url, payload, headers });
  if (res.statusCode >= 400) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.statusCode === 204 ? null : res.json();
};
const owner = await call('POST', '/api/auth/register', {
  name: 'Bench Owner',
  email: `bench-${Date.now()}@example.com`,
  password: 'a long password',
});
await app.database.db
  .updateTable('users')
  .set({ plan: 'agency' })
  .where('id', '=', owner.user.id)
  .execute();
const auth = { authorization: `Bearer ${owner.token}` };
const site = await call('POST', '/api/domains/clone', { sourceUrl: originUrl }, auth);
await waitFor(
  async () => {
    const { status } = await call('GET', `/api/domains/clone/${site.id}/status`, undefined, auth);
    if (status === 'failed') throw new Error('the mirror failed');
    return status === 'completed' ? true : undefined;
  },
  120_000,
  'the mirror',
);
await new Promise((resolve) => (origin.closeAllConnections(), origin.close(resolve)));
const host = new URL(site.previewUrl).host;

// It says where it listens at the info level.
const sites = await startRole('sites', { ...env, LOG_LEVEL: 'info' });
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

let visitor = 0;
/** One visitor's submission; its latency in ms and status. */
function submit() {
  visitor++;
  const body = new URLSearchParams({
    name: `Visitor ${visitor}`,
    email: `visitor${visitor}@example.net`,
    phone: '+1 555 0100',
    message: `Hello, I would like two loaves on Friday. Order ${visitor}.`,
  }).toString();
  const address = `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}`;
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: sites.port,
        path: '/contact.php',
        method: 'POST',
        agent,
        headers: {
          host,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          'x-forwarded-for': address,
          'sec-fetch-mode': 'navigate',
          referer: `http://${host}/`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            ms: performance.now() - started,
            ok: res.statusCode === 303 && res.headers.location === '/thank-you.html',
            status: res.statusCode,
          }),
        );
      },
    );
    req.on('error', () => resolve({ ms: performance.now() - started, ok: false, status: 0 }));
    req.end(body);
  });
}

async function load(concurrency) {
  const results = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        results.push(await submit());
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(1);
  const failed = results.filter((r) => !r.ok);
  return [
    concurrency,
    results.length,
    (results.length / seconds).toFixed(0),
    at(0.5),
    at(0.95),
    at(0.99),
    ms.at(-1).toFixed(1),
    failed.length === 0 ? '0' : `${failed.length} (${[...new Set(failed.map((f) => f.status))]})`,
  ];
}

// Warm the sites process (its manifest, forms and database statements) with a few submissions.
for (let i = 0; i < 20; i++) await submit();
const dbFile = path.join(dataDir, 'mirror.db');
const sizeOf = () =>
  ['', '-wal']
    .map((suffix) => (fs.existsSync(dbFile + suffix) ? fs.statSync(dbFile + suffix).size : 0))
    .reduce((a, b) => a + b, 0);
await app.database.db
  .executeQuery({ sql: 'pragma wal_checkpoint(truncate)', parameters: [] })
  .catch(() => {});
const sizeBefore = sizeOf();
const rows = [];
for (const concurrency of levels) rows.push(await load(concurrency));
const taken = levels.length * count;
const stored = await app.database.db
  .selectFrom('form_submissions')
  .select((eb) => [eb.fn.countAll().as('n'), eb.fn.avg('bytes').as('avg')])
  .executeTakeFirstOrThrow();
await sites.stop();
await app.database.db
  .executeQuery({ sql: 'pragma wal_checkpoint(truncate)', parameters: [] })
  .catch(() => {});
const growth = (sizeOf() - sizeBefore) / taken;

console.log(
  `\nForm submissions on a hosted copy, sites role (${count} per level, Node ${process.version}, SQLite)\n`,
);
printTable(
  ['at once', 'submissions', 'per s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'not answered 303'],
  rows,
);
console.log(
  `\nkept: ${stored.n} submissions; fields ${Number(stored.avg).toFixed(0)} B each (JSON); database growth ${growth.toFixed(0)} B per submission (row, search text, indexes)`,
);
await app.close();
agent.destroy();
fs.rmSync(dataDir, { recursive: true, force: true });
