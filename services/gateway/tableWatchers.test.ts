import { describe, expect, it } from 'vitest';
import { withChanges } from '../../machines/viewChanges.js';
import { openLocalStorage } from '../storage/storage.js';
import { TableHost } from '../host/tableHost.js';
import { SEAT_CHANGED_HANDS } from './socketProtocol.js';
import type { TableChange } from './tableFeed.js';
import { TableWatchers, type Watcher } from './tableWatchers.js';

const ANN = 'a'.repeat(64);
const CY = 'c'.repeat(64);

/** A Seven Suitors table with Ann in seat 0 (holding it with ANN) and bots in the others, and its change as it stands. */
async function annsTable() {
  const host = new TableHost({ store: openLocalStorage({ kind: 'memory' }).store });
  const bots = [1, 2, 3].map((seat) => ({ name: `Bot ${seat}`, bot: true }));
  const { tableId } = await host.createTable({ game: 'sevenSuitors', players: [null, ...bots] });
  await host.submit(tableId, { type: 'seat.joined', seat: 0, player: { name: 'Ann', bot: false }, holder: ANN });
  const changeNow = async (): Promise<TableChange> => {
    const { version, snapshot } = await host.snapshot(tableId);
    return { tableId, version, snapshot, turnDeadline: null } as unknown as TableChange;
  };
  return { host, tableId, changeNow };
}

describe('a seat’s socket', () => {
  it('is sent its seat’s view only while its token holds the seat; once the seat changed hands it is closed, and sent nothing', async () => {
    const { host, tableId, changeNow } = await annsTable();
    const sent: string[] = [];
    const closed: number[] = [];
    const socket = (holder: string): Watcher => ({
      viewer: 0,
      holder,
      lastVersion: 0,
      send: (text) => sent.push(text),
      close: (code) => closed.push(code),
    });
    const watchers = new TableWatchers();
    const anns = socket(ANN);
    watchers.watch(tableId, anns);
    watchers.publish(await changeNow());
    expect([sent.length, closed]).toEqual([1, []]);

    // Ann leaves and Cy sits down before Ann's socket hears of it (no dismissSeat reached it).
    await host.submit(tableId, { type: 'seat.left', seat: 0 }, { holder: ANN });
    await host.submit(tableId, { type: 'seat.joined', seat: 0, player: { name: 'Cy', bot: false }, holder: CY });
    watchers.watch(tableId, socket(CY));
    sent.length = 0;
    watchers.publish(await changeNow());
    expect(closed).toEqual([SEAT_CHANGED_HANDS]);
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]).view.seats[0].occupant.name).toBe('Cy');
    await host.close();
  });
});

describe('the views of a change', () => {
  it('are built once per viewer and shared by every socket, whether the change is published, or sent to a socket opened or resuming after it', async () => {
    const { host, tableId, changeNow } = await annsTable();
    const change = await changeNow();
    const { version } = change;
    const sent = new Map<Watcher, string>();
    const socket = (viewer: 0 | 'spectator', lastVersion = 0): Watcher => {
      const watcher: Watcher = {
        viewer,
        ...(viewer === 0 ? { holder: ANN } : {}),
        lastVersion,
        send: (text) => sent.set(watcher, text),
        close: () => undefined,
      };
      return watcher;
    };
    const watchers = new TableWatchers();
    const [ann, annAgain, spectator, another] = [socket(0), socket(0), socket('spectator'), socket('spectator')];
    for (const watcher of [ann, annAgain, spectator, another]) watchers.watch(tableId, watcher);
    const views = watchers.viewsOf(change);
    watchers.publish(change);
    // The same version read again (the relay's or a new socket's read of the table) finds the views already built.
    expect(watchers.viewsOf({ ...change })).toBe(views);
    const resuming = socket(0, version - 1);
    watchers.watch(tableId, resuming);
    watchers.deliver({ ...change }, resuming);

    expect(sent.get(ann)).toBe(views.message(0));
    expect(sent.get(annAgain)).toBe(views.message(0));
    expect(sent.get(resuming)).toBe(views.message(0));
    expect(sent.get(spectator)).toBe(views.message('spectator'));
    expect(sent.get(another)).toBe(views.message('spectator'));
    expect(JSON.parse(views.message('spectator')).view.hand.cards).toBeNull();
    await host.close();
  });
});

describe('a socket that asked for changes', () => {
  it('is sent what changed when it holds the version before, the whole view otherwise, each viewer’s changes made once for all its sockets', async () => {
    const { host, tableId, changeNow } = await annsTable();
    const sent = new Map<Watcher, string[]>();
    const socket = (lastVersion = 0): Watcher => {
      const watcher: Watcher = {
        viewer: 0,
        holder: ANN,
        lastVersion,
        views: 'changes',
        send: (text) => sent.set(watcher, [...(sent.get(watcher) ?? []), text]),
        close: () => undefined,
      };
      return watcher;
    };
    const watchers = new TableWatchers();
    const [ann, annAgain] = [socket(), socket()];
    for (const watcher of [ann, annAgain]) watchers.watch(tableId, watcher);
    const first = await changeNow();
    watchers.publish(first);
    const { version: _, ...firstView } = JSON.parse(sent.get(ann)![0]);
    expect(firstView.type).toBe('view');

    // Ann's passes: a change of one version after the one her sockets hold.
    const cards: string[] = firstView.view.hand.cards;
    await host.submit(
      tableId,
      { type: 'cards.passed', seat: 0, passes: [1, 2, 3].map((to, i) => ({ to, card: cards[i] })) },
      { holder: ANN },
    );
    const second = await changeNow();
    // A socket that opened holding the first version, and one that holds an older version than the first.
    const [resuming, behind] = [socket(first.version), socket(first.version - 1)];
    for (const watcher of [resuming, behind]) watchers.watch(tableId, watcher);
    watchers.publish(second);
    const changes = sent.get(ann)![1];
    expect(JSON.parse(changes)).toMatchObject({ type: 'changes', from: first.version, version: second.version });
    expect(sent.get(annAgain)![1]).toBe(changes);
    expect(sent.get(resuming)).toEqual([changes]);
    expect(JSON.parse(sent.get(behind)![0])).toMatchObject({ type: 'view', version: second.version });
    const whole = JSON.parse(sent.get(behind)![0]);
    expect(withChanges({ ...firstView, version: first.version }, JSON.parse(changes).changes)).toEqual({
      ...whole,
      version: first.version,
    });

    // Once published, the version before is no base any more: a socket still holding it is sent the whole view.
    const late = socket(first.version);
    watchers.watch(tableId, late);
    watchers.deliver(second, late);
    expect(JSON.parse(sent.get(late)![0]).type).toBe('view');
    await host.close();
  });
});
