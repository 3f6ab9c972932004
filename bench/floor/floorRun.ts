/**
 * Runs the floor server (floorServer.ts) in a process of its own and plays it as bench:gateway plays the service:
 * `tables` tables of `seats` sockets each, the seats moving in turn, each move sent once the last one was
 * answered (a closed loop per table), after a think time of 0.5 to 1.5 times `thinkMs` when it is set. Measures
 * the floor's CPU and heap allocation per move while it plays.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { cpuSeconds } from '../../drivers/figures/processStatus.js';
import { connectGatewayHeap, inspectorFlag } from '../gatewayHeap.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface FloorOptions {
  readonly tables: number;
  readonly seats: number;
  readonly seconds: number;
  readonly thinkMs: number;
  /** The size of the frame each socket is sent per move: the service's average view. */
  readonly frameBytes: number;
}

export interface FloorFigures {
  readonly moves: number;
  readonly cpuMicrosPerMove: number;
  readonly allocatedBytesPerMove: number;
  readonly latenciesMs: number[];
}

/** What a move's command frame holds, as the service's players send one. */
const COMMAND = { type: 'card.played', seat: 0, card: { suit: 'hearts', rank: 7 } };

export async function runFloor(options: FloorOptions): Promise<FloorFigures> {
  const directory = mkdtempSync(join(tmpdir(), 'suitors-floor-'));
  const inspector = await inspectorFlag();
  const child = spawn(process.execPath, [inspector.flag, '--import', 'tsx', 'bench/floor/floorServer.ts', join(directory, 'floor.db')], {
    cwd: REPO_ROOT,
    env: { ...process.env, FLOOR_FRAME_BYTES: String(options.frameBytes) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const sockets: WebSocket[] = [];
  try {
    const url = await readyUrl(child);
    const heap = await connectGatewayHeap(inspector.port);
    const tables = await setUpTables(url.replace('http', 'ws'), options);
    for (const table of tables) sockets.push(...table.sockets);
    const stopAt = performance.now() + options.seconds * 1000;
    const cpuBefore = cpuSeconds(child.pid!);
    await heap.startCountingAllocations();
    const plays = tables.map((table) => table.play(stopAt, options.thinkMs));
    await Promise.all(plays);
    const allocated = await heap.allocatedBytes();
    const cpuAfter = cpuSeconds(child.pid!);
    heap.close();
    const moves = tables.reduce((sum, table) => sum + table.moves, 0);
    return {
      moves,
      cpuMicrosPerMove: cpuBefore === null || cpuAfter === null || moves === 0 ? NaN : ((cpuAfter - cpuBefore) / moves) * 1e6,
      allocatedBytesPerMove: moves === 0 ? NaN : allocated / moves,
      latenciesMs: tables.flatMap((table) => table.latenciesMs),
    };
  } finally {
    for (const socket of sockets) socket.terminate();
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
    rmSync(directory, { recursive: true, force: true });
  }
}

function readyUrl(child: ReturnType<typeof spawn>): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines: string[] = [];
    const onLine = (line: string) => {
      const match = /^floor on (http:\/\/\S+)/.exec(line);
      if (match !== null) resolve(match[1]);
      else lines.push(line);
    };
    createInterface({ input: child.stdout! }).on('line', onLine);
    createInterface({ input: child.stderr! }).on('line', onLine);
    child.once('exit', (code) => reject(new Error(`the floor server ended before it listened (code ${code}):\n${lines.join('\n')}`)));
  });
}

/** Opens every table's sockets, a bounded number of tables at a time. */
async function setUpTables(baseUrl: string, options: FloorOptions): Promise<FloorTable[]> {
  const tables = Array.from({ length: options.tables }, (_, index) => new FloorTable(`${baseUrl}/tables/t${index}/socket`, options.seats));
  const CONCURRENCY = 50;
  for (let start = 0; start < tables.length; start += CONCURRENCY) {
    await Promise.all(tables.slice(start, start + CONCURRENCY).map((table) => table.open()));
  }
  return tables;
}

class FloorTable {
  readonly sockets: WebSocket[] = [];
  moves = 0;
  readonly latenciesMs: number[] = [];
  private nextId = 1;
  private answered: ((id: number) => void) | null = null;

  constructor(
    private readonly url: string,
    private readonly seats: number,
  ) {}

  async open(): Promise<void> {
    for (let seat = 0; seat < this.seats; seat++) {
      const socket = new WebSocket(this.url);
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      });
      socket.on('message', (data) => {
        const text = String(data);
        if (text.startsWith('{"type":"accepted"')) this.answered?.((JSON.parse(text) as { id: number }).id);
      });
      this.sockets.push(socket);
    }
  }

  /** Moves seat after seat until `stopAt`, each after the last was answered. */
  async play(stopAt: number, thinkMs: number): Promise<void> {
    let seat = 0;
    // Tables start apart, as the service's do once their set-up is done.
    if (thinkMs > 0) await sleep(Math.random() * thinkMs);
    while (performance.now() < stopAt) {
      const id = this.nextId++;
      const sent = performance.now();
      const reply = new Promise<number>((resolve) => (this.answered = resolve));
      this.sockets[seat].send(JSON.stringify({ type: 'command', id, command: { ...COMMAND, seat } }));
      await reply;
      this.latenciesMs.push(performance.now() - sent);
      this.moves++;
      seat = (seat + 1) % this.seats;
      if (thinkMs > 0) await sleep(thinkMs * (0.5 + Math.random()));
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
