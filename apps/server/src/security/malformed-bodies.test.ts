import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type SignedUp } from '../test/api-helpers.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import {
  endpointsOf,
  errorShapeProblem,
  fillPath,
  snapshotStore,
  type Endpoint,
  type JsonSchema,
} from '../test/hostile-helpers.js';

/**
 * Hostile input, part 1: every endpoint of the running app that takes a body, path parameters or a
 * query gets 1,000 generated malformed requests (fast-check) as a signed-in user, and visitors get
 * theirs too. The list of endpoints and their schemas comes from the app's own OpenAPI document, so
 * a new endpoint is covered the day it is added.
 *
 * Every generated request is malformed *by construction*, from the endpoint's schema: a body of the
 * wrong JSON type, a required field missing, a field of a wrong (non-coercible) type, a text over
 * its maximum or under its minimum, a number out of range, a list too long, a value nested
 * thousands deep where a scalar goes — with `__proto__` / `constructor` keys and invalid UTF-8
 * mixed in — or bytes that are not JSON at all, a wrong content type, an empty body. So no request
 * is valid, and the assertions are:
 * - no answer is 5xx;
 * - every answer is a 4xx with the API's error shape `{ message }` (nothing internal in it);
 * - nothing is written: every table reads the same before and after (row counts and a digest of
 *   every row, see `snapshotStore` for the two volatile exceptions), no file appears under DATA_DIR;
 * - Object.prototype is untouched (prototype pollution).
 *
 * The seed is random per run and printed with any failure; HOSTILE_SEED=<n> replays a run.
 * MIRROR_FUZZ_RUNS=<n> sets the requests per endpoint (1,000 by default; `.ci/run` sends a slice of
 * 250 with a new seed each run, as the sweep took a minute of the suite on 2 cores).
 */

const RUNS = Number(process.env.MIRROR_FUZZ_RUNS) || 1_000;
/** Visitors: every run for public endpoints; for signed-in ones the answer is a 401 or a 400. */
const VISITOR_RUNS_SIGNED_IN = 100;
const CONCURRENCY = 25;
const SEED = process.env.HOSTILE_SEED ? Number(process.env.HOSTILE_SEED) : Date.now() % 2 ** 31;
/** Bodies stay under the 1 MiB body limit here; the limit itself is oversize.test.ts's. */
const MAX_EXTRA_CHARS = 200_000;

// ---- values ------------------------------------------------------------------------------------

const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];

/**
 * A value nested `depth` levels deep in objects (arrays of one number would coerce to it). Kept as
 * a marker until `toJsonText` writes it out: stringifying it here would overflow the test's stack.
 */
class Deep {
  constructor(readonly depth: number) {}
}
const deeplyNested = fc
  .oneof(
    { weight: 4, arbitrary: fc.integer({ min: 20, max: 500 }) },
    { weight: 1, arbitrary: fc.integer({ min: 500, max: 10_000 }) },
  )
  .map((depth) => new Deep(depth));

/** JSON text of a generated value, with the deep markers written out. */
function toJsonText(value: unknown): string {
  const text =
    JSON.stringify(value, (_key, v: unknown) =>
      v instanceof Deep ? `\u0000deep${v.depth}\u0000` : v,
    ) ?? 'null';
  return text.replace(
    /"\\u0000deep(\d+)\\u0000"/g,
    (_match, depth: string) => `${'{"a":'.repeat(Number(depth))}1${'}'.repeat(Number(depth))}`,
  );
}

const notNumeric = fc.string({ maxLength: 40 }).filter((s) => Number.isNaN(Number(s)));
const finiteDouble = fc.double({ noNaN: true, noDefaultInfinity: true });
const objectWithKeys = fc.dictionary(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 2 }), {
  minKeys: 1,
  maxKeys: 5,
});

const typeOf = (schema: JsonSchema): JsonSchema['type'] =>
  schema.type ?? (schema.oneOf || schema.anyOf || schema.properties ? 'object' : undefined);

