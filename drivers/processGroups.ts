/** What the drivers that start a process of the service (nats-server, a worker, a gateway) take about its process group. */
export interface ProcessGroupOption {
  /**
   * Its own process group, out of reach of a terminal's Ctrl-C, so whoever started it stops it in order (`npm run
   * cluster`: the gateway, then the workers, then NATS). Off by default: then a Ctrl-C of a test run ends it too.
   */
  readonly ownProcessGroup?: boolean;
}
