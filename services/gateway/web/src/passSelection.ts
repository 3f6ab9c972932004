/**
 * The cards a player is choosing to pass: one per recipient, none sent until
 * the player passes them all at once (RULES.md §4 "Passing").
 */
import type { Card } from '../../../../machines/cards/card.js';

export class PassSelection {
  private readonly chosen = new Map<number, Card>();
  private aimed: number | null = null;

  constructor(readonly recipients: readonly number[]) {}

  cardFor(seat: number): Card | undefined {
    return this.chosen.get(seat);
  }

  recipientOf(card: Card): number | undefined {
    return [...this.chosen].find(([, chosen]) => chosen === card)?.[0];
  }

  /** The recipient the next chosen card goes to: the one the player picked, else the first without a card. */
  get next(): number | null {
    return this.aimed ?? this.recipients.find((seat) => !this.chosen.has(seat)) ?? null;
  }

  get complete(): boolean {
    return this.recipients.every((seat) => this.chosen.has(seat));
  }

  aimAt(seat: number): void {
    this.aimed = seat;
  }

  /** Chooses `card` for the next recipient, or takes it back if it was chosen. */
  toggle(card: Card): void {
    const holder = this.recipientOf(card);
    if (holder !== undefined) {
      this.chosen.delete(holder);
      this.aimed = holder;
      return;
    }
    const to = this.next;
    if (to === null) return;
    this.chosen.set(to, card);
    this.aimed = null;
  }

  passes(): { to: number; card: Card }[] {
    return this.recipients.flatMap((to) => {
      const card = this.chosen.get(to);
      return card === undefined ? [] : [{ to, card }];
    });
  }

  clear(): void {
    this.chosen.clear();
    this.aimed = null;
  }
}
