/**
 * The abusive client of the abuse benchmark: one loopback address, sending
 * as fast as it is answered, `workers` requests at once, each abuse at or
 * past the documented limits (docs/api.md, "Limits"). Every answer is
 * counted by status (and socket refusals and closes by kind), to show that
 * an abuser gets only documented refusals.
 */
import http from 'node:http';
import { SocketClient, UpgradeRefused } from '../../drivers/socketClient.js';
import { parseOptions } from '../../machines/table/options.js';
import { MAX_IMPORT_HANDS } from '../../services/host/recordImport/prepareImport.js';
import { simulateGame } from '../../services/simulator/simulate.js';

/** Forks sent from each address of the fork flood: its whole limit of a minute (limits.ts, forkTable). */
const FORKS_PER_ADDRESS = 10;
/** Tables waiting for players made from each address of the waiting-table fill: its whole cap (limits.ts). */
const WAITING_TABLES_PER_ADDRESS = 10;
/**
 * Imports sent from each address of the rotating imports: its whole limit of 30 s (limits.ts, importRecord), well
 * within its daily storage budget (about 16 such imports).
 */
const IMPORTS_PER_ADDRESS = 3;
/** The largest body a record import may have (services/gateway/routes/recordRoutes.ts). */
const RECORD_LIMIT = 1024 * 1024;

export class Answers {
  readonly byKind = new Map<string, number>();

  count(kind: string | number): void {
    this.byKind.set(String(kind), (this.byKind.get(String(kind)) ?? 0) + 1);
  }

  toString(): string {
    return (
      [...this.byKind]
        .sort((a, b) => b[1] - a[1])
        .map(([kind, count]) => `${kind}×${count}`)
        .join(' ') || 'none'
    );
  }
}

export interface Answer {
  readonly status: number;
  readonly body: string;
}

/** A client bound to one loopback address; paths are sent exactly as written (`/../x` included). */
export class LoopbackClient {
  private readonly agent: http.Agent;
  private inFlight = 0;
  private retired = false;

  constructor(
    readonly port: number,
    readonly address: string,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  }

  request(method: string, path: string, { body, token }: { body?: string; token?: string } = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    this.inFlight++;
    const settled = () => {
      this.inFlight--;
      if (this.retired && this.inFlight === 0) this.agent.destroy();
    };
    return new Promise<Answer>((resolve, reject) => {
      const sent = http.request(
        { host: '127.0.0.1', port: this.port, method, path, headers, localAddress: this.address, agent: this.agent },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
          response.on('error', reject);
        },
      );
      sent.on('error', reject);
      sent.end(body);
    }).finally(settled);
  }

  /** Closes its connections once the requests under way from it are answered (at once if none are). */
  retire(): void {
    this.retired = true;
    if (this.inFlight === 0) this.agent.destroy();
  }

  // biome-ignore lint/suspicious/noExplicitAny: the abuse run reads fields of whatever JSON came back
  async json(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: any }> {
    const answer = await this.request(method, path, { body: body === undefined ? undefined : JSON.stringify(body), token });
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(answer.body);
    } catch {
      // not JSON
    }
    return { status: answer.status, body: parsed };
  }

  /** A socket to `path` that keeps no message: resolves with it once open, or with the refusal's status (or the error's code). */
  async socket(path: string): Promise<{ client: SocketClient } | { status: number | string }> {
    try {
      return { client: await SocketClient.open(`ws://127.0.0.1:${this.port}${path}`, { localAddress: this.address, keep: () => false }) };
    } catch (error) {
      if (error instanceof UpgradeRefused) return { status: error.status };
      return { status: `error ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
    }
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Runs `attempt` in `workers` loops until `until` (performance.now()), counting what each answers. */
export async function hammer(workers: number, until: number, attempt: (answers: Answers) => Promise<void>): Promise<Answers> {
  const answers = new Answers();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < until) {
        try {
          await attempt(answers);
        } catch (error) {
          answers.count(`error ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
        }
      }
    }),
  );
  return answers;
}

/** The longest record an import takes: a Seven Suitors game of as many hands as the caps allow and the body limit holds. */
export function largestRecord(maxHands = MAX_IMPORT_HANDS): { text: string; hands: number } {
  for (let hands = maxHands; hands > 0; hands -= 10) {
    const parsed = parseOptions('sevenSuitors', { end: `hands:${hands}` });
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    const { record } = simulateGame({ game: 'sevenSuitors', options: parsed.options, seed: `abuse-${hands}` });
    const text = JSON.stringify(record);
    if (Buffer.byteLength(text) <= RECORD_LIMIT - 1024) return { text, hands: record.hands.length };
  }
  throw new Error('no record fits the import limit');
}

