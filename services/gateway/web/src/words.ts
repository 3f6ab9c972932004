/**
 * Every internal name the client shows, in the players' words, in one
 * place: phases, awaited actions, roles, who won from the viewer's side,
 * and how far through the game a table is ("hand 2 of 5").
 */
import { isGameName, rulesOf } from '../../../../machines/games/rules/index.js';
import { DEFAULT_OPTIONS, type GameName, type TableOptions } from '../../../../machines/table/options.js';
import type { TableView } from '../../../../machines/view.js';
import { words } from './i18n/index.js';
import { teamOf } from './sides.js';

/**
 * Each phase of a table in a few words, for the lobby and the header; a quarantined table (docs/api.md), which the
 * lobby lists though it is no phase of the game, waits for its repair.
 */
export function phaseWords(phase: string): string {
  if (phase === 'quarantined') return words().quarantinedListing;
  const phases: Readonly<Record<string, string>> = words().phases;
  return Object.hasOwn(phases, phase) ? phases[phase] : phase;
}

export function gameTitle(game: string): string {
  return isGameName(game) ? words().games.titles[game] : game;
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
  return of === null ? words().hand(hand) : words().handOf(hand, of);
}

/** "Seat 2 · Alice", or "You" for the viewer's own seat. */
export function seatName(view: TableView, seat: number): string {
  if (view.viewer === seat) return words().you;
  const occupant = view.seats[seat]?.occupant;
  return occupant === null || occupant === undefined ? words().seat(seat) : words().seatOf(seat, occupantName(occupant));
}

/** The occupant's name alone: "Alice", "You", "Seat 3" when empty. */
export function shortName(view: TableView, seat: number): string {
  if (view.viewer === seat) return words().you;
  const occupant = view.seats[seat]?.occupant;
  return occupant === null || occupant === undefined ? words().seat(seat) : occupantName(occupant);
}

/**
 * A seat's occupant as the table names them: a person by their own name; the service's bots ("Heuristic bot 1",
 * "Bot for Ada", in English) in the reader's words.
 */
export function occupantName(occupant: { readonly name: string; readonly bot: boolean }): string {
  if (!occupant.bot) return occupant.name;
  const numbered = /^(Heuristic|Random) bot (\d+)$/.exec(occupant.name);
  if (numbered !== null)
    return numbered[1] === 'Heuristic' ? words().table.heuristicBot(numbered[2]) : words().table.randomBot(numbered[2]);
  if (!occupant.name.startsWith(STAND_IN_PREFIX)) return occupant.name;
  const forWhom = occupant.name.slice(STAND_IN_PREFIX.length);
  const seat = /^seat (\d+)$/.exec(forWhom);
  return seat === null ? words().table.standIn(forWhom) : words().table.standInForSeat(seat[1]);
}

/** How the service names a bot standing in for a person who left (docs/api.md); such a seat may be taken. */
export const STAND_IN_PREFIX = 'Bot for ';

/**
 * Who won, for a line under a headline that has already said "You lost": "Team B wins.", "Ada wins.", never
 * "You lose: …" a second time; otherwise as outcomeSentence.
 */
export function winnersSentence(view: TableView): string {
  if (outcomeForViewer(view) !== 'lost') return outcomeSentence(view);
  const winners = view.outcome?.winners ?? [];
  if (rulesOf(view.game).words.wonBy === 'team') return words().teamWins(teamOf(winners[0]));
  return whoWins(view, winners);
}

/** "Ada wins.", "Ada and Bo share the win." */
function whoWins(view: TableView, winners: readonly number[]): string {
  const names = winners.map((seat) => shortName(view, seat)).join(words().and);
  return winners.length === 1 ? words().oneWins(names) : words().shareTheWin(names);
}

/** The result from the viewer's side: "You win", "Your team wins", "Team B wins", "Ada wins". */
export function outcomeSentence(view: TableView): string {
  const winners = view.outcome?.winners ?? [];
  const viewer = view.viewer;
  if (winners.length === 0) return words().draw;
  if (rulesOf(view.game).words.wonBy === 'team') {
    const team = teamOf(winners[0]);
    if (viewer === 'spectator') return words().teamWins(team);
    return teamOf(viewer) === team ? words().yourTeamWins : words().yourTeamLoses(team);
  }
  if (viewer !== 'spectator' && winners.includes(viewer)) {
    const others = winners.filter((seat) => seat !== viewer).map((seat) => shortName(view, seat));
    return others.length === 0 ? words().youWin : words().youShare(others.join(words().and));
  }
  return viewer === 'spectator' ? whoWins(view, winners) : words().youLose(whoWins(view, winners));
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
