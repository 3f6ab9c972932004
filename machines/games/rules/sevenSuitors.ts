/** Seven Suitors' rules (docs/rules.md, "Seven Suitors"): two fixed partnerships mark off the suits they marry. */
import { SUITS, type Suit } from '../../cards/card.js';
import type { HandBasics, ScoredHand } from '../../rules/scoredHand.js';
import { fixedTeamOf, othersOf } from '../../rules/sides.js';
import type { Seat } from '../../rules/trick.js';
import type { TableContext, Team, TeamTally } from '../../table/context.js';
import { parseEnd, type EndCondition, type SevenSuitorsOptions } from '../../table/optionTypes.js';
import type { GameRules } from './gameRules.js';

const TEAMS: readonly Team[] = ['A', 'B'];

/** The teams of four in French, as a first lesson says them too. */
export const TEAMS_OF_FOUR_FR =
  'Quatre joueurs en deux équipes : les places 0 et 2 (équipe A) contre les places 1 et 3 (équipe B) ; les partenaires sont face à face.';

export const sevenSuitorsRules: GameRules = {
  title: 'Seven Suitors',
  seats: 4,
  options: {
    end: {
      label: 'Game ends after',
      values: ['allSuits', 'hands:K', 'marriages:M'],
      default: 'allSuits',
      shorthands: { hands: 'hands:7', marriages: 'marriages:10' },
      choices: [
        { value: 'allSuits', label: 'first team to mark all seven suits' },
        { value: 'hands:1', label: 'one hand' },
        { value: 'hands:2', label: '2 hands' },
        { value: 'hands:3', label: '3 hands' },
        { value: 'hands:5', label: '5 hands' },
        { value: 'hands:7', label: '7 hands' },
        { value: 'marriages:10', label: 'first to 10 marriages' },
      ],
    },
    specials: {
      label: 'Special cards',
      values: ['off', 'plain', 'powers'],
      default: 'off',
      choices: [
        { value: 'off', label: 'no special cards' },
        { value: 'plain', label: 'plain special cards' },
        { value: 'powers', label: 'special cards with powers' },
      ],
    },
  },
  sideOf: (seat) => fixedTeamOf(seat),
  passes: () => true,
  passRecipients: othersOf,
  roles: null,
  accuses: false,
  antiCupidOf: () => ({ antiCupid: null, firstAntiCupid: null }),
  marksSuits: true,
  scoreHand: scoreSevenSuitors,
  words: {
    end: (options) => endWords((options as SevenSuitorsOptions).end),
    handsInGame: (options) => {
      const end = parseEnd((options as SevenSuitorsOptions).end);
      return end.kind === 'hands' ? end.hands : null;
    },
    side: (seat) => `Team ${fixedTeamOf(seat)}`,
    fixedTeam: (seat) => `team ${fixedTeamOf(seat)}`,
    summary: [
      'Four players in two teams: seats 0 and 2 (team A) against seats 1 and 3 (team B); partners sit opposite.',
      'Before play, everyone passes one card to each other player at the same time.',
      'Every suit your team marries is marked off for your team for the rest of the game, and counts as a marriage.',
    ],
    wonBy: 'team',
    translations: {
      fr: {
        title: 'Seven Suitors',
        end: (options) => frenchEndWords((options as SevenSuitorsOptions).end),
        summary: [
          TEAMS_OF_FOUR_FR,
          'Avant de jouer, chacun passe en même temps une carte à chacun des autres joueurs.',
          'Chaque couleur que votre équipe marie est marquée pour votre équipe jusqu’à la fin de la partie, et compte comme un mariage.',
        ],
      },
    },
  },
  bot: {
    stake:
      ({ me, marked }) =>
      (suit, marrier) => {
        if (marrier === null) return 0;
        const team = fixedTeamOf(marrier);
        const newlyMarked = marked![team].includes(suit) ? 0 : 0.5;
        return (team === fixedTeamOf(me) ? 1 : -1) * (1 + newlyMarked);
      },
    passesSevensToFriends: false,
  },
};

