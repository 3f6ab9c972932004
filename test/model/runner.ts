/**
 * Runs one model path against a driver and checks, at every step:
 * - the driver accepts exactly the events the model accepts and refuses the rest;
 * - the driver's state value and context equal the model's;
 * - refused commands leave the snapshot identical;
 * - `refusalOf` (the explanations players see) agrees with the machine;
 * - the invariants hold (cards conserved, one actor when one is expected, views leak nothing).
 * Before each event, and at the end, every refusal the model knows for the
 * current state is tried too.
 */
import type { TableEvent } from '../../machines/table/events.js';
import { refusalOf } from '../../machines/table/refusal.js';
import type { DriverSnapshot, TableDriver } from './driver.js';
import { asTableSnapshot, invariantProblems } from './invariants.js';
import { labelOf, serializeEvent, stateValueName, type ModelPath, type Snapshot } from './model.js';
import { phaseOf } from '../../machines/table/snapshot.js';

export class PathFailure extends Error {
  constructor(
    readonly path: string,
    readonly step: number,
    readonly problems: readonly string[],
  ) {
    super(`path "${path}" fails at step ${step}:\n  ${problems.join('\n  ')}`);
  }
}

export interface RunObserver {
  /** A refused command was tried in a state node. */
  refusal?(state: string, kind: string): void;
}

export interface RunResult {
  readonly steps: number;
  readonly refusalsTried: number;
  /** The driver's snapshot after each event (index 0: the initial state). */
  readonly snapshots: readonly DriverSnapshot[];
}

function canonical(snapshot: DriverSnapshot): string {
  return JSON.stringify({ value: snapshot.value, status: snapshot.status, context: snapshot.context });
}

function describeEvent(event: TableEvent): string {
  const label = labelOf(event);
  return `${label && !label.legal ? `[${label.kind}] ` : ''}${JSON.stringify(event)}`;
}

