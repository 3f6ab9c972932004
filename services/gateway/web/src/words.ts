/**
 * Every internal name the client shows, in the players' words, in one
 * place: phases, awaited actions, roles, who won from the viewer's side,
 * and how far through the game a table is ("hand 2 of 5").
 */
import type { Phase } from '../../../../machines/table/snapshot.js';
import type { Action } from '../../../../machines/table/refusal.js';
import { GAME_NAMES, isGameName, rulesOf } from '../../../../machines/games/rules/index.js';
import { DEFAULT_OPTIONS, type GameName, type TableOptions } from '../../../../machines/table/options.js';
import type { TableView } from '../../../../machines/view.js';
import { teamOf } from './sides.js';

/** Each phase of a table: a few words for the lobby and the header. */
const PHASE_WORDS: Record<Phase, string> = {
  seating: 'Waiting for players',
  dealing: 'Dealing',
  passing: 'Passing cards',
  trickPlay: 'Playing tricks',
  accusation: 'Naming the Traitor',
  scoring: 'Scoring the hand',
  gameOver: 'Game over',
};

/** What a seat is awaited to do, as "Waiting for Bo to …". */
export const ACTION_WORDS: Record<Action, string> = {
  pass: 'pass cards',
  play: 'play',
  accuse: 'name a teammate',
};

export const GAME_TITLES: Record<GameName, string> = Object.fromEntries(GAME_NAMES.map((game) => [game, rulesOf(game).title])) as Record<
  GameName,
  string
>;

/** The lobby's words for what is not a phase of the game: a quarantined table (docs/api.md) waits for its repair. */
const LISTING_WORDS: Readonly<Record<string, string>> = { quarantined: "Stopped: waiting for the operator's repair" };

export function phaseWords(phase: string): string {
  return PHASE_WORDS[phase as Phase] ?? LISTING_WORDS[phase] ?? phase;
}

export function gameTitle(game: string): string {
  return GAME_TITLES[game as GameName] ?? game;
}

/** A table's rules options as the view or the lobby carries them (TableOptions, or what the lobby learnt). */
export type OptionsLike = object | null | undefined;

/** One rules option, as a string when it is set. */
export function optionOf(options: OptionsLike, name: string): string | undefined {
  const value = (options as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** A table's options with the game's defaults for any the caller did not learn. */
function withDefaults(game: GameName, options: OptionsLike): TableOptions {
  return { ...DEFAULT_OPTIONS[game], ...(options ?? {}) } as unknown as TableOptions;
}

/** How many hands the game lasts, when that is fixed: Anti-Cupid's five, Seven Suitors' `end: hands:K`. */
function handsInGame(game: string, options: OptionsLike): number | null {
  return isGameName(game) ? rulesOf(game).words.handsInGame(withDefaults(game, options)) : null;
}

/** "hand 2 of 5", or "hand 2" when the game has no fixed length. */
export function handProgress(hand: number, game: string, options: OptionsLike): string {
  const of = handsInGame(game, options);
  return of === null ? `hand ${hand}` : `hand ${hand} of ${of}`;
}

/** "Seat 2 · Alice", or "You" for the viewer's own seat. */
export function seatName(view: TableView, seat: number): string {
  if (view.viewer === seat) return 'You';
  const occupant = view.seats[seat]?.occupant;
  return occupant === null || occupant === undefined ? `Seat ${seat}` : `Seat ${seat} · ${occupant.name}`;
}

/** The occupant's name alone: "Alice", "You", "Seat 3" when empty. */
export function shortName(view: TableView, seat: number): string {
  if (view.viewer === seat) return 'You';
  return view.seats[seat]?.occupant?.name ?? `Seat ${seat}`;
}

/**
 * Who won, for a line under a headline that has already said "You lost": "Team B wins.", "Ada wins.", never
 * "You lose: …" a second time; otherwise as outcomeSentence.
 */
export function winnersSentence(view: TableView): string {
  if (outcomeForViewer(view) !== 'lost') return outcomeSentence(view);
  const winners = view.outcome?.winners ?? [];
  if (rulesOf(view.game).words.wonBy === 'team') return `Team ${teamOf(winners[0])} wins.`;
  const names = winners.map((seat) => shortName(view, seat));
  return `${names.join(' and ')} ${winners.length === 1 ? 'wins' : 'share the win'}.`;
}

/** The result from the viewer's side: "You win", "Your team wins", "Team B wins", "Ada wins". */
export function outcomeSentence(view: TableView): string {
  const winners = view.outcome?.winners ?? [];
  const viewer = view.viewer;
  if (winners.length === 0) return 'The game is a draw.';
  if (rulesOf(view.game).words.wonBy === 'team') {
    const team = teamOf(winners[0]);
    if (viewer === 'spectator') return `Team ${team} wins.`;
    return teamOf(viewer) === team ? 'Your team wins!' : `Your team loses: team ${team} wins.`;
  }
  if (viewer !== 'spectator' && winners.includes(viewer)) {
    const others = winners.filter((seat) => seat !== viewer).map((seat) => shortName(view, seat));
    return others.length === 0 ? 'You win!' : `You share the win with ${others.join(' and ')}.`;
  }
  const names = winners.map((seat) => shortName(view, seat));
  const verb = winners.length === 1 ? 'wins' : 'share the win';
  return viewer === 'spectator' ? `${names.join(' and ')} ${verb}.` : `You lose: ${names.join(' and ')} ${verb}.`;
}

/** Won, lost, drawn or watched, for the game-over screen's headline and its class. */
export function outcomeForViewer(view: TableView): 'won' | 'lost' | 'draw' | 'watched' {
  const winners = view.outcome?.winners ?? [];
  if (winners.length === 0) return 'draw';
  if (view.viewer === 'spectator') return 'watched';
  const viewer = view.viewer;
  if (rulesOf(view.game).words.wonBy === 'team') return teamOf(winners[0]) === teamOf(viewer) ? 'won' : 'lost';
  return winners.includes(viewer) ? 'won' : 'lost';
}

/** The two 7s of a suit, in words: shown wherever 7a or 7b is. */
export const SEVENS_EXPLAINED =
  'Every suit has two 7s, written 7a and 7b. The letters only tell the two cards apart: they rank the same, and when both would win a trick, the one played first wins.';
