import { describe, expect, it } from 'vitest';
import type { NoticeMessage, Rematch } from '../socketProtocol.js';
import { TableNotices } from '../tableNotices.js';
import { hashToken } from '../../tokens/seatTokens.js';
import { memoryNoticeBoard, NOTICES_KEPT_MS } from '../notices/noticeBoard.js';
import { RematchProposals, type RematchSeating } from './rematchProposals.js';

const TOKEN = (letter: string) => letter.repeat(43);
const people = (...names: (string | null)[]) =>
  names.map((name) => (name === null ? { name: 'Heuristic bot', bot: true } : { name, bot: false }));

/** Proposals over a finished table of these occupants (null: a bot), with time stepped by the test. */
function setUp(occupants = people('Alice', 'Bob', null, 'Carol'), phase = 'gameOver') {
  const notices = new TableNotices();
  const told: Rematch[] = [];
  const elsewhere: NoticeMessage[] = [];
  notices.listen('t-1', { send: (text) => told.push((JSON.parse(text) as { rematch: Rematch }).rematch) });
  notices.listen('t-2', { send: (text) => elsewhere.push(JSON.parse(text) as NoticeMessage) });
  const opened: RematchSeating[] = [];
  const { now, setTimer, passSeconds } = steppedTime();
  const proposals = new RematchProposals({
    notices,
    board: memoryNoticeBoard({ keepMs: NOTICES_KEPT_MS, now }),
    current: async () => ({ snapshot: { value: phase, context: { occupants } } }),
    open: async (_, seating) => {
      opened.push(seating);
      return 't-rematch';
    },
    seconds: 60,
    now,
    setTimer,
  });
  return { proposals, told, elsewhere, opened, passSeconds };
}

/** A clock and timers the test steps: each timer due runs as the time passes it. */
function steppedTime() {
  let at = Date.parse('2026-12-01T12:00:00Z');
  const timers: { at: number; run: () => void; cancelled: boolean }[] = [];
  return {
    now: () => at,
    setTimer: (run: () => void, ms: number) => {
      const timer = { at: at + ms, run, cancelled: false };
      timers.push(timer);
      return () => {
        timer.cancelled = true;
      };
    },
    passSeconds: (seconds: number) => {
      at += seconds * 1000;
      for (const timer of timers.filter((each) => !each.cancelled && each.at <= at)) {
        timer.cancelled = true;
        timer.run();
      }
    },
  };
}

describe('a shared rematch', () => {
  it('asks every person at the table, tells every socket of the table and none other, and seats those who accepted', async () => {
    const { proposals, told, elsewhere, opened } = setUp();
    const proposed = await proposals.propose('t-1', 0, TOKEN('a'), 'client-a');
    expect(proposed.status).toBe('open');
    expect(proposed.seats).toEqual([
      { seat: 0, name: 'Alice', answer: 'proposed' },
      { seat: 1, name: 'Bob', answer: 'waiting' },
      { seat: 3, name: 'Carol', answer: 'waiting' },
    ]);
    expect(proposed.expiresAt).toBe('2026-12-01T12:01:00.000Z');
    await proposals.answer('t-1', 1, true, TOKEN('b'));
    expect(opened).toEqual([]);
    const settled = await proposals.answer('t-1', 3, false, undefined);
    expect(settled).toMatchObject({ status: 'started', rematchTableId: 't-rematch' });
    expect(opened).toEqual([
      {
        client: 'client-a',
        people: [
          { seat: 0, name: 'Alice', holder: hashToken(TOKEN('a')) },
          { seat: 1, name: 'Bob', holder: hashToken(TOKEN('b')) },
        ],
      },
    ]);
    expect(told.map((each) => each.status)).toEqual(['open', 'open', 'started']);
    expect(JSON.stringify(told)).not.toContain(TOKEN('b'));
    expect(JSON.stringify(told)).not.toContain(hashToken(TOKEN('b')));
    expect(elsewhere).toEqual([]);
  });

  it('expires a proposal nobody answered, and makes no table', async () => {
    const { proposals, told, opened, passSeconds } = setUp();
    await proposals.propose('t-1', 3, TOKEN('c'), 'client-c');
    passSeconds(59);
    expect((await proposals.at('t-1'))?.status).toBe('open');
    passSeconds(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect((await proposals.at('t-1'))?.status).toBe('expired');
    expect(told.at(-1)?.status).toBe('expired');
    expect(opened).toEqual([]);
    // A new proposal may follow; what became of the last one is forgotten two minutes on.
    passSeconds(120);
    expect(await proposals.at('t-1')).toBeNull();
    expect((await proposals.propose('t-1', 1, TOKEN('b'), 'client-b')).status).toBe('open');
  });

  it('at its time, starts with those who accepted even if some never answered', async () => {
    const { proposals, opened, passSeconds } = setUp();
    await proposals.propose('t-1', 0, TOKEN('a'), 'client-a');
    await proposals.answer('t-1', 3, true, TOKEN('c'));
    passSeconds(60);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await proposals.at('t-1')).toMatchObject({ status: 'started', rematchTableId: 't-rematch' });
    expect(opened[0].people.map(({ seat }) => seat)).toEqual([0, 3]);
  });

  it('is declined when every other person declines', async () => {
    const { proposals, opened } = setUp(people('Alice', 'Bob', null, null));
    await proposals.propose('t-1', 0, TOKEN('a'), 'client-a');
    expect((await proposals.answer('t-1', 1, false, undefined)).status).toBe('declined');
    expect(opened).toEqual([]);
  });

  it('opens the table at once for a person alone with bots', async () => {
    const { proposals, opened } = setUp(people(null, 'Alice', null, null));
    expect(await proposals.propose('t-1', 1, TOKEN('a'), 'client-a')).toMatchObject({ status: 'started', rematchTableId: 't-rematch' });
    expect(opened).toEqual([{ client: 'client-a', people: [{ seat: 1, name: 'Alice', holder: hashToken(TOKEN('a')) }] }]);
  });

  it('refuses, changing nothing: a game not over, a second proposal, an answer twice, an acceptance without a token', async () => {
    await expect(setUp(undefined, 'trickPlay').proposals.propose('t-1', 0, TOKEN('a'), 'x')).rejects.toMatchObject({
      kind: 'notNow',
      message: 'the game at table t-1 is not over; a rematch follows its end',
    });
    const { proposals, told } = setUp();
    await expect(proposals.answer('t-1', 1, true, TOKEN('b'))).rejects.toMatchObject({ kind: 'notNow' });
    await proposals.propose('t-1', 0, TOKEN('a'), 'client-a');
    await expect(proposals.propose('t-1', 1, TOKEN('b'), 'client-b')).rejects.toMatchObject({
      kind: 'notNow',
      message: 'Alice has proposed a rematch already: accept or decline it (POST .../rematch/answer)',
    });
    await expect(proposals.answer('t-1', 0, true, TOKEN('a'))).rejects.toMatchObject({
      kind: 'notNow',
      message: 'seat 0 has answered already (proposed)',
    });
    await expect(proposals.answer('t-1', 2, true, TOKEN('x'))).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(proposals.answer('t-1', 1, true, undefined)).rejects.toMatchObject({ kind: 'badRequest' });
    expect((await proposals.at('t-1'))?.seats.map(({ answer }) => answer)).toEqual(['proposed', 'waiting', 'waiting']);
    expect(told).toHaveLength(1);
  });
});

