/**
 * A process's memory and CPU time as Linux reports them in /proc: the
 * figures the runs print for the service's processes (null where there is
 * no /proc).
 */
import { readFileSync } from 'node:fs';

export interface ProcStatus {
  /** Resident set size now, bytes. */
  readonly rss: number;
  /** Peak resident set size, bytes. */
  readonly peakRss: number;
}

/** VmRSS and VmHWM of a process from /proc/<pid>/status; null where there is no /proc. */
export function procStatus(pid: number): ProcStatus | null {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), peakRss: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat (clock ticks of 1/100 s, Linux's USER_HZ). */
export function cpuSeconds(pid: number): number | null {
  return statCpuSeconds(`/proc/${pid}/stat`);
}

function statCpuSeconds(statFile: string): number | null {
  try {
    const text = readFileSync(statFile, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * CPU seconds the process's main thread has used (/proc/<pid>/task/<pid>/stat): the event loop's share of
 * cpuSeconds. Node 20 leaves its other threads (worker threads, V8's GC helpers, libuv's pool) unnamed, so
 * the rest is told apart only as a whole.
 */
export function mainThreadCpuSeconds(pid: number): number | null {
  return statCpuSeconds(`/proc/${pid}/task/${pid}/stat`);
}