/**
 * Values that the schema refuses whatever its refinements, chosen so that no coercion can rescue
 * them (`z.coerce.number()` turns `true`, `"5"` and `[5]` into numbers, but not an object, a
 * non-numeric text or a list of two). Null when any value would do (`{}` in JSON Schema).
 */
function wrongType(schema: JsonSchema): fc.Arbitrary<unknown> | null {
  const type = typeOf(schema);
  if (type === undefined) return null;
  const numeric = type === 'number' || type === 'integer';
  const options: fc.Arbitrary<unknown>[] = [];
  if (type !== 'string') options.push(numeric ? notNumeric : fc.string({ maxLength: 40 }));
  if (!numeric && type !== 'string' && type !== 'boolean') options.push(finiteDouble);
  if (type === 'string') options.push(finiteDouble, fc.integer());
  if (type !== 'boolean' && !numeric) options.push(fc.boolean());
  if (type !== 'array') {
    options.push(fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 2, maxLength: 5 }));
  }
  if (type !== 'object') options.push(objectWithKeys, deeplyNested);
  if (!schema.nullable) options.push(fc.constant(null));
  if (schema.enum) {
    const allowed = schema.enum;
    options.push(fc.string({ maxLength: 20 }).filter((s) => !allowed.includes(s)));
  }
  return fc.oneof(...options);
}