/** Pads a record past the import limit with whitespace (still valid JSON): a 413. */
export function oversized(record: string): string {
  return record.replace(/}$/, `${' '.repeat(RECORD_LIMIT - Buffer.byteLength(record) + 1024)}}`);
}

/** The abuses, in the order they run; 'none' is the baseline. */
export const PHASES = [
  'none',
  'tableCreation',
  'commandFlood',
  'socketOpens',
  'encodedPaths',
  'largeImports',
  'longReplays',
  'forkFlood',
  'waitingTables',
  'rotatingImports',
] as const;
export type Phase = (typeof PHASES)[number];
export const PHASE_NAMES: Record<Phase, string> = {
  none: 'none (baseline)',
  tableCreation: 'table creation',
  socketOpens: 'socket opens',
  commandFlood: 'command flood',
  encodedPaths: 'encoded paths',
  largeImports: 'large record imports',
  longReplays: 'replays of a long table',
  forkFlood: 'forks, rotating addresses',
  waitingTables: 'waiting tables, rotating',
  rotatingImports: 'imports, rotating',
};

/**
 * The addresses a botnet would send from: 127.3.0.1 up, each used for at most
 * `perAddress` requests in turn, so every one stays within its own limit
 * (forks: 10 a minute) and only the global budgets can hold the flood.
 */
export class RotatingClients {
  private readonly clients: LoopbackClient[] = [];
  private sent = 0;

  constructor(
    private readonly port: number,
    private readonly perAddress: number,
  ) {}

  /** The client the next request goes from. */
  next(): LoopbackClient {
    const index = Math.floor(this.sent++ / this.perAddress);
    if (index >= 250 * 250) throw new Error('the rotating clients ran out of loopback addresses');
    if (this.clients[index] === undefined) {
      // An address done with closes its connections once its last requests are answered (closing them at once would
      // reset those): thousands of addresses each holding theirs open would run the service out of file descriptors,
      // a connection flood, which is not the abuse measured here.
      this.clients[index - 1]?.retire();
      this.clients[index] = new LoopbackClient(this.port, `127.3.${Math.floor(index / 250)}.${(index % 250) + 1}`);
    }
    return this.clients[index];
  }

  /** How many addresses were used. */
  get addresses(): number {
    return this.clients.length;
  }

  close(): void {
    for (const client of this.clients) client?.close();
  }
}

/** What one abuse leaves for the next: the abuser's tables, and a long table it imported. */
export interface AbuserState {
  readonly tables: string[];
  imported: { tableId: string; version: number } | null;
}

export interface AbuserResult {
  readonly answers: Record<string, number>;
  readonly state: AbuserState;
}

