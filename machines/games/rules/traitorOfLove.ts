/** A Traitor of Love's rules (docs/rules.md, "A Traitor of Love"): two fixed teams of three, one seat secretly the Traitor. */
import { HEARTS, SUITS, isSuit, type Suit } from '../../cards/card.js';
import { shuffle } from '../../cards/shuffle.js';
import type { HandBasics, ScoredHand } from '../../rules/scoredHand.js';
import { scoredInPoints } from '../../rules/scoredHand.js';
import { fixedTeamOf, opponentsOf, teammatesOf } from '../../rules/sides.js';
import type { TableContext } from '../../table/context.js';
import type { GameRules } from './gameRules.js';

/** A Traitor of Love ends after a hand in which someone has more than this. */
const TRAITOR_END_SCORE = 15;

/**
 * A Traitor of Love's rules with the game ending after a hand in which
 * someone has more than `endScore`: the published 15, or another a later
 * rules version chooses (test/nextRelease/rulesTwo.ts plays 10).
 */
export function traitorOfLoveRulesEndingAbove(endScore: number): GameRules {
  return {
    title: 'A Traitor of Love',
    seats: 6,
    options: {
      specials: {
        label: 'Special cards',
        values: ['plain', 'powers'],
        default: 'plain',
        impossible: { off: 'specials "off" is impossible in traitorOfLove: its hand size needs the 60-card deck; use plain or powers' },
        choices: [
          { value: 'plain', label: 'plain special cards' },
          { value: 'powers', label: 'special cards with powers' },
        ],
      },
    },
    sideOf: (seat) => fixedTeamOf(seat),
    passes: () => true,
    passRecipients: opponentsOf,
    roles: {
      deal: (seatCount, rng) => {
        const others = shuffle(
          SUITS.filter((suit) => suit !== HEARTS),
          rng,
        ).slice(0, seatCount - 1);
        return shuffle([...others, HEARTS], rng);
      },
      refusal: (roles, seatCount) => {
        if (!Array.isArray(roles) || roles.length !== seatCount) {
          return `A Traitor of Love deals a tracking card to each of the ${seatCount} seats`;
        }
        if (!roles.every(isSuit) || new Set(roles).size !== roles.length) return 'roles must be distinct suits from 1 to 7';
        if (!(roles as Suit[]).includes(HEARTS)) return 'the roles must include Hearts (7), the Traitor';
        return null;
      },
    },
    accuses: true,
    antiCupidOf: () => ({ antiCupid: null, firstAntiCupid: null }),
    marksSuits: false,
    scoreHand: (context, basics) => scoreTraitorOfLove(context, basics, endScore),
    words: {
      end: () => `the hand after which someone has more than ${endScore} points`,
      handsInGame: () => null,
      side: (seat) => `Team ${fixedTeamOf(seat)}`,
      fixedTeam: (seat) => `team ${fixedTeamOf(seat)}`,
      summary: [
        'Six players in two teams that alternate round the table: seats 0, 2, 4 (team A) and 1, 3, 5 (team B).',
        'Each hand a secret role card is dealt: whoever gets Hearts is the Traitor; everyone else is a Matchmaker. Only you know your role.',
        'Everyone passes one card to each player of the other team.',
        'Matchmakers score 1 for each marriage of their own team. The Traitor wants the other team to marry: 1 point for each of their marriages, nothing for their own team’s.',
        'After the last trick, everyone secretly names a teammate. On the Traitor’s team a Matchmaker who named the Traitor scores +2; the Traitor loses 1 for each teammate who named them and gains 1 for each who did not.',
        `The game ends after a hand in which someone passes ${endScore} points; the highest score wins.`,
      ],
      wonBy: 'seats',
      translations: {
        fr: {
          title: 'A Traitor of Love',
          end: () => `la donne après laquelle quelqu’un a plus de ${endScore} points`,
          summary: [
            'Six joueurs en deux équipes qui alternent autour de la table : les places 0, 2, 4 (équipe A) et 1, 3, 5 (équipe B).',
            'À chaque donne, une carte de rôle secrète est distribuée : qui reçoit Cœurs est le Traître ; tous les autres sont des Entremetteurs. Vous seul connaissez votre rôle.',
            'Chacun passe une carte à chaque joueur de l’autre équipe.',
            'Les Entremetteurs marquent 1 pour chaque mariage de leur équipe. Le Traître veut que l’autre équipe se marie : 1 point pour chacun de ses mariages, rien pour ceux de sa propre équipe.',
            'Après la dernière levée, chacun désigne en secret un coéquipier. Dans l’équipe du Traître, un Entremetteur qui a désigné le Traître marque +2 ; le Traître perd 1 pour chaque coéquipier qui l’a désigné et gagne 1 pour chacun des autres.',
            `La partie se termine après une donne où quelqu’un dépasse ${endScore} points ; le meilleur score gagne.`,
          ],
        },
      },
    },
    bot: {
      stake: ({ me, roleCard }) => {
        const traitor = roleCard === HEARTS;
        return (_, marrier) => {
          if (marrier === null) return 0;
          const ours = fixedTeamOf(marrier) === fixedTeamOf(me);
          if (traitor) return ours ? -0.5 : 1;
          return ours ? 1 : -0.5;
        };
      },
      passesSevensToFriends: true,
    },
  };
}

export const traitorOfLoveRules: GameRules = traitorOfLoveRulesEndingAbove(TRAITOR_END_SCORE);

/** Marriages score Matchmakers for their own team and the Traitor for the other; then the accusation bonus. */
function scoreTraitorOfLove(context: TableContext, basics: HandBasics, endScore: number): ScoredHand {
  const hand = context.hand!;
  const traitor = hand.roles!.indexOf(HEARTS);
  const handScores = new Array<number>(context.seatCount).fill(0);
  for (const marriage of basics.marriages) {
    for (let seat = 0; seat < context.seatCount; seat++) {
      const ownTeam = marriage.by === fixedTeamOf(seat);
      if (seat === traitor ? !ownTeam : ownTeam) handScores[seat] += 1;
    }
  }
  for (const mate of teammatesOf(traitor, context.seatCount)) {
    if (hand.accusations![mate] === traitor) {
      handScores[mate] += 2;
      handScores[traitor] -= 1;
    } else {
      handScores[traitor] += 1;
    }
  }
  return scoredInPoints(basics, context.scores, handScores, (scores) => scores.some((score) => score > endScore));
}