/** Roughly valid values (not necessarily valid): the surroundings of a defect. */
function plausible(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants) return fc.oneof(...variants.map((variant) => plausible(variant, depth + 1)));
  switch (typeOf(schema)) {
    case 'string':
      return fc.oneof(
        fc.string({ maxLength: Math.min(schema.maxLength ?? 40, 40) }),
        fc.constantFrom(
          'user@example.com',
          'https://example.com',
          'example.com',
          'a long password',
        ),
      );
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return depth > 3
        ? fc.constant([])
        : fc.array(plausible(schema.items ?? {}, depth + 1), { maxLength: 3 });
    case 'object': {
      if (depth > 3 || !schema.properties) return fc.constant({});
      const required = new Set(schema.required ?? []);
      const fields = Object.entries(schema.properties).map(([key, field]) => {
        const entry = plausible(field, depth + 1).map((value): [string, unknown] => [key, value]);
        return required.has(key) ? entry : fc.option(entry, { nil: undefined });
      });
      return fc
        .tuple(...fields)
        .map((entries) =>
          Object.fromEntries(entries.filter((e): e is [string, unknown] => e !== undefined)),
        );
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Values the schema refuses for sure: one defect, at the top or anywhere below. */
function defective(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> | null {
  const options: fc.Arbitrary<unknown>[] = [];
  const wrong = wrongType(schema);
  if (wrong) options.push(wrong);
  const type = typeOf(schema);
  // Mostly a little over, now and then a lot (huge texts cost time to send and parse).
  const filler = fc.oneof(
    { weight: 9, arbitrary: fc.integer({ min: 1, max: 2_000 }) },
    { weight: 1, arbitrary: fc.integer({ min: 2_000, max: MAX_EXTRA_CHARS }) },
  );
  if (type === 'string' && !schema.enum) {
    // No whitespace: `.trim()` must not bring a text back within bounds.
    if (schema.maxLength !== undefined) {
      const max = schema.maxLength;
      options.push(filler.map((n) => 'A'.repeat(max + n)));
    }
    if (schema.minLength !== undefined && schema.minLength > 0) {
      const min = schema.minLength;
      options.push(fc.integer({ min: 0, max: min - 1 }).map((n) => 'A'.repeat(n)));
    }
  }
  if (type === 'integer' || type === 'number') {
    if (schema.minimum !== undefined) {
      const min = schema.minimum;
      options.push(
        fc.constantFrom(min - 1, -1e308, Number.MIN_SAFE_INTEGER - 2),
        fc.integer({ max: min - 1 }),
      );
    }
    if (schema.maximum !== undefined) {
      const max = schema.maximum;
      options.push(fc.constantFrom(max + 1, 1e308, 2 ** 53 + 2), fc.integer({ min: max + 1 }));
    }
    if (type === 'integer') options.push(fc.constantFrom(1.5, 0.000001, 12.25));
  }
  if (type === 'array' && depth < 4) {
    if (schema.maxItems !== undefined) {
      const max = schema.maxItems;
      options.push(
        fc
          .integer({ min: max + 1, max: max + 50 })
          .map((n) => Array.from({ length: n }, () => 'a')),
      );
    }
    const item = schema.items ? defective(schema.items, depth + 1) : null;
    if (item) {
      options.push(
        fc
          .tuple(fc.array(plausible(schema.items!, depth + 1), { maxLength: 2 }), item)
          .map(([rest, bad]) => [...rest, bad]),
      );
    }
  }
  if (type === 'object' && depth < 4 && schema.properties && !schema.oneOf && !schema.anyOf) {
    const whole = plausible(schema, depth) as fc.Arbitrary<Record<string, unknown>>;
    for (const key of schema.required ?? []) {
      options.push(whole.map(({ [key]: _dropped, ...rest }) => rest));
    }
    for (const [key, field] of Object.entries(schema.properties)) {
      const bad = defective(field, depth + 1);
      if (bad)
        options.push(fc.tuple(whole, bad).map(([rest, value]) => ({ ...rest, [key]: value })));
    }
  }
  return options.length > 0 ? fc.oneof(...options) : null;
}

// ---- requests ----------------------------------------------------------------------------------

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

/** Adds a key (prototype-pollution names, invalid UTF-8) at the start of a JSON object's text. */
function withKey(json: string, keyText: string, valueText: string): string {
  if (!json.startsWith('{')) return json;
  return json === '{}' ? `{${keyText}:${valueText}}` : `{${keyText}:${valueText},${json.slice(1)}`;
}

const pollutedValue = fc.constantFrom(
  '{"polluted":"yes"}',
  '{"prototype":{"polluted":"yes"}}',
  '"yes"',
  '{"isAdmin":true,"role":"admin"}',
);

/** JSON text of a defective body, sometimes with a pollution key or a key of invalid UTF-8. */
function jsonOf(bad: fc.Arbitrary<unknown>): fc.Arbitrary<Buffer> {
  return fc
    .tuple(
      bad,
      fc.option(fc.tuple(fc.constantFrom(...POLLUTION_KEYS), pollutedValue), { freq: 2 }),
      fc.boolean(),
    )
    .map(([value, pollution, invalidUtf8]) => {
      let text = toJsonText(value);
      if (pollution) text = withKey(text, JSON.stringify(pollution[0]), pollution[1]);
      const buffer = Buffer.from(text, 'utf8');
      if (!invalidUtf8 || !text.startsWith('{')) return buffer;
      // `{"\xC0\xAE\xFF":1, …}`: an overlong dot and a byte that is never UTF-8, in a key.
      const key = Buffer.from([0x22, 0xc0, 0xae, 0xff, 0x22, 0x3a, 0x31]);
      const rest = buffer.subarray(1);
      return Buffer.concat([
        Buffer.from('{'),
        key,
        rest.length > 1 ? Buffer.from(',') : Buffer.alloc(0),
        rest,
      ]);
    });
}

/** Bytes that are not JSON at all (even after a BOM is dropped and bad UTF-8 replaced). */
const notJson = fc
  .oneof(
    fc.uint8Array({ minLength: 1, maxLength: 2_000 }).map((bytes) => Buffer.from(bytes)),
    fc
      .constantFrom(
        '{"a":',
        "{'a':1}",
        '{"a":1}}',
        'NaN',
        'undefined',
        '{"a":01}',
        '[1,]',
        '\u0000',
        '{"__proto__":',
        `${'['.repeat(100_000)}`,
      )
      .map((text) => Buffer.from(text)),
    fc.constant(Buffer.from([0xc0, 0xae, 0xc0, 0xae, 0x2f])),
    fc.constant(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"a":1}', 'utf16le')])),
  )
  .filter((buffer) => {
    try {
      JSON.parse(buffer.toString('utf8').replace(/^\uFEFF/, ''));
      return false;
    } catch {
      return true;
    }
  });

const JSON_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=iso-8859-1',
];
const OTHER_TYPES = [
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----x',
  'application/xml',
  'application/octet-stream',
  'application/json-patch+json',
  'text/json',
  'image/png',
];

/** A body that is wrong for `schema`, sent in one of many wrong ways. */
function badBody(schema: JsonSchema | null): fc.Arbitrary<{ type?: string; payload?: Buffer }> {
  const bad = schema ? defective(schema) : null;
  const options: fc.WeightedArbitrary<{ type?: string; payload?: Buffer }>[] = [
    {
      weight: 2,
      arbitrary: fc.record({ type: fc.constantFrom(...JSON_TYPES), payload: notJson }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        type: fc.constantFrom(...OTHER_TYPES),
        payload: fc.oneof(bad ? jsonOf(bad) : notJson, notJson),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ type: 'application/json', payload: Buffer.alloc(0) }) },
  ];
  if (bad) {
    options.push({
      weight: 12,
      arbitrary: fc.record({ type: fc.constantFrom(...JSON_TYPES), payload: jsonOf(bad) }),
    });
  }
  return fc.oneof(...options);
}

/** A path parameter: malformed for its schema, or just random, as URL text (raw or encoded). */
function badParam(schema: JsonSchema): fc.Arbitrary<string> {
  const bad = defective(schema);
  // `.` and `..` (also as %2e) are not a parameter: they move to another route.
  return fc
    .oneof(
      {
        weight: 4,
        arbitrary: (bad ?? fc.string()).map((v) =>
          encodeURIComponent(typeof v === 'string' ? v : toJsonText(v)),
        ),
      },
      {
        weight: 2,
        arbitrary: fc.string({ unit: 'binary', maxLength: 100 }).map(encodeURIComponent),
      },
      { weight: 1, arbitrary: fc.uuid() },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          '%',
          '%zz',
          '%00',
          '%c0%ae%c0%ae',
          '..%2f..%2fetc%2fpasswd',
          '..%5c..%5c',
          '%u002e',
          'a%0d%0aset-cookie:%20x=1',
          '%ff%fe',
          `${'A'.repeat(5_000)}`,
          '__proto__',
          'constructor',
          '%E2%80%AE',
          '%F0%9F%98%80',
        ),
      },
    )
    .filter((segment) => !/^(?:\.|%2e){1,2}$/i.test(segment));
}

