/**
 * `npm run intruder`: the attacks of issue 25, tried again on the secured
 * distributed service (3 nats-server, 2 workers, a gateway, as `npm run
 * cluster` runs it), as an insider who reaches the NATS servers would: with
 * no credentials, and with a stolen gateway key. Prints each attempt and
 * what the service answered; exits 1 if any attempt got what it wanted.
 *
 *   1. read the hands in play          (a hand.dealt carries the deal and its seed)
 *   2. act for a seat                  (a submit with no seat token's hash; a table with a chosen seed)
 *   3. brick a table with a forged event (and, as a bug with admin rights would, what the table then answers)
 *   4. hold a table hostage            (a fake owner claim; a rogue member of the workers' queue group)
 */
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { createConnection } from 'node:net';
import { connectBatched } from '../../services/nats/turnBatchedConnect.js';
import { httpRequest } from '../../drivers/httpClient.js';
import { startServiceProcesses } from '../../drivers/serviceProcesses.js';
import { waitFor } from '../../drivers/polling.js';
import { deploymentNames } from '../../services/bus/deploymentNames.js';
import { WORKER_QUEUE } from '../../services/bus/subjects.js';
import { decodeReply, encode } from '../../services/bus/protocol.js';
import { openJetStreamEventStore } from '../../services/eventstore/jetstream/index.js';

const { layout, subjects, buckets } = deploymentNames();
const outcomes: { attempt: string; answer: string; stopped: boolean }[] = [];

/** Runs an attempt; `stoppedIf` says whether its answer is the service refusing it. */
async function attempt(what: string, run: () => Promise<string>, stoppedIf: (answer: string) => boolean): Promise<void> {
  let answer: string;
  try {
    answer = await run();
  } catch (error) {
    answer = `error: ${(error as Error).message}`;
  }
  const stopped = stoppedIf(answer);
  outcomes.push({ attempt: what, answer, stopped });
  console.log(`${stopped ? 'stopped' : 'GOT IN '}  ${what}\n         ${answer}`);
}

const refused = (answer: string) => /Permissions Violation|Authorization Violation|refused|notHolder|malformed|certificate/i.test(answer);

