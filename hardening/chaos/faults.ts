/**
 * The faults of the chaos run, made to the distributed service while the
 * bots play, one after another: SIGKILL a random table worker and start a
 * replacement, stop a nats-server node and start it again on its ports and
 * files, SIGKILL one of the two gateways and start it again on its port.
 * Counts what was done, and times each takeover: from a worker's kill until
 * each of the tables it owned accepts a command sent after the kill.
 */
import { Kvm, type KvWatchEntry } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/nats-core';
import { sleep } from '../../drivers/polling.js';
import type { AcknowledgedCommand, PlayerPool } from '../../drivers/players/playerPool.js';
import { DEFAULT_LEASE_NAMESPACE } from '../../services/worker/leaseBuckets.js';
import type { ServiceProcesses as ServiceUnderTest } from '../../drivers/serviceProcesses.js';

/** How long a stopped nats-server node or a killed gateway stays down before it is started again. */
const DOWN_MS = 5_000;

export type FaultKind = 'worker kill' | 'NATS node restart' | 'gateway drop';
export const FAULT_ROTATION: readonly FaultKind[] = ['worker kill', 'NATS node restart', 'gateway drop'];

interface Orphan {
  readonly killedAt: number;
  readonly kill: number;
}

export class Faults {
  workerKills = 0;
  natsRestarts = 0;
  gatewayDrops = 0;
  /** Why gateways killed by the run could not be started again. */
  readonly gatewayRestartFailures: string[] = [];
  /** Tables of killed workers that accepted a command again, and how long after the kill (ms). */
  readonly takeoverMs: number[] = [];
  /** Per kill: the tables the worker owned that were in play, and the longest wait of those served again. */
  readonly kills: { worker: string; orphans: number; served: number; maxMs: number }[] = [];
  /** Tables of a killed worker waiting for their first command accepted after the kill. */
  private readonly orphans = new Map<string, Orphan>();
  /** Each table's owner, as the workers' claims in KV say. */
  private readonly owners = new Map<string, string>();
  private watching: { stop(): void } | null = null;

  constructor(
    private readonly service: ServiceUnderTest,
    private readonly players: PlayerPool,
    private readonly log: (line: string) => void,
  ) {}

  /** Follows the table claims (`<stream>-table-owners`), to know which tables a worker holds when it is killed. */
  async watchOwners(nc: NatsConnection): Promise<void> {
    const claims = await new Kvm(nc).open(`${DEFAULT_LEASE_NAMESPACE}-table-owners`);
    const watch = await claims.watch();
    this.watching = watch;
    void (async () => {
      for await (const entry of watch as AsyncIterable<KvWatchEntry>) {
        if (entry.operation === 'PUT') this.owners.set(entry.key, (entry.json() as { worker: string }).worker);
        else this.owners.delete(entry.key);
      }
    })().catch((error: unknown) => this.log(`watching table claims stopped: ${(error as Error).message}`));
  }

  /** Called for each acknowledged command: the first after a kill at an orphaned table ends its takeover. */
  acknowledged(ack: AcknowledgedCommand): void {
    const orphan = this.orphans.get(ack.tableId);
    if (orphan === undefined || ack.sentAt < orphan.killedAt) return;
    this.orphans.delete(ack.tableId);
    const waited = ack.acknowledgedAt - orphan.killedAt;
    this.takeoverMs.push(waited);
    const kill = this.kills[orphan.kill];
    kill.served++;
    kill.maxMs = Math.max(kill.maxMs, waited);
  }

  /** Makes faults of `kinds` in rotation, one every `everyMs`, until `until` (performance.now()). */
  async run(everyMs: number, until: number, kinds: readonly FaultKind[] = FAULT_ROTATION): Promise<void> {
    for (let turn = 0; performance.now() + everyMs < until && !this.players.stopping; turn++) {
      await sleep(everyMs);
      if (this.players.stopping) return;
      const kind = kinds[turn % kinds.length];
      try {
        await this.make(kind);
      } catch (error) {
        this.log(`!! ${kind} failed: ${(error as Error).message}`);
      }
    }
  }

