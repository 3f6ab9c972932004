/**
 * CPU time by process between two marks, for bench:nats: what each process
 * of the service (this process as the gateway, each table worker, each
 * nats-server) spent over a stretch of the run. CPU time is what an operator
 * pays for a command, and unlike a rate it hardly moves when other work
 * shares the machine's cores.
 */
import { cpuSeconds } from '../drivers/figures/processStatus.js';

export interface CpuProcess {
  readonly name: string;
  /** null: this process (its time from process.cpuUsage, in µs rather than /proc's 10 ms ticks). */
  readonly pid: number | null;
}

/** CPU seconds of each process at a moment, by name. */
export type CpuMark = ReadonlyMap<string, number>;

export function markCpu(processes: readonly CpuProcess[]): CpuMark {
  const mark = new Map<string, number>();
  for (const { name, pid } of processes) {
    if (pid === null) {
      const { user, system } = process.cpuUsage();
      mark.set(name, (user + system) / 1e6);
      continue;
    }
    const seconds = cpuSeconds(pid);
    if (seconds === null)
      throw new Error(`no CPU time for ${name} (pid ${pid}): /proc/${pid}/stat is not readable (this figure needs Linux)`);
    mark.set(name, seconds);
  }
  return mark;
}

/** CPU seconds each process spent from `before` to `after`. */
export function cpuSpent(before: CpuMark, after: CpuMark): Map<string, number> {
  const spent = new Map<string, number>();
  for (const [name, seconds] of after) spent.set(name, seconds - (before.get(name) ?? seconds));
  return spent;
}

export function sumOf(spent: ReadonlyMap<string, number>, names: (name: string) => boolean): number {
  let total = 0;
  for (const [name, seconds] of spent) if (names(name)) total += seconds;
  return total;
}

/** µs per unit, for printing: `seconds` over `count` units. */
export function microsEach(seconds: number, count: number): string {
  return `${((seconds / count) * 1e6).toFixed(0)} µs`;
}

/**
 * A CPU profile of this process over one stretch of the run (node --cpu-prof
 * covers the whole life, set-up and the raw measures included), written to
 * `file` as a .cpuprofile; a no-op without a file.
 */
export async function profileStretch(file: string): Promise<() => Promise<void>> {
  if (file === '') return async () => undefined;
  const { Session } = await import('node:inspector/promises');
  const { writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(file, JSON.stringify(profile));
    session.disconnect();
  };
}
