// Memory of each server process (the cluster primary and each worker), read from /proc: VmRSS
// sampled while a scenario runs (its peak and its value at the end) and VmHWM, the kernel's own
// high-water mark of the process since it started.
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessMemory {
  pid: number;
  /** `primary` (the process the bench started) or `worker` (a child). */
  role: 'primary' | 'worker';
  /** VmRSS at the end of the scenario, MB. */
  rssMB: number;
  /** Highest VmRSS sampled during the scenario, MB. */
  peakMB: number;
  /** VmHWM (peak resident size since the process started), MB. */
  hwmMB: number;
}

/** The pid and every descendant's, the root first. */
export function processTree(root: number): number[] {
  const out: number[] = [];
  const visit = (p: number) => {
    if (out.includes(p)) return;
    out.push(p);
    let tasks: string[] = [];
    try { tasks = readdirSync(`/proc/${p}/task`); } catch { return; }
    for (const t of tasks) {
      let children = '';
      try { children = readFileSync(`/proc/${p}/task/${t}/children`, 'utf8'); } catch { /* gone */ }
      for (const c of children.split(/\s+/)) if (c) visit(Number(c));
    }
  };
  visit(root);
  return out;
}

function status(pid: number): { rss: number; hwm: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)\\s+kB`).exec(text)?.[1] ?? 0);
    return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** Sum of VmRSS over a process and all its descendants, in bytes. */
export function treeRss(root: number): number {
  let total = 0;
  for (const pid of processTree(root)) total += (status(pid)?.rss ?? 0) * 1024 * 1024;
  return total;
}

/** Samples every process of the tree under `root` every `everyMs` until `stop()`. */
export function sampleMemory(root: number, everyMs = 100): { stop(): ProcessMemory[] } {
  const peaks = new Map<number, number>();
  const sample = () => {
    for (const pid of processTree(root)) {
      const s = status(pid);
      if (s) peaks.set(pid, Math.max(peaks.get(pid) ?? 0, s.rss));
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const out: ProcessMemory[] = [];
      for (const pid of processTree(root)) {
        const s = status(pid);
        if (!s) continue;
        out.push({ pid, role: pid === root ? 'primary' : 'worker', rssMB: s.rss, peakMB: Math.max(peaks.get(pid) ?? 0, s.rss), hwmMB: s.hwm });
      }
      return out;
    },
  };
}

/** `primary 95, worker 240, worker 236 MB` (peak during the scenario per process). */
export function formatMemory(list: ProcessMemory[] | undefined): string {
  if (!list?.length) return '-';
  return `${list.map((p) => `${p.role} ${p.peakMB.toFixed(0)}`).join(', ')} MB`;
}

/** The highest peak of any one process. */
export function largestPeak(list: ProcessMemory[] | undefined): number {
  return Math.max(0, ...(list ?? []).map((p) => p.peakMB));
}
