import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { TestApp } from './test-app.js';

/** The subset of JSON Schema the OpenAPI document uses for bodies, params and queries. */
export interface JsonSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  nullable?: boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  default?: unknown;
}

export interface Parameter {
  in: 'path' | 'query';
  name: string;
  required: boolean;
  schema: JsonSchema;
}

/** One endpoint of the running app, as its OpenAPI document describes it. */
export interface Endpoint {
  method: string;
  /** OpenAPI form: `/api/domains/clone/{id}`. */
  path: string;
  /** `METHOD /path`, for messages. */
  name: string;
  /** No `security` in the document: visitors may call it. */
  isPublic: boolean;
  body: JsonSchema | null;
  params: Parameter[];
}

interface OpenApiOperation {
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/**
 * Every endpoint of the running app, read from its own OpenAPI document (`app.swagger()`), so an
 * endpoint added later is covered without touching the tests. Hidden routes (`/metrics`, the web
 * app's pages) take no input.
 */
export function endpointsOf(app: FastifyInstance): Endpoint[] {
  const doc = app.swagger() as { paths: Record<string, Record<string, OpenApiOperation>> };
  const endpoints: Endpoint[] = [];
  for (const [pathName, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      endpoints.push({
        method: method.toUpperCase(),
        path: pathName,
        name: `${method.toUpperCase()} ${pathName}`,
        isPublic: operation.security === undefined,
        body: operation.requestBody?.content?.['application/json']?.schema ?? null,
        params: operation.parameters ?? [],
      });
    }
  }
  return endpoints;
}

/** `/api/domains/clone/{id}` with its `{…}` replaced by the given (already encoded) segments. */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_match, name: string) => params[name] ?? '');
}

/**
 * What is wrong with an error answer, or null when it has the API's error shape (SPEC §8): a JSON
 * body with exactly one key, `message`, a non-empty text or a list of them, and nothing internal in
 * it (no stack, SQL or file path).
 */
export function errorShapeProblem(res: {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}): string | null {
  if (!/^application\/json/.test(String(res.headers['content-type']))) {
    return `content-type ${String(res.headers['content-type'])}`;
  }
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return 'not JSON';
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'not an object';
  const keys = Object.keys(body).sort().join(',');
  if (keys !== 'message') return `keys ${keys}`;
  const message = (body as { message: unknown }).message;
  const messages = Array.isArray(message) ? message : [message];
  if (messages.length === 0) return 'no message';
  for (const text of messages) {
    if (typeof text !== 'string' || text.trim() === '') return 'empty or non-text message';
    if (/SQLITE|sqlite3|relation "|\bat .+:\d+:\d+|node_modules|\/src\//.test(text)) {
      return 'internal details in the message';
    }
  }
  return null;
}

export function expectErrorShape(
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
  context: string,
): void {
  expect(
    errorShapeProblem(res),
    `${context}: ${res.statusCode} ${res.body.slice(0, 300)}`,
  ).toBeNull();
}

/** A digest of every row of one table, so that an update shows even when the count stays. */
function digest(rows: Record<string, unknown>[]): string {
  const lines = rows.map((row) =>
    JSON.stringify(
      Object.keys(row)
        .sort()
        .map((key) => [key, String(row[key])]),
    ),
  );
  return createHash('sha256').update(lines.sort().join('\n')).digest('hex').slice(0, 16);
}

/**
 * What changes in the store may legitimately change while bad requests are answered:
 * - `rate_limits`: counters of attempts. An endpoint may count a request against its sender's
 *   budget before or regardless of its input (that is the point of a limiter), so the counters are
 *   left out.
 * - `sessions.last_used_at` (and `expires_at`, which slides with it): authenticating a request
 *   touches the caller's session at most once per interval. That is a read of the caller's own
 *   session, not something the bad request wrote.
 * Everything else — users, sites, versions, jobs, domains, payments, … — must read exactly the same.
 */
const VOLATILE: Record<string, 'table' | string[]> = {
  rate_limits: 'table',
  sessions: ['last_used_at', 'expires_at'],
};

export interface StoreSnapshot {
  tables: Record<string, { rows: number; digest: string }>;
  /** Files under DATA_DIR (blobs, uploads) but the database's own. */
  files: string[];
}

function listFiles(dir: string, prefix = ''): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const name = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return listFiles(path.join(dir, entry.name), name);
    return /\.(db|sqlite)(-wal|-shm|-journal)?$/.test(entry.name) ? [] : [name];
  });
}

/** Row counts and row digests of every table of the app's database, and the files it keeps. */
export async function snapshotStore(t: TestApp): Promise<StoreSnapshot> {
  const db = t.app.database.db;
  const schema = t.config.database.kind === 'postgres' ? t.config.database.schema : undefined;
  const tables = (await db.introspection.getTables({ withInternalKyselyTables: true })).filter(
    (table) => t.app.database.dialect === 'sqlite' || table.schema === (schema ?? 'public'),
  );
  const result: StoreSnapshot['tables'] = {};
  for (const table of tables) {
    const volatile = VOLATILE[table.name];
    if (volatile === 'table') continue;
    const { rows } = await sql<
      Record<string, unknown>
    >`select * from ${sql.table(table.name)}`.execute(db);
    const kept = rows.map((row) =>
      Object.fromEntries(Object.entries(row).filter(([key]) => !volatile?.includes(key))),
    );
    result[table.name] = { rows: rows.length, digest: digest(kept) };
  }
  return { tables: result, files: listFiles(t.config.dataDir).sort() };
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One request over a real socket with node:http, which sends the Host header and the path exactly
 * as given (fetch() drops a Host header and normalizes paths). Bounded in time.
 */
export function rawRequest(
  port: number,
  options: {
    method?: string;
    path: string;
    headers?: http.OutgoingHttpHeaders;
    body?: Buffer | string;
    /** Write the body in pieces without a content-length (chunked). */
    chunked?: boolean;
  },
  timeoutMs = 10_000,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
        timeout: timeoutMs,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    // The server may answer (413) and close before the whole body is sent: that is an answer.
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err);
    });
    if (options.body !== undefined && options.chunked) {
      const body = Buffer.from(options.body);
      const piece = 64 * 1024;
      for (let offset = 0; offset < body.length; offset += piece) {
        req.write(body.subarray(offset, offset + piece));
      }
      req.end();
    } else {
      req.end(options.body);
    }
  });
}
