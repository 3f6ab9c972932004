/**
 * Highlighting: drive a real table with the simulator's host and random
 * bots through a whole hand; at every change of state the highlighted
 * elements of the diagram are exactly the state nodes the actor is in.
 */
import { describe, expect, it } from 'vitest';
import { optionsOf } from '../../test/kit/table.js';
import { createRng } from '../../machines/cards/shuffle.js';
import { rulesOf } from '../../machines/games/rules/index.js';
import { DEFAULT_OPTIONS, GAME_NAMES } from '../../machines/table/options.js';
import { offer, startTable, type TableSnapshot } from '../../machines/table/snapshot.js';
import { nextSimulatedEvent } from '../simulator/simulate.js';
import { activeStateIds } from './active.js';
import { activeSvgIdsOf } from '../../test/diagramChecks.js';
import { toDot } from './dot.js';
import { modelOfGame } from './files.js';
import type { DiagramModel } from './model.js';
import { renderSvg } from './svg.js';

/** The actor's own answer, state by state: is it in this state? */
function statesTheActorIsIn(model: DiagramModel, snapshot: TableSnapshot): string[] {
  return model.states
    .filter((state) => state.parentId === null || snapshot.matches(state.id.slice(model.id.length + 1) as never))
    .map((state) => state.id);
}

async function expectHighlightToBe(model: DiagramModel, snapshot: TableSnapshot, rendered: Map<string, string>) {
  const ids = activeStateIds(snapshot);
  // As a set: a finished actor lists its nodes from the final state up, the highlight in document order.
  expect([...ids].sort()).toEqual(snapshot._nodes.map((node) => node.id).sort());
  expect(ids).toEqual(statesTheActorIsIn(model, snapshot));
  // A persisted snapshot, as a browser would be sent, has only its value.
  expect(activeStateIds(JSON.parse(JSON.stringify(snapshot)), model)).toEqual(ids);
  const dot = toDot(model, { highlight: ids });
  const key = ids.join(' ');
  if (!rendered.has(key)) rendered.set(key, await renderSvg(dot));
  expect(activeSvgIdsOf(rendered.get(key)!).sort()).toEqual([...ids].sort());
  return ids;
}

describe.each(GAME_NAMES)('the highlighted states of a %s table', (game) => {
  it('are the states the actor is in, through a whole hand, and move when a card is played', async () => {
    const model = modelOfGame(game);
    const table = startTable({ game, options: optionsOf(game, DEFAULT_OPTIONS[game]) });
    const rng = createRng(`diagram-${game}`);
    const rendered = new Map<string, string>();
    const seen = new Set<string>();
    let highlighted = await expectHighlightToBe(model, table.getSnapshot(), rendered);
    let cardPlaysChecked = 0;
    // One whole hand: until the table is dealing again, or the game is over.
    while (table.getSnapshot().context.handResults.length === 0) {
      const before = table.getSnapshot();
      const event = nextSimulatedEvent(before, rng);
      if (event === null) break;
      expect(offer(table, event), event.type).toBe(true);
      const after = await expectHighlightToBe(model, table.getSnapshot(), rendered);
      if (event.type === 'card.played') {
        // The card that leads a trick and the one that completes it move the table; those between stay in following.
        const played = before.context.hand!.trick!.plays.length;
        const moves = played === 0 || played === before.context.seatCount - 1;
        if (moves) expect(after).not.toEqual(highlighted);
        else expect(after).toEqual(highlighted);
        if (played === 0) {
          expect(highlighted).toContain(`${model.id}.trickPlay.leading`);
          expect(after).toContain(`${model.id}.trickPlay.following`);
          expect(after).not.toContain(`${model.id}.trickPlay.leading`);
        }
        cardPlaysChecked++;
      }
      highlighted = after;
      for (const id of after) seen.add(id);
    }
    expect(cardPlaysChecked).toBeGreaterThan(0);
    const phases = [...seen].map((id) => id.slice(model.id.length + 1)).filter((path) => path !== '');
    expect(phases).toEqual(expect.arrayContaining(['dealing', 'trickPlay', 'trickPlay.leading', 'trickPlay.following']));
    if (rulesOf(game).passes(optionsOf(game, DEFAULT_OPTIONS[game]))) expect(phases).toContain('passing');
    if (game === 'traitorOfLove') expect(phases).toContain('accusation');
    table.stop();
  });
});
