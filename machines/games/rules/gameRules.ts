/**
 * Everything that differs between the games, as one value per game
 * (docs/adding-a-game.md). The statecharts are compositions of the same
 * fragments (machines/games/*.ts); what a fragment, the record, the bots or
 * the web client needs to know of a game it asks the game's rules object,
 * registered once in ./index.ts, and never the game's name. A rules object
 * that lacks a field does not compile.
 */
import type { Suit } from '../../cards/card.js';
import type { Rng } from '../../cards/shuffle.js';
import type { HandBasics, ScoredHand } from '../../rules/scoredHand.js';
import type { Seat } from '../../rules/trick.js';
import type { Side, TableContext, TeamTally } from '../../table/context.js';
import type { OptionCatalogue } from '../../table/optionCatalogue.js';
import type { TableOptions } from '../../table/optionTypes.js';

/** What decides the sides of a hand: the seats, and Anti-Cupid's seat where the game has one. */
interface SeatingOfHand {
  readonly seatCount: number;
  readonly antiCupid: Seat | null;
}

/** A role deal: one tracking card per seat, one of them the Traitor (A Traitor of Love). */
interface RoleRules {
  /** The role cards, one per seat, drawn with `rng` in the order the fair-deal scheme fixes. */
  deal(seatCount: number, rng: Rng): Suit[];
  /** Null when `roles` is a role deal of this game; otherwise what is wrong with it. */
  refusal(roles: unknown, seatCount: number): string | null;
}

/** What a seat's heuristic bot knows of a hand, to weigh a marriage (all of it in its view). */
interface BotSight {
  readonly me: Seat;
  readonly seatCount: number;
  readonly antiCupid: Seat | null;
  readonly roleCard: Suit | null;
  readonly marked: TeamTally<readonly Suit[]> | null;
}

/** What the bot's seat gains (positive) or loses when the 7s of `suit` end the hand married by `marrier`'s side, or apart (null). */
type Stake = (suit: Suit, marrier: Seat | null) => number;

/** How the client words the game: its end, its sides, its winners. */
interface GameWords {
  /** What ends the game under `options`, as "the game ends after …" finishes it. */
  end(options: TableOptions): string;
  /** How many hands the game lasts, when that is fixed. */
  handsInGame(options: TableOptions): number | null;
  /** A seat's side in a hand, in words ("Team A", "Anti-Cupid", "Partnership B"); empty before the hand is dealt. */
  side(seat: Seat, hand: SeatingOfHand): string;
  /** A seat's team, known before any deal, for the lobby's seat list: "team A", or null where sides change each hand. */
  fixedTeam(seat: Seat): string | null;
  /** The game's own rules in short, for the client's rules dialog (docs/rules.md has them in full). */
  readonly summary: readonly string[];
  /** Whether the game is won by a team (named as one) or by seats with the highest score. */
  readonly wonBy: 'team' | 'seats';
  /**
   * The game's name, end and rules in short in the client's other languages, by language code (`fr`), worded for the same
   * options: a game added with none is shown in English in those languages, and one added with them needs no edit
   * of the client (services/gateway/web/src/i18n/).
   */
  readonly translations: Readonly<Record<string, TranslatedGameWords>>;
}

/** What a language other than English says of the game, as `end` and `summary` do in English. */
export interface TranslatedGameWords {
  /** The game's name; a name that is a title may stay as it is. */
  readonly title: string;
  end(options: TableOptions): string;
  readonly summary: readonly string[];
}

export interface GameRules {
  readonly title: string;
  readonly seats: number;
  /** The table options of this game in the current rules (earlier rules keep theirs: machines/games/rulebooks.ts). */
  readonly options: OptionCatalogue;
  /** A seat's side in a hand. */
  sideOf(seat: Seat, hand: SeatingOfHand): Side;
  /** Whether a table with these options passes cards before trick play. */
  passes(options: TableOptions): boolean;
  /** The seats a seat passes one card each to. */
  passRecipients(seat: Seat, seatCount: number): Seat[];
  /** The game's role deal, or null where no roles are dealt. */
  readonly roles: RoleRules | null;
  /** Whether each seat names a suspect after the tricks (A Traitor of Love). */
  readonly accuses: boolean;
  /** The hand's Anti-Cupid, and the first hand's from whom it rotates; nulls where the game has none. */
  antiCupidOf(
    handIndex: number,
    holderOfTheOne: Seat,
    firstAntiCupid: Seat | null,
    seatCount: number,
  ): { antiCupid: Seat | null; firstAntiCupid: Seat | null };
  /** Whether the teams mark married suits across hands (Seven Suitors): the context's `marked` and `marriageCount`. */
  readonly marksSuits: boolean;
  /** The hand just played, scored, with whether the game is over. */
  scoreHand(context: TableContext, basics: HandBasics): ScoredHand;
  readonly words: GameWords;
  readonly bot: {
    /** How the bot's seat weighs a marriage. */
    stake(sight: BotSight): Stake;
    /** Whether a friendly pass gives 7s first (to help them marry) rather than strong cards. */
    readonly passesSevensToFriends: boolean;
  };
}