console.log('starting the secured distributed service (3 nats-server, 2 workers, a gateway)…');
const service = await startServiceProcesses('nats', { workers: 2, gateways: 1 }, (line) => console.log(`… ${line}`));
const nats = service.nats!;
const base = service.gateways[0].baseUrl;
let stolenGateway: NatsConnection | null = null;
let admin: NatsConnection | null = null;
try {
  const created = await httpRequest(base, 'POST', '/api/tables', { body: { game: 'traitorOfLove', bots: [1, 2, 3, 4, 5] } });
  const tableId: string = created.body.tableId;
  const seat = await httpRequest(base, 'POST', `/api/tables/${tableId}/seats/0`, { body: { name: 'Victim' } });
  if (seat.status !== 201) throw new Error(`could not take a seat: ${seat.text}`);
  console.log(`a table of A Traitor of Love in play: ${tableId}, seat 0 held by a person\n`);
  const servers = nats.urls.split(',');
  const caFile = nats.secrets!.caFile;

  console.log('1. read every hand in play');
  await attempt(
    'connect with no credentials, trusting the servers blindly',
    async () => {
      const nc = await connectBatched({ servers, tls: {}, maxReconnectAttempts: 0, timeout: 3000 });
      await nc.close();
      return 'connected';
    },
    refused,
  );
  await attempt(
    "connect with no credentials, with the deployment's CA",
    async () => {
      const nc = await connectBatched({ servers, tls: { caFile }, maxReconnectAttempts: 0, timeout: 3000 });
      await nc.close();
      return 'connected';
    },
    refused,
  );
  await attempt(
    'connect without TLS, speaking the protocol by hand',
    () => plainConnect(servers[0]),
    (answer) => /TLS Required|tls_required/i.test(answer),
  );

  stolenGateway = await nats.connect('gateway');
  console.log("         (with a gateway's key the logs are readable: a gateway builds every seat's view from them; docs/distributed.md)");
  const js = jetstream(stolenGateway);
  console.log('\n2. act for a seat (with a stolen gateway key)');
  const pass = { type: 'cards.passed', seat: 0, passes: [] };
  await attempt(
    "send seat 0's move straight to the workers, with no seat token's hash",
    async () => reply(stolenGateway!, subjects.command(tableId), { op: 'submit', tableId, args: [pass] }),
    refused,
  );
  await attempt(
    'create a table with a chosen seed (its deals known in advance)',
    async () => reply(stolenGateway!, subjects.create, { op: 'createTable', args: [{ game: 'sevenSuitors', seed: 'known' }] }),
    refused,
  );

  console.log('\n3. brick a table with a forged event');
  const forged = JSON.stringify({ events: [{ type: 'game.finished', at: new Date().toISOString(), data: {} }] });
  await attempt(
    "append a forged event to the table's log",
    async () => `stored at ${(await js.publish(`${layout.prefix}.${tableId}.events`, forged)).seq}`,
    refused,
  );
  await attempt(
    'delete or purge the log',
    async () => {
      const jsm = await jetstreamManager(stolenGateway!);
      await jsm.streams.purge(layout.streamName);
      return 'purged';
    },
    refused,
  );

  console.log('\n4. hold a table hostage');
  await attempt(
    'write a fake owner claim for the table',
    async () => `stored at ${(await js.publish(`$KV.${buckets.tableOwners}.${tableId}`, '{"worker":"w-fake","incarnation":"x"}')).seq}`,
    refused,
  );
  await attempt(
    "join the workers' queue group to answer table creations",
    async () => {
      const sub = stolenGateway!.subscribe(subjects.create, { queue: WORKER_QUEUE });
      const closed = await Promise.race([sub.closed, new Promise((resolve) => setTimeout(() => resolve('still subscribed'), 1500))]);
      return String(closed);
    },
    refused,
  );

  admin = await nats.connect('admin');
  console.log('\n3b. a forged event that got in anyway (a bug, simulated with the admin key)');
  const store = await openJetStreamEventStore({ connection: admin, createMissing: false });
  const version = await store.version(tableId);
  await store.append(tableId, [{ type: 'card.played', at: new Date().toISOString(), data: { seat: 3, card: '9-9' } }], version);
  const other = await httpRequest(base, 'POST', '/api/tables', { body: { game: 'sevenSuitors', bots: [0, 1, 2, 3] } });
  await attempt(
    'play on at the table with the forged event',
    async () => {
      const answer = await waitFor(
        async () => {
          const view = await httpRequest(base, 'GET', `/api/tables/${tableId}/view`);
          return view.status !== 200 && view;
        },
        'the table to be quarantined',
        { timeoutMs: 15_000 },
      );
      return `${answer.status} ${answer.text}`;
    },
    (answer) => answer.startsWith('503') && answer.includes('quarantined'),
  );
  await attempt(
    'the other tables play on',
    async () => {
      const view = await waitFor(
        async () => {
          const answer = await httpRequest(base, 'GET', `/api/tables/${other.body.tableId}/view`);
          return answer.status === 200 && answer.body.version > 10 && answer;
        },
        'another table to play on',
        { timeoutMs: 15_000 },
      );
      return `version ${view.body.version}`;
    },
    (answer) => answer.startsWith('version'),
  );
  await store.close();
} finally {
  await stolenGateway?.close();
  await admin?.close();
  await service.stop();
}

const gotIn = outcomes.filter((outcome) => !outcome.stopped);
console.log(`\n${outcomes.length - gotIn.length} of ${outcomes.length} attempts stopped`);
console.log(`summary: attempts=${outcomes.length} stopped=${outcomes.length - gotIn.length} got_in=${gotIn.length}`);
process.exitCode = gotIn.length === 0 ? 0 : 1;

async function reply(nc: NatsConnection, subject: string, request: unknown): Promise<string> {
  const answer = decodeReply(await nc.request(subject, encode(request as never), { timeout: 5000 }));
  return answer.ok ? `accepted by ${answer.worker}` : `${answer.kind}: ${answer.message}`;
}

/** What a server answers a client that logs in with no TLS and no credentials, over a plain TCP socket. */
function plainConnect(url: string): Promise<string> {
  const { hostname, port } = new URL(url.replace('tls://', 'http://'));
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: hostname, port: Number(port) });
    let heard = '';
    const timer = setTimeout(() => finish(`no answer; heard ${JSON.stringify(heard.slice(0, 200))}`), 3000);
    const finish = (answer: string) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      heard += chunk.toString();
      if (heard.includes('INFO ') && !heard.includes('\r\n-ERR') && !heard.includes('PONG'))
        socket.write('CONNECT {"verbose":false}\r\nPING\r\n');
      const error = /-ERR '([^']*)'/.exec(heard);
      if (error !== null) finish(`-ERR ${error[1]}`);
      else if (heard.includes('PONG')) finish('PONG: logged in');
    });
    socket.on('close', () =>
      finish(
        heard.includes('"tls_required":true')
          ? 'the server said tls_required and closed the plain connection at its first bytes'
          : `closed; heard ${JSON.stringify(heard.slice(-200))}`,
      ),
    );
  });
}