export async function runPath(path: ModelPath, driver: TableDriver, observer: RunObserver = {}): Promise<RunResult> {
  const { adjacency, serializeState } = path.model;
  const snapshots: DriverSnapshot[] = [];
  let refusalsTried = 0;
  let step = 0;
  const fail = (problems: string[]): void => {
    if (problems.length > 0) throw new PathFailure(path.name, step, problems);
  };

  await driver.start(path.input);
  let current = await driver.snapshot();
  let key = serializeState(current as unknown as Snapshot);
  let node = adjacency[key];
  if (node === undefined) fail([`the initial state ${key} is not in the model`]);
  fail(compareWithModel(current, node.state, path.values[0]));
  fail(invariantProblems(current));
  snapshots.push(current);

  const tryRefusals = async () => {
    for (const { event, state } of Object.values(node.transitions)) {
      if (state !== node.state) continue;
      const before = await driver.snapshot();
      const phase = stateValueName(before.value);
      const accepted = await driver.send(event);
      const after = await driver.snapshot();
      const problems: string[] = [];
      if (accepted) problems.push(`refused by the model but accepted: ${describeEvent(event)}`);
      if (canonical(after) !== canonical(before)) problems.push(`a refused command changed the snapshot: ${describeEvent(event)}`);
      if (driver.isSameSnapshot && !driver.isSameSnapshot(before, after))
        problems.push(`a refused command replaced the snapshot object: ${describeEvent(event)}`);
      if (refusalOf(asTableSnapshot(before), event) === null)
        problems.push(`refusalOf explains nothing for a refused ${describeEvent(event)} in ${phase}`);
      fail(problems);
      refusalsTried++;
      observer.refusal?.(phase, labelOf(event)?.kind ?? event.type);
    }
  };

  // The model does not expand a finished game (a pure transition would still apply the root's seat events to a
  // final snapshot, where the actor takes nothing): a finished table must refuse everything, and say why.
  const tryAfterGameOver = async () => {
    const { context } = await driver.snapshot();
    const afterGameOver: TableEvent[] = [
      { type: 'seat.left', seat: 0 },
      { type: 'seat.joined', seat: 0, player: { name: 'Late', bot: false } },
      { type: 'card.played', seat: 0, card: '1-1' },
      { type: 'hand.dealt', deal: context.hand!.deal, roles: context.hand!.roles },
    ];
    for (const event of afterGameOver) {
      const before = await driver.snapshot();
      const accepted = await driver.send(event);
      const after = await driver.snapshot();
      const problems: string[] = [];
      if (accepted) problems.push(`a finished table accepted ${describeEvent(event)}`);
      if (canonical(after) !== canonical(before)) problems.push(`a finished table changed on ${describeEvent(event)}`);
      if (refusalOf(asTableSnapshot(before), event) === null)
        problems.push(`refusalOf explains nothing for ${describeEvent(event)} after the game is over`);
      fail(problems);
      refusalsTried++;
      observer.refusal?.('gameOver', `${event.type} after the game`);
    }
  };

  for (const event of path.events) {
    await tryRefusals();
    step++;
    const transition = node.transitions[serializeEvent(event)];
    if (transition === undefined) fail([`the model has no transition for ${describeEvent(event)} from ${key}`]);
    const expectAccepted = transition.state !== node.state;
    const before = current;
    const explanation = refusalOf(asTableSnapshot(before), event);
    const accepted = await driver.send(event);
    current = await driver.snapshot();
    const problems: string[] = [];
    if (accepted !== expectAccepted) {
      problems.push(
        `${describeEvent(event)} was ${accepted ? 'accepted' : 'refused'}; the model ${expectAccepted ? 'accepts' : 'refuses'} it`,
      );
    }
    if (accepted && explanation !== null) problems.push(`refusalOf refuses an accepted ${describeEvent(event)}: ${explanation}`);
    if (!accepted && explanation === null) problems.push(`refusalOf explains nothing for a refused ${describeEvent(event)}`);
    if (!accepted && canonical(current) !== canonical(before)) problems.push('a refused command changed the snapshot');
    problems.push(...compareWithModel(current, transition.state, path.values[step]));
    fail(problems);
    fail(invariantProblems(current));
    snapshots.push(current);
    key = serializeState(transition.state);
    node = adjacency[key];
    // The path must run through the very snapshots the traversal expanded: if this step reached a different
    // snapshot with the same key, the path's next events were generated for that other snapshot.
    if (node === undefined) fail([`the model never expanded ${key}`]);
    if (node.state !== transition.state && canonical(node.state as never) !== canonical(transition.state as never)) {
      fail([`the model's path leaves its representative states at ${key}`]);
    }
  }
  await tryRefusals();
  if (current.status === 'done') await tryAfterGameOver();
  await driver.stop?.();
  path.expect?.(snapshots);
  return { steps: path.events.length, refusalsTried, snapshots };
}

function compareWithModel(actual: DriverSnapshot, model: Snapshot, pathValue: unknown): string[] {
  const problems: string[] = [];
  const actualValue = stateValueName(actual.value);
  if (actualValue !== stateValueName(model.value)) problems.push(`state ${actualValue}, the model is in ${stateValueName(model.value)}`);
  if (stateValueName(pathValue) !== stateValueName(model.value))
    problems.push(`the path says ${stateValueName(pathValue)}, the graph ${stateValueName(model.value)}`);
  if (actual.status !== model.status) problems.push(`status ${actual.status}, the model's ${model.status}`);
  if (JSON.stringify(actual.context) !== JSON.stringify(model.context)) {
    problems.push(`context differs from the model's in ${phaseOf(model)}: ${firstDifference(actual.context, model.context)}`);
  }
  return problems;
}

function firstDifference(a: unknown, b: unknown, at = 'context'): string {
  if (JSON.stringify(a) === JSON.stringify(b)) return '';
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return `${at}: ${JSON.stringify(a)} vs model ${JSON.stringify(b)}`;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const diff = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`);
    if (diff !== '') return diff;
  }
  return at;
}
