/**
 * The diagram model and its writers on a machine with every shape the games
 * do not have yet: parallel regions, history, delays, an invoked actor,
 * multi-target and higher-order-guarded transitions, a root transition into
 * a child.
 */
import { describe, expect, it } from 'vitest';
import { and, assign, createActor, fromPromise, not, setup } from 'xstate';
import { expectDotToShow, expectMermaidToShow, expectSvgToShow } from '../../test/diagramChecks.js';
import { edgeIdsOf, toDot } from './dot.js';
import { toMermaid } from './mermaid.js';
import { diagramModelOf, eventLabel, stateOf } from './model.js';
import { renderSvg } from './svg.js';
import { activeStateIds } from './active.js';

const sample = setup({
  guards: { isReady: () => true, isQuiet: () => false },
  actions: { log: () => {} },
  actors: { fetcher: fromPromise(async () => 1) },
  delays: { brief: 10_000 },
}).createMachine({
  id: 'sample',
  initial: 'idle',
  on: { RESET: { target: '.idle', reenter: true } },
  states: {
    idle: {
      description: 'Nothing happens.',
      on: { GO: { guard: and(['isReady', not('isQuiet')]), target: 'working' }, PING: { actions: 'log' } },
      after: { brief: 'working', 60000: 'finished' },
    },
    working: {
      type: 'parallel',
      entry: ['log', assign({})],
      exit: 'log',
      on: { BOTH: { target: ['.sound.loud', '.light.on'] } },
      invoke: { src: 'fetcher', id: 'fetch', onDone: 'finished', onError: 'idle' },
      states: {
        sound: {
          initial: 'quiet',
          states: { quiet: { on: { LOUD: 'loud' } }, loud: { on: { HUSH: 'quiet', BACK: 'past' } }, past: { type: 'history' } },
        },
        light: { initial: 'off', states: { off: { on: { FLIP: 'on' } }, on: { on: { FLIP: 'off' } } } },
      },
    },
    finished: { type: 'final' },
  },
});

describe('a diagram model', () => {
  const model = diagramModelOf(sample);
  const byId = (id: string) => model.transitions.find((t) => t.id === id);

  it('keeps nesting, parallel regions, initial and final markers, history and descriptions', () => {
    expect(model.states.map((s) => s.id)).toEqual([
      'sample',
      'sample.idle',
      'sample.working',
      'sample.working.sound',
      'sample.working.sound.quiet',
      'sample.working.sound.loud',
      'sample.working.sound.past',
      'sample.working.light',
      'sample.working.light.off',
      'sample.working.light.on',
      'sample.finished',
    ]);
    expect(stateOf(model, 'sample.working').kind).toBe('parallel');
    expect(stateOf(model, 'sample.working.sound').initial).toBe(true);
    expect(stateOf(model, 'sample.working.sound.quiet').initial).toBe(true);
    expect(stateOf(model, 'sample.working.sound.loud').initial).toBe(false);
    expect(stateOf(model, 'sample.working.sound.past')).toMatchObject({ kind: 'history', history: 'shallow' });
    expect(stateOf(model, 'sample.finished').kind).toBe('final');
    expect(stateOf(model, 'sample.idle').description).toBe('Nothing happens.');
    expect(stateOf(model, 'sample.working')).toMatchObject({ entry: ['log', 'assign'], exit: ['log'], invoke: ['fetcher'] });
    // The timers behind `after` are drawn as the delayed transitions, not as entry and exit actions.
    expect(stateOf(model, 'sample.idle')).toMatchObject({ entry: [], exit: [] });
  });

  it('names events, guards and actions as a statechart reads them', () => {
    expect(byId('sample.idle:GO:0')?.guard).toBe('and(isReady, not(isQuiet))');
    expect(byId('sample.idle:PING:0')).toMatchObject({ targetIds: [], actions: ['log'] });
    expect(byId('sample.idle:after(brief):0')?.targetIds).toEqual(['sample.working']);
    expect(byId('sample.idle:after(60000):0')?.targetIds).toEqual(['sample.finished']);
    expect(byId('sample.working:done(fetch):0')?.targetIds).toEqual(['sample.finished']);
    expect(byId('sample.working:error(fetch):0')?.targetIds).toEqual(['sample.idle']);
    expect(byId('sample.working:BOTH:0')?.targetIds).toEqual(['sample.working.sound.loud', 'sample.working.light.on']);
    expect(byId('sample:RESET:0')).toMatchObject({ targetIds: ['sample.idle'], reenter: true });
    expect(eventLabel('', 'x')).toBe('always');
    expect(eventLabel('xstate.done.state.x', 'x')).toBe('done');
  });

  it('shows every state and transition in DOT, Mermaid and SVG, by id', async () => {
    const dot = toDot(model);
    expectDotToShow(sample, model, dot);
    expectMermaidToShow(sample, toMermaid(model));
    expectSvgToShow(sample, model, await renderSvg(dot));
    expect(edgeIdsOf(byId('sample.working:BOTH:0')!)).toEqual([
      'sample.working:BOTH:0:sample.working.sound.loud',
      'sample.working:BOTH:0:sample.working.light.on',
    ]);
  });

  it('separates parallel regions in Mermaid', () => {
    const lines = toMermaid(model)
      .split('\n')
      .map((line) => line.trim());
    const start = lines.indexOf('state sample_working {');
    expect(lines.slice(start).indexOf('--')).toBeGreaterThan(0);
    expect(lines).toContain('sample_finished --> [*]');
  });

  it('reads the active states of a live or a persisted snapshot alike, every region included', () => {
    const actor = createActor(sample).start();
    actor.send({ type: 'GO' });
    const live = actor.getSnapshot();
    const ids = activeStateIds(live);
    expect(ids).toEqual([
      'sample',
      'sample.working',
      'sample.working.sound',
      'sample.working.sound.quiet',
      'sample.working.light',
      'sample.working.light.off',
    ]);
    expect(activeStateIds({ value: live.value }, model)).toEqual(ids);
    expect(() => activeStateIds({ value: live.value })).toThrow(/needs the diagram model/);
    actor.stop();
  });

  it('refuses to highlight a state the machine does not have', () => {
    expect(() => toDot(model, { highlight: ['sample.nowhere'] })).toThrow(/"sample.nowhere" is not a state of sample/);
  });
});
