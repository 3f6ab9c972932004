/**
 * The service's cost per move over the floor's, as bench:gateway prints it, ending with the benchmark's one
 * `summary:` line (issue 32's goals: CPU ≤ 2.0 × the floor's, allocation ≤ 12 KB a move).
 */
import { latencySummary, percentile } from '../../drivers/figures/latency.js';
import type { FloorFigures } from './floorRun.js';

export interface ServiceFigures {
  readonly moves: number;
  readonly cpuMicrosPerMove: number;
  readonly allocatedBytesPerMove: number;
  /** The average view frame a socket received, bytes: the floor sends frames of this size. */
  readonly viewBytes: number;
  /** Move latencies after the warm-up, ms. */
  readonly latenciesMs: number[];
}

export function floorComparison(
  service: ServiceFigures,
  floor: FloorFigures,
  run: { readonly tables: number; readonly seats: number; readonly thinkMs: number; readonly fleet: string },
): string[] {
  const ratio = service.cpuMicrosPerMove / floor.cpuMicrosPerMove;
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const sorted = service.latenciesMs.slice().sort((a, b) => a - b);
  return [
    `floor (bench/floor/: Fastify + @fastify/websocket + better-sqlite3 WAL synchronous=FULL, one group commit a turn; ` +
      `per move: parse the frame, append one row, answer the mover, send the table's ${run.seats} sockets ${service.viewBytes.toFixed(0)} bytes each), ` +
      `played the same way: ${floor.moves} moves, ${floor.cpuMicrosPerMove.toFixed(0)} µs of CPU and ${kb(floor.allocatedBytesPerMove)} KB allocated a move; ` +
      `latency ${latencySummary(floor.latenciesMs)}`,
    `service over floor: CPU ${service.cpuMicrosPerMove.toFixed(0)} / ${floor.cpuMicrosPerMove.toFixed(0)} µs a move = ${ratio.toFixed(2)}× (goal ≤ 2.0×); ` +
      `allocated ${kb(service.allocatedBytesPerMove)} KB a move on the main thread (goal ≤ 12 KB), the floor ${kb(floor.allocatedBytesPerMove)} KB`,
    'summary: ' +
      [
        `tables=${run.tables}`,
        `think_ms=${run.thinkMs}`,
        `fleet=${run.fleet}`,
        `moves=${service.moves}`,
        `cpu_us_per_move=${service.cpuMicrosPerMove.toFixed(0)}`,
        `floor_cpu_us_per_move=${floor.cpuMicrosPerMove.toFixed(0)}`,
        `floor_ratio=${ratio.toFixed(2)}`,
        `alloc_kb_per_move=${kb(service.allocatedBytesPerMove)}`,
        `floor_alloc_kb_per_move=${kb(floor.allocatedBytesPerMove)}`,
        `p50_ms=${percentile(sorted, 50).toFixed(1)}`,
        `p99_ms=${percentile(sorted, 99).toFixed(1)}`,
      ].join(' '),
  ];
}
