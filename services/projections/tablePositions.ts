/**
 * What a projection runner knows of each table: the seq of the last event
 * folded (its position, the checkpoint), the newest version it has seen
 * (its head, from listing or from events heard), and the events heard ahead
 * of the position, kept so a table whose next events were heard in order
 * need not be read.
 */
import type { StoredEvent } from '../eventstore/eventStore.js';

/** Events heard ahead of a table's position are kept up to this many per table; past it the table is read instead. */
const MOST_HEARD_PER_TABLE = 256;

export class TablePositions {
  private readonly positions = new Map<string, number>();
  private readonly heads = new Map<string, number>();
  private readonly heard = new Map<string, StoredEvent[]>();
  /** Tables with events past their position, to fold at the next pass. */
  private readonly behind = new Set<string>();

  constructor(saved: Readonly<Record<string, number>> = {}) {
    for (const [tableId, seq] of Object.entries(saved)) this.positions.set(tableId, seq);
  }

  of(tableId: string): number {
    return this.positions.get(tableId) ?? 0;
  }

  /** The table's events up to `version` exist: it is behind if its position is not there yet. */
  noteHead(tableId: string, version: number): void {
    if (version > (this.heads.get(tableId) ?? 0)) this.heads.set(tableId, version);
    if (version > this.of(tableId)) this.behind.add(tableId);
  }

  /** An event heard: kept when it is ahead of the position (and there is room); false when it was folded already. */
  hear(tableId: string, event: StoredEvent): boolean {
    if (event.seq <= this.of(tableId)) return false;
    const kept = this.heard.get(tableId) ?? [];
    if (kept.length < MOST_HEARD_PER_TABLE) this.heard.set(tableId, [...kept, event]);
    this.noteHead(tableId, event.seq);
    return true;
  }

  /** Takes a table that is behind off the list, to fold it; undefined when none is. */
  nextBehind(): string | undefined {
    const tableId = this.behind.values().next().value;
    if (tableId !== undefined) this.behind.delete(tableId);
    return tableId;
  }

  /** Puts a table back on the list (its read failed: the next pass tries again). */
  stillBehind(tableId: string): void {
    this.behind.add(tableId);
  }

  /** The events heard right after the table's position, when they follow on from it with no gap; null otherwise. */
  takeHeard(tableId: string): StoredEvent[] | null {
    const position = this.of(tableId);
    const kept = (this.heard.get(tableId) ?? []).filter((event) => event.seq > position);
    this.heard.delete(tableId);
    const follows = kept.length > 0 && kept.every((event, index) => event.seq === position + 1 + index);
    return follows ? kept : null;
  }

  folded(tableId: string, seq: number): void {
    this.positions.set(tableId, seq);
    this.noteHead(tableId, seq);
  }

  /** Events behind the heads, over all tables. */
  lag(): number {
    let lag = 0;
    for (const [tableId, head] of this.heads) lag += Math.max(0, head - this.of(tableId));
    return lag;
  }

  toRecord(): Record<string, number> {
    return Object.fromEntries(this.positions);
  }
}
