// Measuring a benchmarked command: wall time, CPU-seconds of its whole process tree (GNU time, or
// bash's `times`) and the tree's peak memory (PSS sampled from /proc). Shared by the benches.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const which = (bin) => spawnSync('which', [bin]).status === 0;

/** A tool from Debian's packages, installed when missing; whether it is there. */
export function ensureTool(bin, pkg) {
  if (which(bin)) return true;
  console.log(`installing ${pkg} (Debian package)…`);
  spawnSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'inherit' });
  return which(bin);
}

// CPU time of a process tree: GNU time reports the rusage of its child, which includes every
// descendant that was waited for. Without it, bash's `times` gives the same children's totals.
const TIME = '/usr/bin/time';
const useGnuTime =
  process.env.BENCH_CPU_TIMER !== 'bash' &&
  (fs.existsSync(TIME) || (ensureTool('time', 'time') && fs.existsSync(TIME)));

/** The command wrapped to write its CPU time to `file` ("user sys" in seconds, last line). */
function withCpuTime(command, args, file) {
  if (useGnuTime) return [TIME, ['-f', '%U %S', '-o', file, command, ...args]];
  const script = 'f=$1; shift; "$@"; s=$?; times >"$f"; exit $s';
  return ['bash', ['-c', script, 'bash', file, command, ...args]];
}

/** "1.23 0.45" (GNU time) or "0m1.230s 0m0.450s" (bash times: children) → user + system. */
function parseCpu(report) {
  const line = report.trim().split('\n').at(-1) ?? '';
  const seconds = (t) => {
    const m = /^(?:(\d+)m)?([\d.]+)s?$/.exec(t);
    return m ? Number(m[1] ?? 0) * 60 + Number(m[2]) : NaN;
  };
  const [user, sys] = line.split(/\s+/).map(seconds);
  return user + sys;
}

const BROWSER = /chrom|headless_shell/i;

/** Children of a process, whichever of its threads started them. */
export function childrenOf(pid) {
  const children = [];
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    const list = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    if (list) children.push(...list.split(/\s+/));
  }
  return children;
}

/** PSS of a process tree from /proc (the wrapper itself left out), and whether a browser ran. */
function treeMemory(rootPid) {
  let pss = 0;
  let browser = false;
  const walk = (pid, self) => {
    try {
      if (self) {
        // PSS, not RSS: pages shared between processes of one tool (Chromium) count once.
        const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
        pss += Number(/Pss:\s+(\d+)/.exec(rollup)?.[1] ?? 0) * 1024;
        browser ||= BROWSER.test(fs.readFileSync(`/proc/${pid}/comm`, 'utf8'));
      }
      for (const c of childrenOf(pid)) walk(c, true);
    } catch {
      // process gone
    }
  };
  walk(rootPid, false);
  return { pss, browser };
}

/**
 * Samples a process tree's memory every 50 ms, or less often when a sample is slow (smaps_rollup
 * of a dozen Chromium processes): sampling stays under about 5% of a core and does not slow the
 * tool it measures.
 */
function sampleMemory(pid) {
  const seen = { peak: 0, browser: false };
  let timer;
  const sample = () => {
    const started = performance.now();
    const { pss, browser } = treeMemory(pid);
    seen.peak = Math.max(seen.peak, pss);
    seen.browser ||= browser;
    timer = setTimeout(sample, Math.max(50, 20 * (performance.now() - started)));
  };
  timer = setTimeout(sample, 50);
  return () => (clearTimeout(timer), seen);
}

/** Runs a command: wall time, CPU-seconds and peak PSS of its tree, whether a browser ran, exit. */
export function measure(command, args) {
  return new Promise((resolve) => {
    const cpuFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cpu-')), 'times');
    const [cmd, wrapped] = withCpuTime(command, args, cpuFile);
    const started = process.hrtime.bigint();
    const child = spawn(cmd, wrapped, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (c) => (stderr = (stderr + c).slice(-4000)));
    child.stdout.on('data', (c) => (stdout = (stdout + c).slice(-4000)));
    const stopSampling = sampleMemory(child.pid);
    child.on('exit', (code) => {
      const { peak, browser } = stopSampling();
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const cpu = parseCpu(fs.readFileSync(cpuFile, { encoding: 'utf8', flag: 'a+' }));
      fs.rmSync(path.dirname(cpuFile), { recursive: true, force: true });
      resolve({ code, seconds, cpu, peak, browser, stderr, stdout });
    });
  });
}
