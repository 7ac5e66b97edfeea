// The origin of the change-report benches: a generated site served on 127.0.0.1 with ETag and
// Last-Modified validators (answering 304 to If-None-Match), whose files can be swapped between runs.
import crypto from 'node:crypto';
import http from 'node:http';

/** The site as the origin has it now: path → { type, body, etag, modified }. */
export function snapshot(files) {
  const now = new Date().toUTCString();
  const out = new Map();
  for (const [p, f] of files) {
    const body = Buffer.isBuffer(f.body) ? f.body : Buffer.from(f.body);
    const etag = `"${crypto.createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
    out.set(p, { type: f.type, body, etag, modified: f.modified ?? now });
  }
  return out;
}

export async function serve(state, latencyMs = 0) {
  const stats = { requests: 0, bytes: 0, notModified: 0 };
  const answer = (req, res) => {
    const file = state.files.get(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (!file) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const headers = { etag: file.etag, 'last-modified': file.modified };
    if (req.headers['if-none-match'] === file.etag) {
      stats.notModified++;
      return res.writeHead(304, headers).end();
    }
    stats.bytes += file.body.length;
    res
      .writeHead(200, { ...headers, 'content-type': file.type, 'content-length': file.body.length })
      .end(file.body);
  };
  const server = http.createServer((req, res) => {
    stats.requests++;
    if (latencyMs > 0) setTimeout(answer, latencyMs, req, res);
    else answer(req, res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    stats,
    reset: () => Object.assign(stats, { requests: 0, bytes: 0, notModified: 0 }),
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}

/** The generated site with a date and a counter on every page (what changes on every visit). */
export function withNoise(files, stamp) {
  const out = new Map();
  for (const [p, f] of files) {
    if (!f.type.startsWith('text/html')) out.set(p, f);
    else
      out.set(p, {
        ...f,
        body: String(f.body).replace(
          '</body>',
          `<footer>Updated ${stamp.date} · ${stamp.views} views</footer></body>`,
        ),
      });
  }
  return out;
}