/**
 * A query that is malformed for its parameters. A query value is always text, so a wrong JSON type
 * is no defect here: a value out of its list or over its length is, and so is a repeated key (the
 * parser makes a list of it, which a single value's schema refuses). Bracket and pollution keys
 * come on top.
 */
function badQuery(params: Endpoint['params']): fc.Arbitrary<string> {
  const query = params.filter((p) => p.in === 'query');
  const text = (name: string, value: string) => `${name}=${encodeURIComponent(value)}`;
  return fc
    .tuple(
      ...query.map((param) => {
        const { schema } = param;
        const name = encodeURIComponent(param.name);
        const defects: fc.Arbitrary<string>[] = [
          fc
            .tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }))
            .map(([a, b]) => `${text(name, a)}&${text(name, b)}`),
        ];
        if (schema.enum) {
          const allowed = schema.enum;
          defects.push(
            fc
              .string({ unit: 'binary', maxLength: 30 })
              .filter((v) => !allowed.includes(v))
              .map((v) => text(name, v)),
          );
        }
        if (schema.maxLength !== undefined) {
          const max = schema.maxLength;
          defects.push(
            fc.integer({ min: 1, max: 5_000 }).map((n) => text(name, 'A'.repeat(max + n))),
          );
        }
        return defects.length > 1 ? fc.oneof(...defects) : defects[0]!;
      }),
      fc.option(
        fc.constantFrom(
          '__proto__[polluted]=1',
          'constructor[prototype][polluted]=1',
          '%=%',
          'x[]=1&x[__proto__][polluted]=1',
        ),
      ),
    )
    .map((parts) => parts.filter(Boolean).join('&'));
}

