#!/usr/bin/env node
// A local S3-compatible server (s3rver) on loopback for the service matrix in .ci/run: one bucket,
// objects in a temporary directory that goes when the server stops (SIGTERM / SIGINT).
//
//   node scripts/s3-local.mjs [--port 0] [--bucket mirror-ci]
//
// Once it listens it prints one line, `S3_ENDPOINT=http://127.0.0.1:<port>`, then stays up until
// killed. s3rver accepts the fixed keys S3RVER / S3RVER.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import S3rver from 's3rver';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    bucket: { type: 'string', default: 'mirror-ci' },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`s3-local: --port must be 0-65535, not ${values.port}`);
  process.exit(2);
}

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 's3-local-'));
const server = new S3rver({
  address: '127.0.0.1',
  port,
  silent: true,
  directory,
  configureBuckets: [{ name: values.bucket, configs: [] }],
});

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  try {
    await server.close();
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
    process.exit(code);
  }
}
process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));

try {
  const address = await server.run();
  console.log(`S3_ENDPOINT=http://127.0.0.1:${address.port}`);
} catch (err) {
  console.error('s3-local: could not start:', err);
  await stop(1);
}
