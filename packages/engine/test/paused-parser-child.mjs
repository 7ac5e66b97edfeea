// Run by paused-parser.test.ts in a child process, because what it checks for is a crash no
// test runner survives: undici's `assert(!this.paused)` thrown from a socket event handler
// (undici issue 5360). Servers close, cut or reset the connection while the client reads the body
// slowly, late, partly or not at all; every outcome is checked here, and the process exits 0 only
// when all are as expected. Prints one JSON line: { results: [{ name, ok, detail }] }.
import { createHttpClient } from '../src/net/http-client.ts';
import {
  patternBody,
  selfSignedCertificate,
  sleep,
  startHostileServer,
  write,
} from './hostile-server.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const BIG = patternBody(512 * 1024);
// Just over undici's 64 KiB body buffer: the parser pauses right at the end of the data, the
// moment the FIN (or RST) arrives.
const SMALL = patternBody(70 * 1024);

function chunked(body) {
  const parts = [];
  for (let at = 0; at < body.length; at += 16 * 1024) {
    const part = body.subarray(at, at + 16 * 1024);
    parts.push(Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

/**
 * How each server answers, and what a reader must get: the whole body ('complete'), a NetError
 * ('error'), or either (a reset after a close-delimited body may come after its last byte).
 */
const answers = [
  {
    name: 'http/1.0 close-delimited',
    body: BIG,
    expect: 'complete',
    // python3 -m http.server: HTTP/1.0, no Content-Length, the body ends with the connection.
    script: (socket) => {
      socket.write('HTTP/1.0 200 OK\r\nContent-Type: application/octet-stream\r\n\r\n');
      socket.end(BIG);
    },
  },
  {
    name: 'http/1.0 close-delimited, 70 KiB',
    body: SMALL,
    expect: 'complete',
    script: (socket) => socket.end(Buffer.concat([Buffer.from('HTTP/1.0 200 OK\r\n\r\n'), SMALL])),
  },
  {
    name: 'content-length + close',
    body: BIG,
    expect: 'complete',
    script: (socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${BIG.length}\r\nConnection: close\r\n\r\n`);
      socket.end(BIG);
    },
  },
  {
    name: 'chunked + close',
    body: BIG,
    expect: 'complete',
    script: (socket) => {
      socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n');
      socket.end(Buffer.concat([chunked(BIG), Buffer.from('0\r\n\r\n')]));
    },
  },
  {
    name: 'headers, part of the body, FIN (content-length)',
    expect: 'error',
    script: (socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${BIG.length * 2}\r\n\r\n`);
      socket.end(BIG);
    },
  },
  {
    name: 'headers, part of the body, FIN (content-length + close)',
    expect: 'error',
    script: (socket) => {
      socket.write(
        `HTTP/1.1 200 OK\r\nContent-Length: ${SMALL.length * 2}\r\nConnection: close\r\n\r\n`,
      );
      socket.end(SMALL);
    },
  },
  {
    name: 'headers, part of the body, FIN (chunked + close)',
    expect: 'error',
    script: (socket) => {
      socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n');
      socket.end(chunked(SMALL));
    },
  },
  {
    name: 'content-length, RST mid-body',
    expect: 'error',
    script: async (socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${BIG.length * 2}\r\n\r\n`);
      await write(socket, BIG);
      await sleep(20);
      socket.resetAndDestroy();
    },
  },
  {
    name: 'http/1.0 70 KiB, then RST',
    body: SMALL,
    expect: 'either',
    script: async (socket) => {
      await write(socket, Buffer.concat([Buffer.from('HTTP/1.0 200 OK\r\n\r\n'), SMALL]));
      await sleep(20);
      socket.resetAndDestroy();
    },
  },
];

async function collect(res, pause) {
  const chunks = [];
  try {
    for await (const chunk of res.body) {
      chunks.push(Buffer.from(chunk));
      await sleep(pause);
    }
  } catch (error) {
    return { error: error.code ?? String(error), name: error.name, message: error.message };
  }
  return { body: Buffer.concat(chunks) };
}

/** How the client reads; the readers that read to the end return what they got. */
const readers = {
  // A reader slower than the socket: the parser pauses again and again.
  slow: (res) => collect(res, 5),
  // Not read at first (the whole answer, FIN included, arrives meanwhile), then read.
  late: async (res) => {
    await sleep(200);
    return collect(res, 0);
  },
  'unread, then discarded': async (res) => {
    await sleep(200);
    await res.discard();
  },
  'partly read, then discarded': async (res) => {
    await res.body[Symbol.asyncIterator]().next();
    await sleep(100);
    await res.discard();
  },
  // Never read again, never discarded: the request's deadline must release the connection.
  'abandoned mid-way': async (res) => {
    await res.body[Symbol.asyncIterator]().next();
  },
};

function judge(answer, outcome) {
  if (outcome === undefined) return true;
  const complete = outcome.body?.equals(answer.body) === true;
  const failed = outcome.name === 'NetError' && typeof outcome.error === 'string';
  if (answer.expect === 'complete') return complete;
  if (answer.expect === 'error') return failed;
  return complete || failed;
}

function describe(outcome) {
  if (outcome === undefined) return undefined;
  return outcome.body === undefined ? outcome : { bytes: outcome.body.length };
}

/** The request deadline, which releases a body abandoned mid-way. */
const DEADLINE_MS = 3_000;

/** Every reader against one server, a few rounds each. */
async function run(answer, material) {
  const secure = material !== null;
  const server = await startHostileServer(answer.script, secure ? { tls: material } : {});
  const client = createHttpClient({
    allowPrivateNetworks: true,
    timeoutMs: 5_000,
    // Long enough for a 512 KiB body read 5 ms a chunk on a loaded CI machine (1 s was not, with
    // any client); short enough that an abandoned body is released within the test.
    maxRequestMs: DEADLINE_MS,
    ...(secure ? { tlsCa: material.cert } : {}),
  });
  const results = [];
  for (const [reader, read] of Object.entries(readers)) {
    const name = `${secure ? 'tls' : 'tcp'} | ${answer.name} | ${reader}`;
    let ok = true;
    let detail;
    for (let round = 0; round < ROUNDS && ok; round++) {
      try {
        const res = await client.request(server.url(`/${round}`));
        const outcome = await read(res);
        ok = judge(answer, outcome);
        detail = describe(outcome);
      } catch (error) {
        detail = { requestError: error.code ?? String(error) };
        ok = answer.expect !== 'complete';
      }
    }
    // No socket left behind: each one is closed, by the client or by the deadline.
    try {
      await server.drained(DEADLINE_MS + 2_000);
    } catch (error) {
      ok = false;
      detail = { ...detail, leak: String(error) };
    }
    results.push({ name, ok, detail });
  }
  await client.close();
  await server.close();
  return results;
}

const material = selfSignedCertificate();
const runs = [];
for (const answer of answers) {
  runs.push(run(answer, null));
  if (material !== null) runs.push(run(answer, material));
}
const results = (await Promise.all(runs)).flat();
process.stdout.write(`${JSON.stringify({ tls: material !== null, results })}\n`);
process.exitCode = results.every((result) => result.ok) ? 0 : 1;