describe('a shared rematch over two gateways', () => {
  /** Two gateways' proposals over one board and one relay, as on NATS, with time stepped by the test. */
  function twoGateways() {
    const notices = new TableNotices();
    const told: Rematch[] = [];
    notices.listen('t-1', { send: (text) => told.push((JSON.parse(text) as { rematch: Rematch }).rematch) });
    const opened: RematchSeating[] = [];
    const { now, setTimer, passSeconds } = steppedTime();
    const board = memoryNoticeBoard({ keepMs: NOTICES_KEPT_MS, now });
    const gateway = (name: string) =>
      new RematchProposals({
        notices,
        board,
        current: async () => ({ snapshot: { value: 'gameOver', context: { occupants: people('Alice', 'Bob', 'Carol', null) } } }),
        open: async (_, seating) => {
          opened.push(seating);
          return `t-rematch-by-${name}`;
        },
        seconds: 60,
        now,
        setTimer,
      });
    return { a: gateway('a'), b: gateway('b'), told, opened, passSeconds };
  }

  it('counts the answers given through either gateway as one proposal, and makes one table', async () => {
    const { a, b, opened } = twoGateways();
    await a.propose('t-1', 0, TOKEN('a'), 'client-a');
    expect((await b.at('t-1'))?.status).toBe('open');
    await expect(b.propose('t-1', 1, TOKEN('b'), 'client-b')).rejects.toMatchObject({ kind: 'notNow' });
    await b.answer('t-1', 1, true, TOKEN('b'));
    const settled = await a.answer('t-1', 2, false, undefined);
    expect(settled).toMatchObject({ status: 'started', rematchTableId: 't-rematch-by-a' });
    expect(await b.at('t-1')).toMatchObject({ status: 'started', rematchTableId: 't-rematch-by-a' });
    expect(opened.map(({ people: seated }) => seated.map(({ seat }) => seat))).toEqual([[0, 1]]);
  });

  it('at its time is settled once, by whichever gateway comes first, though both took part', async () => {
    const { a, b, told, opened, passSeconds } = twoGateways();
    await a.propose('t-1', 0, TOKEN('a'), 'client-a');
    await b.answer('t-1', 1, true, TOKEN('b'));
    passSeconds(60);
    await new Promise((resolve) => setImmediate(resolve));
    expect(opened).toHaveLength(1);
    expect(told.filter((each) => each.status === 'started')).toHaveLength(1);
  });
});
