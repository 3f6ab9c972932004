/**
 * The gateway's fleet overlay (services/projections/fleet): the projection
 * run over the tables this gateway reads, started at the first request that
 * wants it and kept up to date from then on by the events the gateway hears,
 * so a request reads counts already folded and never replays a log.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { TableService } from '../host/tableService.js';
import type { ProjectionCheckpoints } from '../projections/checkpoints.js';
import { fleetOverlay, liveTablesOf, type FleetState, type LiveFleetTable } from '../projections/fleet/fleetOverlay.js';
import {
  type FinishedFleetReport,
  type FleetReport,
  finishedFleetReport,
  fleetReport,
  RangeNotKept,
} from '../projections/fleet/fleetReport.js';
import { isProjectionFailed } from '../projections/projection.js';
import { startProjection, type ProjectionRunner } from '../projections/runner.js';
import { GatewayRefusal } from './refusals.js';

export interface GatewayFleet {
  /** The overlay now, once the projection has caught up with every table; refused (unavailable) if it cannot. */
  report(): Promise<FleetReport>;
  /** The games that ended from `from` (included) to `to` (excluded), ms on the hour; refused (badRequest) before the hours kept. */
  finished(range: { readonly from: number; readonly to: number }): Promise<FinishedFleetReport>;
  /** Every table whose game goes on, with its machine state, for the operator's page; refused (unavailable) as report is. */
  liveTables(): Promise<LiveFleetTable[]>;
  stop(): Promise<void>;
}

export interface GatewayFleetOptions {
  /** Where the overlay is kept with its checkpoint (the embedded service's file); none: folded afresh at start. */
  readonly checkpoints?: ProjectionCheckpoints;
  /** Where a failed save is told. */
  readonly log: Pick<FastifyBaseLogger, 'error'>;
  readonly now?: () => Date;
}

export function gatewayFleet(host: TableService, options: GatewayFleetOptions): GatewayFleet {
  const now = options.now ?? (() => new Date());
  let runner: ProjectionRunner<FleetState> | undefined;
  const source = {
    read: (tableId: string, afterVersion: number) => host.events(tableId, afterVersion),
    listTables: () => host.listTables(),
    subscribe: host.subscribe.bind(host),
  };
  const running = () =>
    (runner ??= startProjection({
      source,
      projection: fleetOverlay,
      checkpoints: options.checkpoints,
      // The state holds each live table's machine snapshot: saved every 10 s, not at every move.
      saveEveryMs: 10_000,
      onSaveError: (err) => options.log.error({ err }, 'saving the fleet overlay failed'),
    }));

  /** The runner once it has caught up with every table; refused (unavailable) when it cannot. */
  const caughtUp = async (): Promise<ProjectionRunner<FleetState>> => {
    const fleet = running();
    try {
      await fleet.caughtUp;
    } catch (error) {
      // A read that failed (a store away) is tried afresh by the next request; a projection that threw stays stopped.
      if (!isProjectionFailed(error)) runner = undefined;
      throw new GatewayRefusal('unavailable', `the fleet overlay is not available: ${(error as Error).message}`);
    }
    if (fleet.failure() !== null) {
      throw new GatewayRefusal('unavailable', `the fleet overlay stopped: ${fleet.failure()!.message}`);
    }
    return fleet;
  };

  return {
    async report() {
      const fleet = await caughtUp();
      return fleetReport(fleet.state(), { asOf: now().toISOString(), lag: fleet.lag() });
    },
    async finished({ from, to }) {
      const fleet = await caughtUp();
      try {
        return finishedFleetReport(fleet.state(), { asOf: now().toISOString(), lag: fleet.lag(), from, to });
      } catch (error) {
        if (error instanceof RangeNotKept) throw new GatewayRefusal('badRequest', error.message);
        throw error;
      }
    },
    async liveTables() {
      return liveTablesOf((await caughtUp()).state());
    },
    async stop() {
      await runner?.stop();
    },
  };
}
