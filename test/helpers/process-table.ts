import { readdirSync, readFileSync } from 'node:fs';

/** One process as /proc/<pid>/stat describes it. */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  /** Process group id. */
  pgrp: number;
  /** Session id. */
  session: number;
  /** R, S, D, Z (zombie: exited, not yet reaped), ... */
  state: string;
  /** Clock ticks after boot: with pid, tells a process from a later one given the same pid. */
  startTime: number;
  command: string;
}

function entryOf(pid: number): ProcessEntry | undefined {
  let stat: string;
  let command: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return undefined; // gone meanwhile
  }
  // The name in parentheses may hold spaces and parentheses: the fields follow the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    pid,
    state: fields[0] as string,
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    session: Number(fields[3]),
    startTime: Number(fields[19]),
    command,
  };
}

/** Every process of the machine (Linux /proc), zombies included. */
export function processTable(): ProcessEntry[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => entryOf(Number(name)) ?? []);
}

/** Every descendant of pid (children, their children...), walking the parent links of /proc. */
export function descendantsOf(pid: number, table = processTable()): ProcessEntry[] {
  const children = table.filter((p) => p.ppid === pid);
  return children.flatMap((child) => [child, ...descendantsOf(child.pid, table)]);
}

/**
 * Those of `processes` still running: the same pid started at the same time, and not a zombie
 * (exited; its parent reaps it).
 */
export function stillRunning(processes: ProcessEntry[], table = processTable()): ProcessEntry[] {
  return processes.filter((p) =>
    table.some((now) => now.pid === p.pid && now.startTime === p.startTime && now.state !== 'Z'),
  );
}
