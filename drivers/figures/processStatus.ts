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
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}
