/** Anti-Cupid's rules (docs/rules.md, "Anti-Cupid"): five players, two partnerships around a rotating spoiler. */
import { SUITS } from '../../cards/card.js';
import type { HandBasics, ScoredHand } from '../../rules/scoredHand.js';
import { scoredInPoints } from '../../rules/scoredHand.js';
import { othersOf, seatsWhere, sideAroundSpoiler } from '../../rules/sides.js';
import type { TableContext } from '../../table/context.js';
import type { AntiCupidOptions } from '../../table/optionTypes.js';
import type { GameRules } from './gameRules.js';

/** Anti-Cupid is played for exactly this many hands, so each seat holds the role once. */
const ANTI_CUPID_HANDS = 5;

const SPECIALS_ONLY = {
  label: 'Special cards',
  values: ['plain', 'powers'],
  default: 'plain',
  impossible: { off: 'specials "off" is impossible in antiCupid: its hand size needs the 60-card deck; use plain or powers' },
  choices: [
    { value: 'plain', label: 'plain special cards' },
    { value: 'powers', label: 'special cards with powers' },
  ],
} as const;

export const antiCupidRules: GameRules = {
  title: 'Anti-Cupid',
  seats: 5,
  options: {
    specials: SPECIALS_ONLY,
    passing: {
      label: 'Passing',
      values: ['none', 'oneEach'],
      default: 'none',
      choices: [
        { value: 'none', label: 'no passing' },
        { value: 'oneEach', label: 'pass one card to each player' },
      ],
    },
  },
  sideOf: (seat, { antiCupid, seatCount }) => sideAroundSpoiler(seat, antiCupid, seatCount),
  passes: (options) => (options as AntiCupidOptions).passing === 'oneEach',
  passRecipients: othersOf,
  roles: null,
  accuses: false,
  antiCupidOf: (handIndex, holderOfTheOne, firstAntiCupid, seatCount) =>
    handIndex === 0 || firstAntiCupid === null
      ? { antiCupid: holderOfTheOne, firstAntiCupid: holderOfTheOne }
      : { antiCupid: (firstAntiCupid + handIndex) % seatCount, firstAntiCupid },
  marksSuits: false,
  scoreHand: scoreAntiCupid,
  words: {
    end: () => 'five hands: everyone is Anti-Cupid once',
    handsInGame: () => ANTI_CUPID_HANDS,
    side: (seat, { antiCupid, seatCount }) => {
      if (antiCupid === null) return '';
      const side = sideAroundSpoiler(seat, antiCupid, seatCount);
      return side === antiCupid ? 'Anti-Cupid' : `Partnership ${side}`;
    },
    fixedTeam: () => null,
    summary: [
      'Five players; each hand one of them is Anti-Cupid and plays alone. The role moves one seat left each hand, so everyone is Anti-Cupid once in the five hands.',
      'Counting left of Anti-Cupid, the 1st and 3rd players are partners (A), and so are the 2nd and 4th (B).',
      'A partnership that marries a suit scores 1 point for each of its two players.',
      'Anti-Cupid wants no marriages: Anti-Cupid scores 1 for every suit left unmarried (its 7s split, or one set aside). If Anti-Cupid captures both 7s of a suit, the other four score 1 each.',
      'After five hands the most points wins.',
    ],
    wonBy: 'seats',
    translations: {
      fr: {
        title: 'Anti-Cupid',
        end: () => 'cinq donnes : chacun est Anti-Cupid une fois',
        summary: [
          'Cinq joueurs ; à chaque donne, l’un d’eux est Anti-Cupid et joue seul. Le rôle passe d’une place vers la gauche à chaque donne : chacun est Anti-Cupid une fois en cinq donnes.',
          'En comptant à partir de la gauche d’Anti-Cupid, le 1er et le 3e joueur sont partenaires (A), de même que le 2e et le 4e (B).',
          'Un partenariat qui marie une couleur marque 1 point pour chacun de ses deux joueurs.',
          'Anti-Cupid ne veut aucun mariage : il marque 1 pour chaque couleur restée non mariée (ses 7 partagés, ou l’un mis de côté). Si Anti-Cupid prend les deux 7 d’une couleur, les quatre autres marquent 1 chacun.',
          'Après cinq donnes, le plus de points gagne.',
        ],
      },
    },
  },
  bot: {
    stake: ({ me, antiCupid, seatCount }) => {
      const side = (seat: number) => sideAroundSpoiler(seat, antiCupid, seatCount);
      if (me === antiCupid) return (_, marrier) => (marrier === null ? 1 : marrier === me ? -1 : -0.5);
      return (_, marrier) => {
        if (marrier === null) return -0.5;
        if (marrier === antiCupid) return 0.25;
        return side(marrier) === side(me) ? 1 : -1;
      };
    },
    passesSevensToFriends: false,
  },
};

/** Per suit: a partnership's marriage scores its two players, Anti-Cupid's own pair the other four, no marriage Anti-Cupid. */
function scoreAntiCupid(context: TableContext, basics: HandBasics): ScoredHand {
  const antiCupid = context.hand!.antiCupid!;
  const sideOfSeat = (seat: number) => sideAroundSpoiler(seat, antiCupid, context.seatCount);
  const handScores = new Array<number>(context.seatCount).fill(0);
  for (const suit of SUITS) {
    const marriage = basics.marriages.find((m) => m.suit === suit);
    if (marriage === undefined) handScores[antiCupid] += 1;
    else if (marriage.by === antiCupid) {
      for (let seat = 0; seat < context.seatCount; seat++) if (seat !== antiCupid) handScores[seat] += 1;
    } else {
      for (const seat of seatsWhere(context.seatCount, sideOfSeat, marriage.by)) handScores[seat] += 1;
    }
  }
  const handsPlayed = context.handResults.length + 1;
  return scoredInPoints(basics, context.scores, handScores, () => handsPlayed >= ANTI_CUPID_HANDS);
}
