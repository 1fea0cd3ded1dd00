import { readdirSync, readFileSync } from 'node:fs';

/** Linux clock ticks per second (USER_HZ), the unit of /proc CPU times. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU seconds used so far (Linux /proc): the whole machine's busy time, and that of each program
 * of a process tree (by default this process and its descendants: Postgres, the Temporal dev
 * server). Over a run it shows what the work cost, whatever other processes took on a shared
 * machine.
 */
export interface CpuSnapshot {
  /** performance.now() when taken, to turn seconds into cores. */
  at: number;
  machine: number;
  ours: Map<string, number>;
}

interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  seconds: number;
}

/** `label` names a process of the tree (its program name by default); processes sharing a label are summed. */
export function cpuSnapshot(
  root = process.pid,
  label: (p: { pid: number; comm: string }) => string = (p) => p.comm,
): CpuSnapshot | undefined {
  try {
    const at = performance.now();
    const cpu = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0); // idle + iowait
    const machine = (cpu.reduce((a, b) => a + b, 0) - idle) / CLOCK_TICKS_PER_SECOND;
    const procs = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .flatMap((pid) => procStat(pid) ?? []);
    const children = new Map<number, ProcStat[]>();
    for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
    const ours = new Map<string, number>();
    const todo = procs.filter((p) => p.pid === root);
    for (let p = todo.pop(); p; p = todo.pop()) {
      const name = label(p);
      ours.set(name, (ours.get(name) ?? 0) + p.seconds);
      todo.push(...(children.get(p.pid) ?? []));
    }
    return { at, machine, ours };
  } catch {
    return undefined; // not Linux: the figures go without it
  }
}

/** Program name, parent and CPU seconds of a process and its reaped children; undefined once it is gone. */
function procStat(pid: string): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const comm = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
    return {
      pid: Number(pid),
      ppid: Number(fields[1]),
      comm,
      // utime + stime, and cutime + cstime: the time of its children it has reaped. Without the
      // latter an exited child's time (a Postgres backend whose pool connection closed) would
      // vanish from the tree's total between two snapshots and be counted as another process's.
      seconds:
        (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS_PER_SECOND,
    };
  } catch {
    return undefined;
  }
}

/** CPU seconds between two snapshots: per program of the tree (those above `least`), and everything else's. */
export function cpuBetween(
  before: CpuSnapshot,
  after: CpuSnapshot,
  least = 0.01,
): { programs: Record<string, number>; others: number } {
  const programs: Record<string, number> = {};
  let ours = 0;
  for (const [name, total] of after.ours) {
    const used = total - (before.ours.get(name) ?? 0);
    ours += used;
    if (used >= least) programs[name] = used;
  }
  return { programs, others: Math.max(0, after.machine - before.machine - ours) };
}

/** Cores used between two snapshots (CPU seconds per second of wall time), as `cpuBetween` splits them. */
export function coresBetween(
  before: CpuSnapshot,
  after: CpuSnapshot,
): { programs: Record<string, number>; others: number } {
  const seconds = (after.at - before.at) / 1000;
  const { programs, others } = cpuBetween(before, after, 0);
  const cores: Record<string, number> = {};
  for (const [name, used] of Object.entries(programs)) if (used / seconds >= 0.005) cores[name] = used / seconds;
  return { programs: cores, others: others / seconds };
}
