/**
 * The floor of a move (issue 32): the least a server on the service's own stack must do for one move to be
 * durable and delivered, to measure the service's CPU per move against in the same run (bench/floor/README.md).
 *
 * Fastify with @fastify/websocket (the service's WebSocket library, with its frame limit), better-sqlite3 in WAL
 * with `synchronous=FULL`, and one group commit per turn of the event loop, as the service's event store does. Per
 * move: parse the frame, append one row, and once the commit returns answer the mover and send each of the table's
 * sockets a frame the size of the service's views. Nothing the service needs is left out for durability or
 * delivery; everything else it does (rules, tenure, views per seat, metrics, logs, limits) is what is measured
 * against this floor.
 *
 * Run as its own process (`node --import tsx bench/floor/floorServer.ts <database file>`): it prints
 * `floor on http://127.0.0.1:<port>` when it listens. FLOOR_FRAME_BYTES is the size of each table frame.
 */
import fastifyWebsocket from '@fastify/websocket';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import type { WebSocket } from 'ws';

const FRAME_LIMIT = 64 * 1024;
const databasePath = process.argv[2];
if (databasePath === undefined) throw new Error('usage: floorServer.ts <database file>');
const frameBytes = Number(process.env.FLOOR_FRAME_BYTES ?? 400);

interface Move {
  readonly table: FloorTable;
  readonly mover: WebSocket;
  readonly id: number;
  readonly type: string;
  readonly dataJson: string;
}

interface FloorTable {
  readonly id: string;
  version: number;
  readonly sockets: WebSocket[];
}

const db = new Database(databasePath);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec(
  'CREATE TABLE IF NOT EXISTS events (table_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, at TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (table_id, seq))',
);
const insert = db.prepare('INSERT INTO events (table_id, seq, type, at, data) VALUES (?, ?, ?, ?, ?)');
const commitBatch = db.transaction((moves: readonly Move[], at: string) => {
  for (const move of moves) insert.run(move.table.id, ++move.table.version, move.type, at, move.dataJson);
});

const tables = new Map<string, FloorTable>();
// The frame each socket is sent: its bytes stand for a view of the service's size; only its size matters here.
const padding = 'x'.repeat(Math.max(0, frameBytes - 40));

let batch: Move[] = [];
let commitScheduled = false;

function commitTurn(): void {
  commitScheduled = false;
  const moves = batch;
  batch = [];
  commitBatch(moves, new Date().toISOString());
  for (const move of moves) {
    move.mover.send(`{"type":"accepted","id":${move.id},"version":${move.table.version}}`);
    const frame = `{"type":"view","version":${move.table.version},"view":"${padding}"}`;
    for (const socket of move.table.sockets) socket.send(frame);
  }
}

function received(table: FloorTable, socket: WebSocket, text: string): void {
  const message = JSON.parse(text) as { id: number; command: { type: string } };
  batch.push({ table, mover: socket, id: message.id, type: message.command.type, dataJson: JSON.stringify(message.command) });
  if (!commitScheduled) {
    commitScheduled = true;
    setImmediate(commitTurn);
  }
}

const app = Fastify({ logger: false });
await app.register(fastifyWebsocket, { options: { maxPayload: FRAME_LIMIT } });
app.get<{ Params: { table: string } }>('/tables/:table/socket', { websocket: true }, (socket, request) => {
  const id = request.params.table;
  let table = tables.get(id);
  if (table === undefined) {
    table = { id, version: 0, sockets: [] };
    tables.set(id, table);
  }
  const joined = table;
  joined.sockets.push(socket);
  socket.on('message', (data) => received(joined, socket, String(data)));
  socket.on('close', () => joined.sockets.splice(joined.sockets.indexOf(socket), 1));
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`floor on ${address}`);
process.once('SIGTERM', () => {
  void app.close().then(() => {
    db.close();
    process.exit(0);
  });
});