  private make(kind: FaultKind): Promise<void> {
    switch (kind) {
      case 'worker kill':
        return this.killWorker();
      case 'NATS node restart':
        return this.restartNatsNode();
      case 'gateway drop':
        return this.dropGateway();
    }
  }

  async killWorker(): Promise<void> {
    const live = this.service.liveWorkers();
    if (live.length === 0) return;
    const victim = live[Math.floor(Math.random() * live.length)];
    const inPlay = new Set(this.players.slots.filter((slot) => slot.active).map((slot) => slot.tableId));
    const owned = [...this.owners]
      .filter(([tableId, worker]) => worker === victim.workerId && inPlay.has(tableId))
      .map(([tableId]) => tableId);
    const killedAt = performance.now();
    await victim.kill();
    this.workerKills++;
    const kill = this.kills.push({ worker: victim.workerId, orphans: owned.length, served: 0, maxMs: 0 }) - 1;
    for (const tableId of owned) this.orphans.set(tableId, { killedAt, kill });
    this.log(`>> SIGKILL ${victim.workerId} (pid ${victim.child.pid}), which held ${owned.length} tables in play; starting a replacement`);
    const replacement = await this.service.startWorker();
    this.log(`>> ${replacement.workerId} (pid ${replacement.child.pid}) ready`);
  }

  async restartNatsNode(): Promise<void> {
    const nats = this.service.nats!;
    const index = Math.floor(Math.random() * nats.nodes.length);
    const node = nats.nodes[index];
    await nats.kill(index);
    this.log(`>> nats-server ${node.name} stopped (SIGKILL); starting it again in ${DOWN_MS / 1000}s on the same ports and files`);
    await sleep(DOWN_MS);
    const started = performance.now();
    await nats.restart(index);
    this.natsRestarts++;
    this.log(
      `>> nats-server ${node.name} back and healthy after ${((performance.now() - started) / 1000).toFixed(1)}s (pid ${node.process?.pid})`,
    );
  }

  async dropGateway(): Promise<void> {
    const { gateways } = this.service;
    // A gateway that could not be started again last time is started now instead of dropping another.
    const down = gateways.findIndex((gateway) => gateway.exited !== null);
    if (down >= 0) return this.restartGateway(down);
    const index = Math.floor(Math.random() * gateways.length);
    const gateway = gateways[index];
    const tables = this.players.slots.filter((slot) => slot.active && slot.port === gateway.port).length;
    const exited = new Promise<void>((resolve) => gateway.child.once('exit', () => resolve()));
    gateway.child.kill('SIGKILL');
    await exited;
    this.gatewayDrops++;
    this.log(
      `>> SIGKILL gateway-${index + 1} (pid ${gateway.pid}) with ${tables} tables in play set up on it (seats of every table use both gateways); their players there reconnect to the other; restarting it in ${DOWN_MS / 1000}s`,
    );
    await sleep(DOWN_MS);
    await this.restartGateway(index);
  }

  private async restartGateway(index: number): Promise<void> {
    try {
      const restarted = await this.service.restartGateway(index);
      this.log(`>> gateway-${index + 1} back on ${restarted.baseUrl} (pid ${restarted.pid})`);
    } catch (error) {
      this.gatewayRestartFailures.push((error as Error).message.split('\n').slice(0, 2).join(' '));
      this.log(
        `!! gateway-${index + 1} could not be started again (tried again at the next gateway drop): ${this.gatewayRestartFailures.at(-1)}`,
      );
    }
  }

  /** Tables of killed workers that never accepted a command again (their game ended, or the run did, first). */
  unservedOrphans(): number {
    return this.orphans.size;
  }

  stop(): void {
    this.watching?.stop();
  }

  progress(): string {
    return ` | faults: ${this.workerKills} worker kills, ${this.natsRestarts} NATS restarts, ${this.gatewayDrops} gateway drops; ${this.players.counters.tablesReconnected} tables moved`;
  }
}
