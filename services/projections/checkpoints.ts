/**
 * Where a projection's state is kept with its checkpoint: one value holding
 * both, written whole or not at all, so a crash between an event and its
 * checkpoint can neither count the event twice nor miss it (Emmett keeps an
 * inline projection's checkpoint in the read model's own transaction for the
 * same reason). Adapters: in memory (here), SQLite (sqliteCheckpoints.ts),
 * a NATS KV bucket (natsCheckpoints.ts).
 */

/** What a projection has folded: its state and, per table, the seq of the last event folded in. */
export interface Checkpoint<State = unknown> {
  readonly state: State;
  readonly positions: Readonly<Record<string, number>>;
}

export interface ProjectionCheckpoints {
  /** The checkpoint last saved under `name`, or null (the projection starts from scratch). */
  load(name: string): Promise<Checkpoint | null>;
  /** Replaces the checkpoint under `name`, atomically. */
  save(name: string, checkpoint: Checkpoint): Promise<void>;
  close(): Promise<void>;
}

/** In this process, kept as JSON text like the durable adapters, so nothing a caller mutates later changes it. */
export function createMemoryCheckpoints(): ProjectionCheckpoints {
  const kept = new Map<string, string>();
  return {
    async load(name) {
      const json = kept.get(name);
      return json === undefined ? null : (JSON.parse(json) as Checkpoint);
    },
    async save(name, checkpoint) {
      kept.set(name, JSON.stringify(checkpoint));
    },
    async close() {},
  };
}

/** A stored value read back: a checkpoint, or an error naming where it came from. */
export function parseCheckpoint(json: string, where: string): Checkpoint {
  const parsed = JSON.parse(json) as Partial<Checkpoint> | null;
  if (parsed === null || typeof parsed !== 'object' || typeof parsed.positions !== 'object' || parsed.positions === null) {
    throw new Error(`${where} holds no projection checkpoint ({"state", "positions"})`);
  }
  return parsed as Checkpoint;
}