function frenchEndWords(end: EndCondition): string {
  const parsed = parseEnd(end);
  if (parsed.kind === 'allSuits') return 'la première équipe à marier les sept couleurs';
  if (parsed.kind === 'hands') return `${parsed.hands} donne${parsed.hands === 1 ? '' : 's'}, puis le plus de couleurs marquées`;
  return `la première équipe à ${parsed.marriages} mariages`;
}

function endWords(end: EndCondition): string {
  const parsed = parseEnd(end);
  if (parsed.kind === 'allSuits') return 'the first team to marry all seven suits';
  if (parsed.kind === 'hands') return `${parsed.hands} hand${parsed.hands === 1 ? '' : 's'}, then the most suits marked`;
  return `the first team to ${parsed.marriages} marriages`;
}

function scoreSevenSuitors(context: TableContext, basics: HandBasics): ScoredHand {
  const marked = { A: context.marked!.A.slice(), B: context.marked!.B.slice() };
  const marriageCount = { ...context.marriageCount! };
  const handMarriages = { A: 0, B: 0 };
  for (const { suit, by } of basics.marriages) {
    const team = by as Team;
    marriageCount[team] += 1;
    handMarriages[team] += 1;
    if (!marked[team].includes(suit)) marked[team] = [...marked[team], suit].sort((a, b) => a - b);
  }
  const scores = Array.from({ length: context.seatCount }, (_, seat) => marked[fixedTeamOf(seat)].length);
  const decision = decide(context, marked, marriageCount, handMarriages);
  const winners = decision.winner === undefined ? [] : seatsOfTeam(context.seatCount, decision.winner);
  return {
    result: { ...basics, handScores: new Array<number>(context.seatCount).fill(0), marked, marriageCount },
    scores,
    marked,
    marriageCount,
    tieBreak: decision.tieBreak,
    outcome: decision.over ? { finished: true, scores, winners } : null,
  };
}

interface Decision {
  readonly over: boolean;
  /** Undefined with `over` is a draw. */
  readonly winner?: Team;
  readonly tieBreak: boolean;
}

const CONTINUE: Decision = { over: false, tieBreak: false };

function decide(
  context: TableContext,
  marked: TeamTally<readonly Suit[]>,
  count: TeamTally<number>,
  handMarriages: TeamTally<number>,
): Decision {
  const end = parseEnd((context.options as SevenSuitorsOptions).end);
  if (end.kind === 'allSuits') {
    if (context.tieBreak) {
      const winner = higher(handMarriages);
      return winner === undefined ? { over: false, tieBreak: true } : { over: true, winner, tieBreak: false };
    }
    const complete = TEAMS.filter((team) => marked[team].length === SUITS.length);
    if (complete.length === 1) return { over: true, winner: complete[0], tieBreak: false };
    if (complete.length === 2) {
      const winner = higher(count);
      return winner === undefined ? { over: false, tieBreak: true } : { over: true, winner, tieBreak: false };
    }
    return CONTINUE;
  }
  if (end.kind === 'hands') {
    if (context.handResults.length + 1 < end.hands) return CONTINUE;
    const winner = higher({ A: marked.A.length, B: marked.B.length }) ?? higher(count);
    return { over: true, winner, tieBreak: false };
  }
  const reached = TEAMS.filter((team) => count[team] >= end.marriages);
  if (reached.length === 0) return CONTINUE;
  return { over: true, winner: reached.length === 1 ? reached[0] : higher(count), tieBreak: false };
}

function higher(tally: TeamTally<number>): Team | undefined {
  if (tally.A === tally.B) return undefined;
  return tally.A > tally.B ? 'A' : 'B';
}

function seatsOfTeam(seatCount: number, team: Team): Seat[] {
  return Array.from({ length: seatCount }, (_, seat) => seat).filter((seat) => fixedTeamOf(seat) === team);
}
