// The processes of a process group that serve (a node running gateway/main, primary or cluster
// worker), read from /proc: how the start commands are checked to serve compiled JavaScript.
import { readdirSync, readFileSync } from 'node:fs';

export interface ServingProcess {
  pid: number;
  /** The command line, argv[0] included. */
  argv: string[];
  /** NODE_OPTIONS of its environment ('' when unset). */
  nodeOptions: string;
}

/** Whether /proc can be read (Linux): elsewhere the checks that need it are skipped. */
export const hasProc = (() => { try { readFileSync('/proc/self/stat'); return true; } catch { return false; } })();

/** The pids of the process group `pgid` (a child spawned with `detached: true`, and its own children). */
export function groupPids(pgid: number): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid pgrp …: comm may hold spaces, so count from the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) pids.push(Number(name));
    } catch { /* gone meanwhile */ }
  }
  return pids;
}

/** The serving processes whose process group is `pgid`. */
export function servingProcesses(pgid: number): ServingProcess[] {
  const found: ServingProcess[] = [];
  for (const pid of groupPids(pgid)) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (!/(^|\/)node$/.test(argv[0] ?? '') || !argv.some((a) => /(^|\/)gateway\/main\.[jt]s$/.test(a))) continue;
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      const nodeOptions = env.find((e) => e.startsWith('NODE_OPTIONS='))?.slice('NODE_OPTIONS='.length) ?? '';
      found.push({ pid, argv, nodeOptions });
    } catch { /* gone meanwhile */ }
  }
  return found;
}