/** Runs one abuse from `abuser` until `until` (performance.now()). */
export async function runAbuse(phase: Phase, abuser: LoopbackClient, workers: number, until: number, state: AbuserState): Promise<Answers> {
  switch (phase) {
    case 'none':
      await new Promise((resolve) => setTimeout(resolve, until - performance.now()));
      return new Answers();
    case 'tableCreation':
      return hammer(workers, until, async (answers) => {
        const created = await abuser.json('POST', '/api/tables', { game: 'sevenSuitors' });
        answers.count(created.status);
        if (created.status === 201) state.tables.push(created.body.tableId);
      });
    case 'socketOpens': {
      const held: SocketClient[] = [];
      const answers = await hammer(workers, until, async (counted) => {
        const opened = await abuser.socket(`/api/tables/${firstTable(state)}/socket`);
        if ('client' in opened) held.push(opened.client);
        counted.count('client' in opened ? 101 : opened.status);
      });
      for (const { socket } of held) socket.terminate();
      return answers;
    }
    case 'commandFlood':
      return commandFlood(abuser, workers, until, firstTable(state));
    case 'encodedPaths': {
      const paths = [
        '/%61pi/tables',
        '/%2e%2e/package.json',
        '/../package.json',
        '//api/tables',
        '/.%2e/.%2e/etc/passwd',
        '/api/tables/x/seats/0x1',
        '/api/tables?limit=1e3',
      ];
      let next = 0;
      return hammer(workers, until, async (answers) => answers.count((await abuser.request('GET', paths[next++ % paths.length])).status));
    }
    case 'largeImports': {
      const record = largestRecord().text;
      // Every fourth import one hand past the cap (422), every fourth past the body limit (413).
      const pastTheCap = largestRecord(MAX_IMPORT_HANDS + 1).text;
      const tooLarge = oversized(record);
      let sent = 0;
      return hammer(workers, until, async (answers) => {
        const body = [record, record, pastTheCap, tooLarge][sent++ % 4];
        const imported = await abuser.request('POST', '/api/records', { body });
        answers.count(imported.status);
        if (imported.status === 201) state.imported ??= JSON.parse(imported.body);
      });
    }
    case 'forkFlood': {
      if (state.imported === null) throw new Error('no record was imported, so there is no long finished game to fork');
      const { tableId, version } = state.imported;
      const clients = new RotatingClients(abuser.port, FORKS_PER_ADDRESS);
      const answers = await hammer(workers, until, async (counted) => {
        // Anywhere in the game but its last events, whose fork would be over at once.
        const at = 1 + Math.floor(Math.random() * (version - 20));
        counted.count((await clients.next().request('POST', `/api/tables/${tableId}/fork`, { body: JSON.stringify({ at }) })).status);
      });
      clients.close();
      return answers;
    }
    case 'waitingTables': {
      // Tables nobody sits at, from as many addresses as it takes to fill the cap in all, 10 each (its own cap).
      const clients = new RotatingClients(abuser.port, WAITING_TABLES_PER_ADDRESS);
      const answers = await hammer(workers, until, async (counted) => {
        counted.count((await clients.next().request('POST', '/api/tables', { body: '{"game":"sevenSuitors"}' })).status);
      });
      clients.close();
      return answers;
    }
    case 'rotatingImports': {
      // The largest records, each address within its import limit and storage budget: only the global budgets hold it.
      const record = largestRecord().text;
      const clients = new RotatingClients(abuser.port, IMPORTS_PER_ADDRESS);
      const answers = await hammer(workers, until, async (counted) => {
        counted.count((await clients.next().request('POST', '/api/records', { body: record })).status);
      });
      clients.close();
      return answers;
    }
    case 'longReplays': {
      if (state.imported === null) throw new Error('no record was imported, so there is no long table to replay');
      const { tableId, version } = state.imported;
      return hammer(workers, until, async (answers) => {
        const at = 1 + Math.floor(Math.random() * version);
        answers.count((await abuser.request('GET', `/api/tables/${tableId}/replay?at=${at}`)).status);
      });
    }
  }
}

function firstTable(state: AbuserState): string {
  if (state.tables.length === 0) throw new Error('the abuser made no table to abuse');
  return state.tables[0];
}

/** A seat of the abuser's own table sends commands as fast as it is answered, over HTTP and over one socket at once. */
async function commandFlood(abuser: LoopbackClient, workers: number, until: number, tableId: string): Promise<Answers> {
  const answers = new Answers();
  const joined = await abuser.json('POST', `/api/tables/${tableId}/seats/0`, { name: 'Mallory' });
  answers.count(joined.status);
  const token = String(joined.body?.token);
  const opened = await abuser.socket(`/api/tables/${tableId}/socket?token=${token}`);
  let flood: NodeJS.Timeout | undefined;
  if ('client' in opened) {
    const { client } = opened;
    const { socket } = client;
    client.listen((message) => {
      if (message.type !== 'view') answers.count(`${message.type} ${message.error ?? ''}`.trim());
    });
    socket.on('close', (code) => answers.count(`closed ${code}`));
    flood = setInterval(() => {
      if (socket.readyState === socket.OPEN)
        socket.send(JSON.stringify({ type: 'command', id: 1, command: { type: 'card.played', card: '1-1' } }));
    }, 2);
  } else answers.count(`socket ${opened.status}`);
  const overHttp = await hammer(workers, until, async (counted) => {
    counted.count(
      (await abuser.request('POST', `/api/tables/${tableId}/commands`, { body: '{"type":"card.played","card":"1-1"}', token })).status,
    );
  });
  clearInterval(flood);
  if ('client' in opened) opened.client.socket.terminate();
  for (const [kind, count] of overHttp.byKind) answers.byKind.set(kind, (answers.byKind.get(kind) ?? 0) + count);
  return answers;
}
