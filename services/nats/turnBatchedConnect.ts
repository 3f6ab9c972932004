/**
 * Connections whose writes are sent once per turn of the event loop.
 * nats.js writes what it has gathered at the end of each microtask run, so
 * a worker serving a dozen commands that arrived together wrote its
 * appends and its replies in a dozen writes, each waking the servers, as
 * the moves' steps finished in turns of the promise queue apart. Here the
 * socket is corked at the first write of a turn and uncorked when the turn
 * ends (setImmediate: after the loop's I/O callbacks), so everything a
 * process sends in one turn goes out as one write.
 */
import { NatsConnectionImpl, setTransportFactory } from '@nats-io/nats-core/internal';
import type { ConnectionOptions, NatsConnection } from '@nats-io/nats-core';
import { NodeTransport, nodeResolveHost } from '@nats-io/transport-node/lib/node_transport.js';

class TurnBatchedTransport extends NodeTransport {
  private corked = false;

  override send(frame: Uint8Array): void {
    const { socket } = this;
    if (socket !== undefined && !this.corked && !this.isClosed) {
      this.corked = true;
      socket.cork();
      setImmediate(() => {
        this.corked = false;
        socket.uncork();
      });
    }
    super.send(frame);
  }
}

/**
 * nats.js's connect, over sockets that write once per turn. nats.js keeps
 * one transport factory for the process and reads it at each dial
 * (reconnects too), and transport-node's own connect sets it back to the
 * plain one: so every connection in the project, tests and tools
 * included, comes through here.
 */
export function connectBatched(options: ConnectionOptions): Promise<NatsConnection> {
  setTransportFactory({ factory: () => new TurnBatchedTransport(), dnsResolveFn: nodeResolveHost });
  return NatsConnectionImpl.connect(options);
}
