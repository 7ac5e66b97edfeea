/**
 * A process and everything it started (Chromium and its helpers), read from Linux's /proc. Used to
 * measure a sandboxed run's memory as a whole and to kill all of it: Chromium puts itself in its
 * own process group, so killing the run's group would leave it behind, and once the run is dead
 * its children are re-parented and can no longer be found.
 */
import fs from 'node:fs';

const PAGE_SIZE = 4096;

interface ProcStat {
  parent: number;
  /** Clock ticks after boot: with the pid, names one process even after its pid is reused. */
  start: string;
}

/** Every process's parent and start time, from /proc/<pid>/stat (empty without /proc). */
function readStats(): Map<number, ProcStat> {
  const stats = new Map<number, ProcStat>();
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return stats;
  }
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      stats.set(pid, { parent: Number(fields[1]), start: fields[19] ?? '' });
    } catch {
      // The process ended while we looked.
    }
  }
  return stats;
}

/** A process as seen at one moment: killing it later cannot hit another that took its pid. */
export interface ProcessRef {
  pid: number;
  start: string;
}

/** `pid` and all its living descendants. */
export function processTree(pid: number): ProcessRef[] {
  const stats = readStats();
  const childrenOf = new Map<number, number[]>();
  for (const [child, { parent }] of stats) {
    const list = childrenOf.get(parent);
    if (list) list.push(child);
    else childrenOf.set(parent, [child]);
  }
  const tree: ProcessRef[] = [];
  const stack = [pid];
  while (stack.length > 0) {
    const next = stack.pop()!;
    const stat = stats.get(next);
    if (!stat) continue;
    tree.push({ pid: next, start: stat.start });
    stack.push(...(childrenOf.get(next) ?? []));
  }
  return tree;
}

/**
 * Memory of these processes together, in bytes (0 for those already gone). Proportional set size
 * where the kernel gives it: Chromium's processes share much of their memory, and adding up their
 * resident sizes would count it once per process.
 */
export function residentBytes(processes: readonly ProcessRef[]): number {
  let total = 0;
  for (const { pid } of processes) {
    try {
      const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      const pss = /^Pss:\s+(\d+) kB/m.exec(rollup);
      if (pss) {
        total += Number(pss[1]) * 1024;
        continue;
      }
    } catch {
      // Gone, not Linux, or an older kernel: try statm.
    }
    try {
      const statm = fs.readFileSync(`/proc/${pid}/statm`, 'utf8');
      total += Number(statm.split(' ')[1]) * PAGE_SIZE;
    } catch {
      // Gone, or not Linux.
    }
  }
  return total;
}

/** SIGKILLs these processes, those that are still the same processes. */
export function killProcesses(processes: readonly ProcessRef[]): void {
  const now = readStats();
  for (const { pid, start } of processes) {
    if (now.get(pid)?.start !== start) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** SIGKILLs the process and everything it started (read before anyone dies). */
export function killTree(pid: number): void {
  const tree = processTree(pid);
  if (tree.length > 0) return killProcesses(tree);
  try {
    process.kill(pid, 'SIGKILL'); // No /proc to read: the process itself at least.
  } catch {
    // Already gone.
  }
}
