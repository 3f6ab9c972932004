/**
 * A rematch shared by the people at a finished table: one proposes, every
 * other person at the table is told and accepts or declines, and once all
 * have answered (or the proposal's time is up) the new table seats those who
 * accepted, each in the seat they had, with bots for the rest. A proposal
 * nobody but its proposer accepted is declined, or expires unanswered, and
 * makes nothing. A proposer alone at a table of bots gets the table at once.
 *
 * Each person who accepts sends the token they made for the new table (as a
 * join does, seatJoin.ts), so their seat there is theirs from the start and
 * no token is ever sent to anyone. Proposals live in this gateway's memory,
 * one per table at most, and each is dropped a while after it settles.
 */
import type { Seat } from '../../../machines/rules/trick.js';
import { phaseOf } from '../../../machines/table/snapshot.js';
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

/** Who takes which seat of the new table: the people who accepted, with the tokens they made; every other seat is a bot's. */
export interface RematchSeating {
  readonly people: readonly { readonly seat: Seat; readonly name: string; readonly token: string }[];
  /** The client that proposed it, whose tables waiting for players the new one counts among. */
  readonly client: string;
}

export interface RematchProposalsOptions {
  readonly notices: TableNotices;
  readonly current: (tableId: string) => Promise<FinishedTable>;
  /** Makes the new table and seats the people; resolves to its id. */
  readonly open: (tableId: string, seating: RematchSeating) => Promise<string>;
  /** How long a proposal waits for answers. */
  readonly seconds: number;
  readonly now?: () => number;
  readonly setTimer?: (run: () => void, ms: number) => () => void;
  readonly onError?: (error: unknown, tableId: string) => void;
}

interface Proposal {
  rematch: Rematch;
  readonly tokens: Map<Seat, string>;
  readonly client: string;
  cancelTimer: () => void;
}

export class RematchProposals {
  private readonly proposals = new Map<string, Proposal>();
  private proposalsMade = 0;
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
  }

  /** The rematch as it stands at the table, if one does. */
  at(tableId: string): Rematch | null {
    return this.proposals.get(tableId)?.rematch ?? null;
  }

  async propose(tableId: string, seat: Seat, token: string, client: string): Promise<Rematch> {
    const { snapshot } = await this.options.current(tableId);
    if (phaseOf(snapshot) !== 'gameOver')
      throw new GatewayRefusal('notNow', `the game at table ${tableId} is not over; a rematch follows its end`);
    const standing = this.proposals.get(tableId);
    if (standing?.rematch.status === 'open') {
      const by = standing.rematch.seats.find((each) => each.seat === standing.rematch.proposer)?.name ?? 'someone';
      throw new GatewayRefusal('notNow', `${by} has proposed a rematch already: accept or decline it (POST .../rematch/answer)`);
    }
    if (standing?.rematch.status === 'started')
      throw new GatewayRefusal('notNow', `the rematch has started already, at table ${standing.rematch.rematchTableId}`);
    standing?.cancelTimer();
    const people = snapshot.context.occupants.flatMap((occupant, each) =>
      occupant === null || occupant.bot ? [] : [{ seat: each, name: occupant.name }],
    );
    const round = ++this.proposalsMade;
    const seconds = this.options.seconds;
    const proposal: Proposal = {
      rematch: {
        tableId,
        round,
        proposer: seat,
        seats: people.map((person) => ({ ...person, answer: person.seat === seat ? 'proposed' : 'waiting' })),
        status: 'open',
        expiresAt: new Date(this.now() + seconds * 1000).toISOString(),
        rematchTableId: null,
      },
      tokens: new Map([[seat, token]]),
      client,
      cancelTimer: () => undefined,
    };
    this.proposals.set(tableId, proposal);
    proposal.cancelTimer = this.setTimer(() => void this.settle(tableId, proposal), seconds * 1000);
    if (people.length <= 1) await this.settle(tableId, proposal);
    else this.options.notices.stand(tableId, { type: 'rematch', rematch: proposal.rematch });
    return proposal.rematch;
  }

  async answer(tableId: string, seat: Seat, accept: boolean, token: string | undefined): Promise<Rematch> {
    const proposal = this.proposals.get(tableId);
    if (proposal === undefined || proposal.rematch.status !== 'open')
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
    if (accept) proposal.tokens.set(seat, token!);
    this.record(proposal, seat, accept ? 'accepted' : 'declined');
    if (proposal.rematch.seats.every((each) => each.answer !== 'waiting')) await this.settle(tableId, proposal);
    else this.options.notices.stand(tableId, { type: 'rematch', rematch: proposal.rematch });
    return proposal.rematch;
  }

  private record(proposal: Proposal, seat: Seat, answer: RematchAnswer): void {
    proposal.rematch = {
      ...proposal.rematch,
      seats: proposal.rematch.seats.map((each) => (each.seat === seat ? { ...each, answer } : each)),
    };
  }

  /** Every answer is in, or the time is up: the new table, if anyone but the proposer accepted. */
  private async settle(tableId: string, proposal: Proposal): Promise<void> {
    if (this.proposals.get(tableId) !== proposal || proposal.rematch.status !== 'open') return;
    proposal.cancelTimer();
    const { seats } = proposal.rematch;
    const accepted = seats.filter((each) => each.answer === 'accepted' || each.answer === 'proposed');
    const joined = seats.length <= 1 || accepted.length > 1;
    // Settled before the table is made, so an answer arriving meanwhile is refused rather than lost.
    proposal.rematch = {
      ...proposal.rematch,
      status: joined ? 'started' : seats.some((each) => each.answer === 'waiting') ? 'expired' : 'declined',
    };
    if (joined) {
      try {
        const people = accepted.map(({ seat, name }) => ({ seat, name, token: proposal.tokens.get(seat)! }));
        const rematchTableId = await this.options.open(tableId, { people, client: proposal.client });
        proposal.rematch = { ...proposal.rematch, rematchTableId };
      } catch (error) {
        this.options.onError?.(error, tableId);
        proposal.rematch = { ...proposal.rematch, status: 'expired' };
        if (seats.length <= 1) {
          this.proposals.delete(tableId);
          throw error;
        }
      }
    }
    proposal.tokens.clear();
    this.options.notices.stand(tableId, { type: 'rematch', rematch: proposal.rematch });
    // What became of it is told to sockets that open for a while, then forgotten.
    proposal.cancelTimer = this.setTimer(() => {
      if (this.proposals.get(tableId) !== proposal) return;
      this.proposals.delete(tableId);
      this.options.notices.withdraw(tableId, 'rematch');
    }, this.options.seconds * 1000);
  }
}