function requestsFor(
  endpoint: Endpoint,
  auth: fc.Arbitrary<Record<string, string>>,
  knownIds: string[],
): fc.Arbitrary<Sent> {
  const pathParams = endpoint.params.filter((p) => p.in === 'path');
  const hasQuery = endpoint.params.some((p) => p.in === 'query');
  // With a body to break, parameters are well formed (the caller's own ids among them), so the
  // body is what is judged. Without one, the parameters themselves are the malformed input.
  const paramArb = (schema: JsonSchema) =>
    endpoint.body
      ? fc.oneof(fc.uuid(), ...(knownIds.length ? [fc.constantFrom(...knownIds)] : []))
      : badParam(schema);
  const body = endpoint.body ? badBody(endpoint.body) : fc.constant(undefined);
  return fc
    .tuple(
      fc.tuple(...pathParams.map((p) => paramArb(p.schema))),
      hasQuery ? badQuery(endpoint.params) : fc.constant(''),
      body,
      auth,
    )
    .map(([values, query, sentBody, headers]) => {
      const params = Object.fromEntries(pathParams.map((p, i) => [p.name, values[i]!]));
      const url = `${fillPath(endpoint.path, params)}${query ? `?${query}` : ''}`;
      return {
        method: endpoint.method,
        url,
        headers: {
          ...headers,
          ...(sentBody?.type ? { 'content-type': sentBody.type } : {}),
        },
        ...(sentBody?.payload !== undefined ? { payload: sentBody.payload } : {}),
      };
    });
}

// ---- the suite ---------------------------------------------------------------------------------

let t: TestApp;
let user: SignedUp;
let knownIds: string[] = [];

beforeAll(async () => {
  // Limits raised so that validation, not a limiter, answers (a 429 would be fine, but says less).
  t = await createTestApp({ RATE_LIMIT_FACTOR: '1000' }, { runJobs: false });
  user = await signUp(t, 'pro');
  // The caller owns a site and a parked domain: malformed updates of real resources change nothing.
  const site = await t.app.inject({
    method: 'POST',
    url: '/api/domains/clone',
    headers: user.headers,
    payload: { sourceUrl: 'https://hostile-fixture.example.com' },
  });
  expect(site.statusCode).toBe(201);
  const parked = await t.app.inject({
    method: 'POST',
    url: '/api/domains/park',
    headers: user.headers,
    payload: { domain: 'hostile-fixture.com' },
  });
  expect(parked.statusCode).toBe(201);
  knownIds = [site.json().id as string, parked.json().id as string];
}, 30_000);

afterAll(async () => {
  await t?.close();
});

/**
 * Endpoints that read their body raw, so the document shows no JSON schema for it: Stripe's
 * webhook keeps the bytes for the signature check.
 */
const RAW_BODY = new Set(['POST /api/payments/webhook']);

/** Endpoints with some input to break, read from the running app. */
function endpointsWithInput(): Endpoint[] {
  return endpointsOf(t.app)
    .map((e) => (RAW_BODY.has(e.name) ? { ...e, body: {} } : e))
    .filter((e) => e.body !== null || e.params.length > 0);
}

