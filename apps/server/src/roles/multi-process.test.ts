import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.js';
import { openDatabase } from '../platform/db/database.js';
import { SERVICE_ENV } from '../test/api-helpers.js';
import { startFixtureSite, type FixtureSite } from '../test/fixture-site.js';
import { spawnServer } from '../test/spawn-server.js';
import { dropTestStorage, sharedServicesEnv, waitFor } from '../test/test-app.js';

/**
 * One deployment of several processes on loopback, as in production: one api, two workers and one
 * sites process sharing the database, the job queue and the blob store (SQLite and local files by
 * default; PostgreSQL, Redis and S3 in the service run of .ci/run). Twenty mirrors asked of the
 * api at once are run by the workers and served by the sites process.
 */
const MIRRORS = 20;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-deployment-'));
const env = {
  DATA_DIR: dataDir,
  ...SERVICE_ENV,
  RATE_LIMIT_FACTOR: '1000',
  JOB_CONCURRENCY: '3',
  JOB_LEASE_MS: '5000',
  VERSION_THUMBNAILS: 'false',
  FIDELITY_CHECKS: 'false',
  ...sharedServicesEnv(),
};
const processes: ReturnType<typeof spawnServer>[] = [];
const fixtures: FixtureSite[] = [];

function start(role: string) {
  const child = spawnServer(env, ['--role', role]);
  processes.push(child);
  return child;
}

/** What `request` answers: the status, the body as text, and the head. */
interface Answer {
  status: number;
  text: string;
  headers: http.IncomingHttpHeaders;
}

/** A request with any Host header (fetch would drop it). */
function request(
  port: string,
  pathname: string,
  init: { host?: string; method?: string; headers?: Record<string, string>; body?: unknown } = {},
) {
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        method: init.method ?? 'GET',
        headers: {
          host: init.host ?? `localhost:${port}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...init.headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `mirror-site` runs a worker completed, from its Prometheus metrics. */
async function mirrorsCompletedBy(port: string): Promise<number> {
  const { text } = await request(port, '/metrics', { host: `127.0.0.1:${port}` });
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('mirror_job_duration_seconds_count{') &&
        l.includes('job="mirror-site"') &&
        l.includes('outcome="completed"'),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

let apiPort: string;
let workerPorts: string[];
let sitesPort: string;

beforeAll(async () => {
  for (let i = 0; i < 4; i++) fixtures.push(await startFixtureSite(3));
  // All at once on a fresh database, as systemd starts them.
  const ports = await Promise.all(
    ['api', 'sites', 'worker', 'worker'].map((role) => start(role).port),
  );
  apiPort = ports[0]!;
  sitesPort = ports[1]!;
  workerPorts = ports.slice(2);
}, 60_000);

afterAll(async () => {
  await Promise.all(
    processes.map(async (p) => {
      if (p.child.exitCode === null) {
        p.child.kill('SIGTERM');
        await p.exited;
      }
    }),
  );
  await Promise.all(fixtures.map((f) => f.close()));
  await dropTestStorage(loadConfig(env));
}, 30_000);

describe('a deployment of one api, two workers and one sites process', () => {
  it(`runs ${MIRRORS} concurrent mirrors on the workers and serves them from the sites process`, async () => {
    const registered = await request(apiPort, '/api/auth/register', {
      method: 'POST',
      body: {
        name: 'Agency Owner',
        // A retry of this test signs up again on the same database.
        email: `agency-${Date.now()}@example.com`,
        password: 'a long password',
      },
    });
    expect(registered.status).toBe(201);
    const { token, user } = JSON.parse(registered.text) as { token: string; user: { id: string } };
    // Unlimited mirrors (as the billing webhook would set the plan).
    const database = await openDatabase(loadConfig(env).database);
    await database.db
      .updateTable('users')
      .set({ plan: 'agency' })
      .where('id', '=', user.id)
      .execute();
    await database.destroy();
    const auth = { authorization: `Bearer ${token}` };
    // Counted from here: a retry runs on the same processes, whose metrics count the first try.
    const completedBefore = await Promise.all(workerPorts.map(mirrorsCompletedBy));

    const created = await Promise.all(
      Array.from({ length: MIRRORS }, async (_, i) => {
        const res = await request(apiPort, '/api/domains/clone', {
          method: 'POST',
          headers: auth,
          body: { sourceUrl: fixtures[i % fixtures.length]!.url },
        });
        expect(res.status, res.text).toBe(201);
        return JSON.parse(res.text) as { id: string; previewUrl: string };
      }),
    );

    const statuses = await waitFor(async () => {
      const all = await Promise.all(
        created.map(
          async ({ id }) =>
            JSON.parse(
              (await request(apiPort, `/api/domains/clone/${id}/status`, { headers: auth })).text,
            ) as { status: string; error: string | null },
        ),
      );
      return all.every((s) => s.status === 'completed' || s.status === 'failed') ? all : undefined;
    }, 120_000);
    expect(statuses.filter((s) => s.status !== 'completed')).toEqual([]);

    // Every copy is served by the sites process, by its own host name.
    for (const { previewUrl } of created) {
      const page = await request(sitesPort, '/', { host: new URL(previewUrl).hostname });
      // The answer's head, in the message: an empty 200 was seen once in the service matrix.
      const seen = `${previewUrl}: ${page.status} ${JSON.stringify(page.headers)}`;
      expect(page.status, seen).toBe(200);
      expect(page.text, seen).toContain('Version 1');
    }
    // The api ran none of them; both workers ran some.
    const perWorker = (await Promise.all(workerPorts.map(mirrorsCompletedBy))).map(
      (completed, i) => completed - completedBefore[i]!,
    );
    expect(perWorker.reduce((a, b) => a + b, 0)).toBe(MIRRORS);
    expect(Math.min(...perWorker)).toBeGreaterThan(0);
    expect(await mirrorsCompletedBy(apiPort)).toBe(0);
  }, 180_000);
});
