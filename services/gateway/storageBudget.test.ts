/** The daily storage budget's count of clients stays bounded, forgetting the client charged longest ago. */
import { describe, expect, it } from 'vitest';
import { StorageBudget } from './storageBudget.js';

const written = (version: number) => async () => ({ version });

describe('the daily storage budget', () => {
  it('keeps at most its number of clients, forgetting the one charged longest ago', async () => {
    const budget = new StorageBudget({ eventsPerDay: 10, clients: 2 }, () => Date.UTC(2026, 11, 2, 12));
    await budget.spend('a', written(10));
    await budget.spend('b', written(10));
    await expect(budget.spend('a', written(1))).rejects.toThrow('daily storage budget of 10 events');
    await budget.spend('c', written(10));
    await expect(budget.spend('b', written(1))).rejects.toThrow('daily storage budget of 10 events');
    // a was charged longest ago, so c's count forgot it: its day starts afresh.
    await expect(budget.spend('a', written(1))).resolves.toEqual({ version: 1 });
  });

  it('writes nothing for a refused client', async () => {
    const budget = new StorageBudget({ eventsPerDay: 1, clients: 10 }, () => Date.UTC(2026, 11, 2, 12));
    await budget.spend('a', written(1));
    let wrote = false;
    await expect(
      budget.spend('a', async () => {
        wrote = true;
        return { version: 1 };
      }),
    ).rejects.toMatchObject({ kind: 'rateLimited', retryAfterSeconds: 12 * 60 * 60 });
    expect(wrote).toBe(false);
  });
});
