/**
 * A hand's lone role, as the record format defines it (docs/record-format.md):
 * the seat a hand's `antiCupid` names, or the seat whose tracking card in
 * `roles` is Hearts, the Traitor. The lab reads these fields of the record
 * rather than asking which game it is, so a game added with either field
 * is measured the same way.
 */
import { HEARTS } from '../../machines/cards/card.js';
import type { RecordedHand } from '../../machines/record/record.js';
import type { Seat } from '../../machines/rules/trick.js';

export interface LoneRoleNames {
  /** The seat playing alone or for the other side ("Anti-Cupid", "Traitor"). */
  readonly lone: string;
  /** Everyone else ("the partners", "Matchmakers"). */
  readonly others: string;
}

interface LoneRole {
  readonly seat: Seat;
  readonly names: LoneRoleNames;
}

const SPOILER: LoneRoleNames = { lone: 'Anti-Cupid', others: 'the partners' };
const TRAITOR: LoneRoleNames = { lone: 'Traitor', others: 'Matchmakers' };

export function loneRoleOf(hand: RecordedHand): LoneRole | null {
  if (typeof hand.antiCupid === 'number') return { seat: hand.antiCupid, names: SPOILER };
  if (Array.isArray(hand.roles)) {
    const traitor = hand.roles.indexOf(HEARTS);
    if (traitor >= 0) return { seat: traitor, names: TRAITOR };
  }
  return null;
}
