import { describe, expect, it } from 'vitest';
import { drainPlan, handOffPlan } from './rebalancing.js';

const life = (worker: string) => ({ worker, incarnation: `${worker}-life` });
const load = (worker: string, tables: number) => ({ life: life(worker), tables });

describe('how many tables a worker hands on', () => {
  it('hands a joining worker the excess over the fair share, at most the budget a round', () => {
    expect(handOffPlan([load('a', 100), load('b', 0)], 1000)).toEqual([{ to: life('b'), tables: 50 }]);
    expect(handOffPlan([load('a', 100), load('b', 0)], 20)).toEqual([{ to: life('b'), tables: 20 }]);
    // Share ceil(7 / 2) = 4: a keeps 4.
    expect(handOffPlan([load('a', 7), load('b', 0)], 1000)).toEqual([{ to: life('b'), tables: 3 }]);
  });

  it('hands nothing at or under the share, nor with nobody to hand to', () => {
    expect(handOffPlan([load('a', 4), load('b', 3)], 1000)).toEqual([]);
    expect(handOffPlan([load('a', 2), load('b', 9)], 1000)).toEqual([]);
    expect(handOffPlan([load('a', 9)], 1000)).toEqual([]);
  });

  it('has two overloaded workers fill a deficit together and no more', () => {
    // Share ceil(20 / 3) = 7: c lacks 7, which a and b each give a part of.
    const loads = [load('a', 10), load('b', 10), load('c', 0)];
    const a = handOffPlan(loads, 1000);
    const b = handOffPlan([loads[1], loads[0], loads[2]], 1000);
    expect(a).toEqual([{ to: life('c'), tables: 3 }]);
    expect(b).toEqual([{ to: life('c'), tables: 3 }]);
    // Share 10, c lacks 7: the first giver by id gives the one left over.
    const odd = [load('a', 14), load('b', 13), load('c', 3)];
    expect(handOffPlan(odd, 1000)).toEqual([{ to: life('c'), tables: 4 }]);
    expect(handOffPlan([odd[1], odd[0], odd[2]], 1000)).toEqual([{ to: life('c'), tables: 3 }]);
  });

  it('spreads its excess over several workers under their share', () => {
    expect(handOffPlan([load('a', 30), load('b', 0), load('c', 6)], 1000)).toEqual([
      { to: life('b'), tables: 12 },
      { to: life('c'), tables: 6 },
    ]);
  });
});

describe("where a stopping worker's tables go", () => {
  it('spreads them over the others, the emptier first, to even loads', () => {
    const ids = Array.from({ length: 12 }, (_, i) => `t${i}`);
    const plan = drainPlan([load('a', 12), load('b', 0), load('c', 4)], ids);
    const counts = Object.fromEntries(plan.map(({ to, tableIds }) => [to.worker, tableIds.length]));
    expect(counts).toEqual({ b: 8, c: 4 });
    expect(plan.flatMap(({ tableIds }) => tableIds).sort()).toEqual([...ids].sort());
  });

  it('keeps them when there is nobody to hand them to', () => {
    expect(drainPlan([load('a', 3)], ['t1', 't2', 't3'])).toEqual([]);
    expect(drainPlan([], ['t1'])).toEqual([]);
  });
});
