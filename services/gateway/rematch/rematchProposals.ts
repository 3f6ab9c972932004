/**
 * A rematch shared by the people at a finished table: one proposes, every
 * other person at the table is told and accepts or declines, and once all
 * have answered (or the proposal's time is up) the new table seats those who
 * accepted, each in the seat they had, with bots for the rest. A proposal
 * nobody but its proposer accepted is declined, or expires unanswered, and
 * makes nothing. A proposer alone at a table of bots gets the table at once.
 *
 * Each person who accepts sends the token they made for the new table (as a
 * join does, seatJoin.ts); only its hash is kept, and their seat there is
 * held by that hash from the start, so no token is ever sent to anyone or
 * stored. The proposal is kept on the notice board the gateways share
 * (notices/noticeBoard.ts), one per table, changed by compare-and-set: the
 * answers, the count and the settling are one truth, whichever gateway each
 * person is on. Every gateway that took a proposal or an answer settles it
 * at its time, should no other have; the board forgets it a while after its
 * last change.
 */
import type { Seat } from '../../../machines/rules/trick.js';
import { phaseOf } from '../../../machines/table/snapshot.js';
import { hashToken } from '../../tokens/seatTokens.js';
import { changeEntry, type NoticeBoard } from '../notices/noticeBoard.js';
import type { TableNotices } from '../tableNotices.js';
import type { Rematch, RematchAnswer } from '../socketProtocol.js';
import { GatewayRefusal } from '../refusals.js';

/** What a rematch needs of the finished table. */
interface FinishedTable {
  readonly snapshot: {
    readonly value: unknown;
    readonly context: { readonly occupants: readonly ({ name: string; bot: boolean } | null)[] };
  };
}

/** Who takes which seat of the new table: the people who accepted, by their new tokens' hashes; every other seat is a bot's. */
export interface RematchSeating {
  readonly people: readonly { readonly seat: Seat; readonly name: string; readonly holder: string }[];
  /** The client that proposed it, whose tables waiting for players the new one counts among. */
  readonly client: string;
}

export interface RematchProposalsOptions {
  readonly notices: TableNotices;
  readonly board: NoticeBoard;
  readonly current: (tableId: string) => Promise<FinishedTable>;
  /** Makes the new table and seats the people; resolves to its id. */
  readonly open: (tableId: string, seating: RematchSeating) => Promise<string>;
  /** How long a proposal waits for answers. */
  readonly seconds: number;
  readonly now?: () => number;
  readonly setTimer?: (run: () => void, ms: number) => () => void;
  readonly onError?: (error: unknown, tableId: string) => void;
}

/** A proposal as the board keeps it: the rematch as everyone sees it, and what only the gateways know. */
interface Proposal {
  readonly rematch: Rematch;
  /** Per seat that accepted (the proposer included), the hash of the token it made for the new table. */
  readonly holders: Readonly<Record<string, string>>;
  readonly client: string;
}

const keyOf = (tableId: string) => `rematch.${tableId}`;
const parse = (kept: string | null): Proposal | null => (kept === null ? null : (JSON.parse(kept) as Proposal));

export class RematchProposals {
  private readonly settleTimers = new Map<string, () => void>();
  private readonly now: () => number;
  private readonly setTimer: (run: () => void, ms: number) => () => void;

  constructor(private readonly options: RematchProposalsOptions) {
    this.now = options.now ?? Date.now;
    this.setTimer =
      options.setTimer ??
      ((run, ms) => {
        const timer = setTimeout(run, ms);
        timer.unref();
        return () => clearTimeout(timer);
      });
    options.notices.standFrom(async (tableId) => {
      const rematch = await this.at(tableId);
      return rematch === null ? [] : [{ type: 'rematch', rematch }];
    });
  }

  /** The rematch as it stands at the table, if one does. */
  async at(tableId: string): Promise<Rematch | null> {
    return parse((await this.options.board.read(keyOf(tableId)))?.value ?? null)?.rematch ?? null;
  }

  async propose(tableId: string, seat: Seat, token: string, client: string): Promise<Rematch> {
    const { snapshot } = await this.options.current(tableId);
    if (phaseOf(snapshot) !== 'gameOver')
      throw new GatewayRefusal('notNow', `the game at table ${tableId} is not over; a rematch follows its end`);
    const people = snapshot.context.occupants.flatMap((occupant, each) =>
      occupant === null || occupant.bot ? [] : [{ seat: each, name: occupant.name }],
    );
    const rematch = await changeEntry(this.options.board, keyOf(tableId), (kept) => {
      const standing = parse(kept)?.rematch;
      if (standing !== undefined) this.refuseAnother(standing);
      const proposal: Proposal = {
        rematch: {
          tableId,
          round: (standing?.round ?? 0) + 1,
          proposer: seat,
          seats: people.map((person) => ({ ...person, answer: person.seat === seat ? 'proposed' : 'waiting' })),
          status: 'open',
          expiresAt: new Date(this.now() + this.options.seconds * 1000).toISOString(),
          rematchTableId: null,
        },
        holders: { [seat]: hashToken(token) },
        client,
      };
      return { next: JSON.stringify(proposal), result: proposal.rematch };
    });
    if (people.length <= 1) return (await this.settle(tableId, rematch.round)) ?? rematch;
    return this.told(tableId, rematch);
  }

