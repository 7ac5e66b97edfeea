// What the hostile-origin suite watches while a run goes: the latency of GET /api/health, the
// resident memory of the server process and of all its descendants (mirror runs in child
// processes, Chromium), and the bytes in a folder (DATA_DIR: blobs and database).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const MiB = 1024 * 1024;

// ---- GET /api/health ------------------------------------------------------------------------

/**
 * Asks GET /api/health every `everyMs` (a new connection each time, as an outside probe would),
 * never more than one at a time: a server that does not answer shows as one long sample of up to
 * `timeoutMs`, which counts as that long. `stop()` resolves with the figures.
 */
export function watchHealth(port, { everyMs = 200, timeoutMs = 5_000 } = {}) {
  const figures = {
    samples: 0,
    worstMs: 0,
    worstAt: null,
    failures: 0,
    timeouts: 0,
    lastFailure: null,
    over1s: 0,
  };
  let stopped = false;
  let inFlight = null;
  const started = Date.now();
  const one = () =>
    new Promise((resolve) => {
      const t0 = performance.now();
      let settled = false;
      const done = (ok, why) => {
        if (settled) return;
        settled = true;
        const ms = Math.min(performance.now() - t0, timeoutMs);
        figures.samples++;
        if (ms > figures.worstMs) {
          figures.worstMs = ms;
          figures.worstAt = (Date.now() - started) / 1000;
        }
        if (ms >= 1000) figures.over1s++;
        if (!ok) {
          figures.failures++;
          figures.lastFailure = why;
        }
        resolve();
      };
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/api/health',
          agent: false,
          headers: { host: `127.0.0.1:${port}` },
        },
        (res) => {
          res.resume();
          res.on('end', () => done(res.statusCode === 200, `HTTP ${res.statusCode}`));
          res.on('error', (err) => done(false, err.message));
        },
      );
      req.setTimeout(timeoutMs, () => {
        req.destroy();
        figures.timeouts++;
        done(false, `no answer within ${timeoutMs} ms`);
      });
      req.on('error', (err) => done(false, err.message));
      req.end();
    });
  const loop = (async () => {
    while (!stopped) {
      const tick = Date.now();
      inFlight = one();
      await inFlight;
      const wait = everyMs - (Date.now() - tick);
      if (wait > 0 && !stopped) await new Promise((r) => setTimeout(r, wait));
    }
  })();
  return {
    figures,
    async stop() {
      stopped = true;
      await loop;
      return figures;
    },
  };
}

// ---- memory of a process tree ---------------------------------------------------------------

/** VmRSS of a process in bytes, or 0 when it is gone. */
export function rssOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Every process below `pid` (children, their children…), from the ppid in /proc/<n>/stat. */
export function descendantsOf(pid) {
  const children = new Map();
  const names = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const close = stat.lastIndexOf(')');
    const ppid = Number(stat.slice(close + 2).split(' ')[1]);
    names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(entry));
  }
  const found = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift();
    found.push({ pid: next, name: names.get(next) ?? '?' });
    queue.push(...(children.get(next) ?? []));
  }
  return found;
}

/**
 * Samples every `everyMs` the RSS of `pid` and the summed RSS of its descendants; keeps the peaks
 * (and which processes made the descendants' peak). `stop()` resolves with the figures.
 */
export function watchMemory(pid, { everyMs = 200 } = {}) {
  const figures = {
    samples: 0,
    serverStartBytes: rssOf(pid),
    serverPeakBytes: 0,
    descendantsPeakBytes: 0,
    descendantsAtPeak: [],
    totalPeakBytes: 0,
    mostDescendants: 0,
  };
  const sample = () => {
    const server = rssOf(pid);
    let sum = 0;
    const tree = descendantsOf(pid).map((p) => ({ ...p, rss: rssOf(p.pid) }));
    for (const p of tree) sum += p.rss;
    figures.samples++;
    figures.serverPeakBytes = Math.max(figures.serverPeakBytes, server);
    figures.mostDescendants = Math.max(figures.mostDescendants, tree.length);
    if (sum > figures.descendantsPeakBytes) {
      figures.descendantsPeakBytes = sum;
      figures.descendantsAtPeak = summarize(tree);
    }
    figures.totalPeakBytes = Math.max(figures.totalPeakBytes, server + sum);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    figures,
    stop() {
      clearInterval(timer);
      sample();
      return figures;
    },
  };
}

/** `chrome ×6 (412 MiB)`-style lines of the processes of a tree, by name. */
function summarize(tree) {
  const byName = new Map();
  for (const p of tree) {
    const entry = byName.get(p.name) ?? { name: p.name, count: 0, rss: 0 };
    entry.count++;
    entry.rss += p.rss;
    byName.set(p.name, entry);
  }
  return [...byName.values()].map((e) => `${e.name} ×${e.count} (${(e.rss / MiB).toFixed(0)} MiB)`);
}

// ---- bytes in a folder ----------------------------------------------------------------------

/**
 * The summed size of every file under `dir` (0 when it is missing); with `part` (a folder name
 * directly under `dir`), also the size of that folder alone, from the same walk.
 */
export async function folderBytes(dir, part) {
  let total = 0;
  let inPart = 0;
  let entries;
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return { total: 0, part: 0 };
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    let bytes = 0;
    if (entry.isDirectory()) bytes = (await folderBytes(full)).total;
    else {
      try {
        bytes = (await fs.promises.lstat(full)).size;
      } catch {
        // removed meanwhile
      }
    }
    total += bytes;
    if (entry.name === part) inPart += bytes;
  }
  return { total, part: inPart };
}

/**
 * Measures `dir` every `everyMs` (one walk at a time) and keeps the peak growth over its size when
 * watching started; `part` (e.g. `blobs`) is measured in the same walk and reported beside it.
 * `stop()` measures once more.
 */
export async function watchFolder(dir, { part, everyMs = 500 } = {}) {
  const first = await folderBytes(dir, part);
  const figures = {
    baselineBytes: first.total,
    peakGrowthBytes: 0,
    lastGrowthBytes: 0,
    partPeakGrowthBytes: 0,
    partLastGrowthBytes: 0,
  };
  const measure = async () => {
    const now = await folderBytes(dir, part);
    figures.lastGrowthBytes = now.total - first.total;
    figures.partLastGrowthBytes = now.part - first.part;
    figures.peakGrowthBytes = Math.max(figures.peakGrowthBytes, figures.lastGrowthBytes);
    figures.partPeakGrowthBytes = Math.max(
      figures.partPeakGrowthBytes,
      figures.partLastGrowthBytes,
    );
  };
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await measure();
      if (!stopped) await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    figures,
    async stop() {
      stopped = true;
      await loop;
      await measure();
      return figures;
    },
  };
}
