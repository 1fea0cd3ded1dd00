import { readdirSync, readFileSync } from 'node:fs';

/** Linux clock ticks per second (USER_HZ), the unit of /proc CPU times. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU seconds used so far (Linux /proc): the whole machine's busy time, and that of each program
 * of this benchmark (this process and its descendants: Postgres, the Temporal dev server). Over a
 * run it shows what the work cost, whatever other processes took on a shared machine.
 */
export interface CpuSnapshot {
  machine: number;
  ours: Map<string, number>;
}

export function cpuSnapshot(): CpuSnapshot | undefined {
  try {
    const cpu = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0); // idle + iowait
    const machine = (cpu.reduce((a, b) => a + b, 0) - idle) / CLOCK_TICKS_PER_SECOND;
    const procs = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .flatMap((pid) => procStat(pid) ?? []);
    const children = new Map<number, typeof procs>();
    for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
    const ours = new Map<string, number>();
    const todo = procs.filter((p) => p.pid === process.pid);
    for (let p = todo.pop(); p; p = todo.pop()) {
      ours.set(p.comm, (ours.get(p.comm) ?? 0) + p.seconds);
      todo.push(...(children.get(p.pid) ?? []));
    }
    return { machine, ours };
  } catch {
    return undefined; // not Linux: the figures go without it
  }
}

function procStat(pid: string): { pid: number; ppid: number; comm: string; seconds: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const comm = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
    return {
      pid: Number(pid),
      ppid: Number(fields[1]),
      comm,
      seconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND,
    };
  } catch {
    return undefined;
  }
}

/** CPU seconds between two snapshots: per program of this benchmark, and everything else's. */
export function cpuBetween(
  before: CpuSnapshot,
  after: CpuSnapshot,
): { programs: Record<string, number>; others: number } {
  const programs: Record<string, number> = {};
  let ours = 0;
  for (const [comm, total] of after.ours) {
    const used = total - (before.ours.get(comm) ?? 0);
    ours += used;
    if (used >= 0.01) programs[comm] = used;
  }
  return { programs, others: Math.max(0, after.machine - before.machine - ours) };
}
