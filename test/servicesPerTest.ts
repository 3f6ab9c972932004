/**
 * Services started for one test and closed after it: in-process services
 * (drivers/embeddedService.ts), and gateways listening for real clients
 * with the sockets opened to them.
 */
import { afterEach } from 'vitest';
import { listen, startService, type TestService } from '../drivers/embeddedService.js';
import { SocketClient } from '../drivers/socketClient.js';

/**
 * Starts services for one test at a time and closes them after each test:
 * call it at a test file's top level.
 */
export function servicesClosedAfterEach(): (options?: Parameters<typeof startService>[0]) => TestService {
  const services: TestService[] = [];
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.close()));
  });
  return (options) => {
    const started = startService(options);
    services.push(started);
    return started;
  };
}

/**
 * Gateways listening for real clients, with the sockets opened to them;
 * `closeAll` (in an afterEach) closes the sockets, then the services.
 */
export function listeningServices() {
  const services: TestService[] = [];
  const clients: SocketClient[] = [];
  return {
    async start(options: Parameters<typeof startService>[0] = {}) {
      const service = startService(options);
      services.push(service);
      const base = await listen(service.app);
      const open = async (path: string) => {
        const client = await SocketClient.open(`${base}${path}`);
        clients.push(client);
        return client;
      };
      return { ...service, base, open };
    },
    async closeAll() {
      await Promise.all(clients.splice(0).map((client) => client.close()));
      await Promise.all(services.splice(0).map((service) => service.close()));
    },
  };
}
