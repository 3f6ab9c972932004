/**
 * The rules of a next release, for the tests that play one (test/ruleChange.test.ts
 * in-process, test/nats/rollingUpgrade.nats.test.ts in worker processes): rules 2,
 * under which A Traitor of Love ends after a hand in which someone has more
 * than 10 points, not 15. The change is made where a rule lives, in the
 * game's rules object (traitorOfLoveRulesEndingAbove); the rulebook carries
 * it, its machine scores by it, and the client is told it through the view.
 * Its machine is built again under another id, so its fingerprint differs
 * from rules 1's, as a real change of machine would make it. Takes the
 * released rulebooks rather than importing them, so that a module mock of
 * rulebooks.ts can call it.
 */
import { assign } from 'xstate';
import type { Rulebook, TableMachine } from '../../machines/games/rulebooks.js';
import { traitorOfLoveRulesEndingAbove } from '../../machines/games/rules/traitorOfLove.js';
import { recordHandScore } from '../../machines/fragments/scoring.js';
import { tableSetup } from '../../machines/table/setup.js';

/** The score a Traitor of Love game ends above under rules 2. */
export const RULES_TWO_END_SCORE = 10;

export function withRulesTwo(released: readonly Rulebook[]): readonly Rulebook[] {
  const first = released[0];
  const traitorOfLove = traitorOfLoveRulesEndingAbove(RULES_TWO_END_SCORE);
  const rebuilt = tableSetup.createMachine({
    ...(first.machines.traitorOfLove.config as object),
    id: 'traitorOfLoveRules2',
  } as never) as unknown as TableMachine;
  const endsAboveTen = rebuilt.provide({
    actions: { scoreHand: assign(({ context }) => recordHandScore(context, traitorOfLove)) },
  });
  return [
    ...released,
    { version: 2, machines: { ...first.machines, traitorOfLove: endsAboveTen }, rules: { ...first.rules, traitorOfLove } },
  ];
}
