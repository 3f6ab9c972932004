/**
 * One abuse of the abuse benchmark, in a process of its own (abuse.ts starts
 * it): reads `{ phase, seconds, port, address, workers, state }` as JSON on
 * stdin, runs the abuse, and writes `{ answers, state }` as its last line.
 */
import { LoopbackClient, runAbuse, type AbuserResult, type AbuserState, type Phase } from './abusers.js';

interface Orders {
  readonly phase: Phase;
  readonly seconds: number;
  readonly port: number;
  readonly address: string;
  readonly workers: number;
  readonly state: AbuserState;
}

let input = '';
for await (const chunk of process.stdin) input += chunk;
const orders = JSON.parse(input) as Orders;
const abuser = new LoopbackClient(orders.port, orders.address);
const until = performance.now() + orders.seconds * 1000;
const state = orders.state;
const answers = await runAbuse(orders.phase, abuser, orders.workers, until, state);
abuser.close();
const result: AbuserResult = { answers: Object.fromEntries(answers.byKind), state };
console.log(JSON.stringify(result));
process.exit(0);