  async answer(tableId: string, seat: Seat, accept: boolean, token: string | undefined): Promise<Rematch> {
    const rematch = await changeEntry(this.options.board, keyOf(tableId), (kept) => {
      const proposal = parse(kept);
      if (proposal === null || proposal.rematch.status !== 'open')
        throw new GatewayRefusal('notNow', `no rematch is proposed at table ${tableId} now; propose one with POST .../rematch`);
      const own = proposal.rematch.seats.find((each) => each.seat === seat);
      if (own === undefined)
        throw new GatewayRefusal('forbidden', `seat ${seat} was not a person's at the end of the game; the rematch is for those who were`);
      if (own.answer !== 'waiting') throw new GatewayRefusal('notNow', `seat ${seat} has answered already (${own.answer})`);
      if (accept && token === undefined)
        throw new GatewayRefusal(
          'badRequest',
          'body.token is needed to accept: the seat token you made for the new table (32 random bytes, base64url)',
        );
      const answered = withAnswer(proposal, seat, accept ? { accepted: hashToken(token!) } : 'declined');
      return { next: JSON.stringify(answered), result: answered.rematch };
    });
    if (rematch.seats.every((each) => each.answer !== 'waiting')) return (await this.settle(tableId, rematch.round)) ?? rematch;
    return this.told(tableId, rematch);
  }

  private refuseAnother(standing: Rematch): void {
    if (standing.status === 'open' && Date.parse(standing.expiresAt) > this.now()) {
      const by = standing.seats.find((each) => each.seat === standing.proposer)?.name ?? 'someone';
      throw new GatewayRefusal('notNow', `${by} has proposed a rematch already: accept or decline it (POST .../rematch/answer)`);
    }
    if (standing.status === 'started')
      throw new GatewayRefusal('notNow', `the rematch has started already, at table ${standing.rematchTableId}`);
  }

  /** Tells the table how the open rematch stands, and settles it at its time here should no other gateway. */
  private told(tableId: string, rematch: Rematch): Rematch {
    this.options.notices.tell(tableId, { type: 'rematch', rematch });
    if (!this.settleTimers.has(tableId)) {
      const cancel = this.setTimer(
        () => {
          this.settleTimers.delete(tableId);
          this.settle(tableId, rematch.round).catch((error: unknown) => this.options.onError?.(error, tableId));
        },
        Math.max(0, Date.parse(rematch.expiresAt) - this.now()),
      );
      this.settleTimers.set(tableId, cancel);
    }
    return rematch;
  }

  /**
   * Every answer is in, or the time is up: the new table, if anyone but the
   * proposer accepted. Settled on the board before the table is made, so one
   * gateway alone makes it, and an answer arriving meanwhile is refused rather
   * than lost. Null when this round was settled already (elsewhere, or earlier).
   */
  private async settle(tableId: string, round: number): Promise<Rematch | null> {
    this.settleTimers.get(tableId)?.();
    this.settleTimers.delete(tableId);
    const key = keyOf(tableId);
    const settled = await changeEntry(this.options.board, key, (kept) => {
      const proposal = parse(kept);
      if (proposal === null || proposal.rematch.round !== round || proposal.rematch.status !== 'open') return { result: null };
      const { seats } = proposal.rematch;
      const accepted = seats.filter((each) => each.answer === 'accepted' || each.answer === 'proposed');
      const joined = seats.length <= 1 || accepted.length > 1;
      const status = joined ? 'started' : seats.some((each) => each.answer === 'waiting') ? 'expired' : 'declined';
      const next: Proposal = { ...proposal, rematch: { ...proposal.rematch, status }, holders: {} };
      return { next: JSON.stringify(next), result: { proposal, rematch: next.rematch, accepted } };
    });
    if (settled === null) return null;
    let { rematch } = settled;
    if (rematch.status === 'started') {
      const { proposal, accepted } = settled;
      const people = accepted.map(({ seat, name }) => ({ seat, name, holder: proposal.holders[seat] }));
      let rematchTableId: string | null = null;
      try {
        rematchTableId = await this.options.open(tableId, { people, client: proposal.client });
      } catch (error) {
        this.options.onError?.(error, tableId);
        if (rematch.seats.length <= 1) {
          await this.options.board.remove(key);
          throw error;
        }
      }
      rematch = { ...rematch, status: rematchTableId === null ? 'expired' : 'started', rematchTableId };
      const outcome = rematch;
      await changeEntry(this.options.board, key, (kept) => {
        const now = parse(kept);
        return now?.rematch.round === round ? { next: JSON.stringify({ ...now, rematch: outcome }), result: null } : { result: null };
      });
    }
    this.options.notices.tell(tableId, { type: 'rematch', rematch });
    return rematch;
  }
}

/** The proposal with the seat's answer recorded, and the new token's hash of a seat that accepted. */
function withAnswer(proposal: Proposal, seat: Seat, answer: { readonly accepted: string } | 'declined'): Proposal {
  const recorded: RematchAnswer = answer === 'declined' ? 'declined' : 'accepted';
  return {
    ...proposal,
    rematch: {
      ...proposal.rematch,
      seats: proposal.rematch.seats.map((each) => (each.seat === seat ? { ...each, answer: recorded } : each)),
    },
    holders: answer === 'declined' ? proposal.holders : { ...proposal.holders, [seat]: answer.accepted },
  };
}