const junkToken = fc.oneof(
  fc.string({ maxLength: 300 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
  fc.constantFrom(
    'Bearer',
    'Bearer ',
    'Basic YTpi',
    `Bearer ${'x'.repeat(250)}`,
    'Bearer ../../etc',
  ),
);

/**
 * Sends the requests (a few at a time) and returns what went wrong, one example per kind of
 * problem, so one run shows every distinct failure instead of the first.
 */
async function runAll(endpoint: Endpoint, requests: Sent[], who: string): Promise<string[]> {
  const problems = new Map<string, string>();
  const before = await snapshotStore(t);
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
  for (let i = 0; i < requests.length; i += CONCURRENCY) {
    const batch = requests.slice(i, i + CONCURRENCY);
    const answers = await Promise.all(batch.map((sent) => t.app.inject(sent)));
    answers.forEach((res, j) => {
      const problem =
        res.statusCode >= 500
          ? 'server error'
          : res.statusCode < 400
            ? 'accepted'
            : errorShapeProblem(res);
      if (problem === null) return;
      const key = `${endpoint.name} as ${who}: ${res.statusCode} ${problem}`;
      if (problems.has(key)) return;
      const sent = batch[j]!;
      const payload = sent.payload === undefined ? '' : sent.payload.toString('utf8').slice(0, 200);
      problems.set(
        key,
        `${key}\n    ${sent.method} ${sent.url.slice(0, 200)} ${JSON.stringify(sent.headers['content-type'] ?? '')} ${JSON.stringify(payload)}\n    → ${res.body.slice(0, 300)}`,
      );
    });
  }
  const found = [...problems.values()];
  if (Object.getOwnPropertyNames(Object.prototype).sort().join() !== prototypeKeys.join()) {
    found.push(`${endpoint.name} as ${who}: Object.prototype changed`);
  }
  if (({} as Record<string, unknown>).polluted !== undefined) {
    found.push(`${endpoint.name} as ${who}: objects are polluted`);
  }
  const after = await snapshotStore(t);
  for (const table of new Set([...Object.keys(before.tables), ...Object.keys(after.tables)])) {
    const was = before.tables[table];
    const is = after.tables[table];
    if (JSON.stringify(was) !== JSON.stringify(is)) {
      found.push(
        `${endpoint.name} as ${who}: wrote to ${table} (${was?.rows ?? 0} → ${is?.rows ?? 0} rows)`,
      );
    }
  }
  if (before.files.join() !== after.files.join()) {
    found.push(`${endpoint.name} as ${who}: wrote files under DATA_DIR`);
  }
  return found;
}

describe('malformed requests to every endpoint', () => {
  it('finds the endpoints in the running app', () => {
    const names = endpointsWithInput().map((e) => e.name);
    // A few that must be there: if the document stops listing bodies, this suite would be empty.
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /api/auth/register',
        'POST /api/domains/clone',
        'PUT /api/domains/clone/{id}/customize',
        'POST /api/domains/screenshot',
        'POST /api/payments/subscribe',
        'GET /api/domains/{id}/analytics',
      ]),
    );
    expect(names.length).toBeGreaterThan(30);
  });

  it(`answers ${RUNS} malformed requests per endpoint with a 4xx in the error shape, and writes nothing`, async () => {
    const signedIn = fc.constant(user.headers);
    const visitor = fc.oneof(
      { weight: 3, arbitrary: fc.constant({}) },
      { weight: 1, arbitrary: junkToken.map((authorization) => ({ authorization })) },
    );
    const problems: string[] = [];
    for (const endpoint of endpointsWithInput()) {
      const mine = fc.sample(requestsFor(endpoint, signedIn, knownIds), {
        numRuns: RUNS,
        seed: SEED,
      });
      problems.push(...(await runAll(endpoint, mine, 'a signed-in user')));
      const visits = fc.sample(requestsFor(endpoint, visitor, []), {
        numRuns: endpoint.isPublic ? RUNS : VISITOR_RUNS_SIGNED_IN,
        seed: SEED + 1,
      });
      problems.push(...(await runAll(endpoint, visits, 'a visitor')));
    }
    expect(
      problems,
      `seed ${SEED} (HOSTILE_SEED=${SEED} replays it)\n${problems.join('\n')}`,
    ).toEqual([]);
  }, 240_000);
});
