/**
 * The import layers, checked by `npm run lint:layers` (and CI). Lower layers
 * never import higher ones; within a layer, anything but a cycle goes.
 *
 *   machines/                      the pure game core: xstate and itself, nothing else
 *   services/ foundations          eventstore, tokens, nats, tableQueues, simulator, diagram,
 *                                  wholeNumber.ts, config.ts
 *   services/ table owner          host, with its bots and turn clock (bots, clock)
 *   services/bus                   what gateways and workers say to each other over NATS
 *   services/ roles                worker, gateway (neither imports the other)
 *   services/ entries              cli, main.ts
 *   on top                         drivers/ (what drives the service from outside), and
 *                                  bench/, hardening/, scripts/, test/, which use it
 *
 * Tests beside the code (*.test.ts, eventStore.contract.ts) are on top too:
 * they may import drivers/ and test/, production code may not.
 */
const TESTS = '(\\.test\\.ts|\\.contract\\.ts)$';
const FOUNDATIONS = '^services/((eventstore|tokens|nats|tableQueues|simulator|diagram)/|(wholeNumber|config)\\.ts$)';
const TABLE_OWNER = '^services/(host|bots|clock)/';
const BUS = '^services/bus/';
const ROLES = '^services/(worker|gateway)/';
const ENTRIES = '^services/(cli/|main\\.ts$)';
const ON_TOP = '^(drivers|bench|hardening|scripts|test)/';

/** A rule that `from` (production code, not its tests) never imports `to`. */
function below(name, comment, from, to) {
  return { name, comment, severity: 'error', from: { path: from, pathNot: TESTS }, to: { path: to } };
}

module.exports = {
  forbidden: [
    {
      name: 'machines-only-xstate',
      comment: 'machines/ is the pure game core: it imports xstate and itself, nothing else (no node:, no services/)',
      severity: 'error',
      from: { path: '^machines/', pathNot: TESTS },
      to: { pathNot: '^machines/|(^|/)node_modules/xstate/' },
    },
    {
      name: 'machines-tests-stay-in-the-core',
      comment: "the core's tests test the core: no services/, drivers/ or test/ helpers",
      severity: 'error',
      from: { path: `^machines/.*${TESTS}` },
      to: { path: '^(services|drivers|bench|hardening|scripts|test)/' },
    },
    below('foundations-below-the-host', 'stores, tokens, NATS helpers and queues know nothing of the host, the bus or the roles', FOUNDATIONS, `${TABLE_OWNER}|${BUS}|${ROLES}|${ENTRIES}`),
    below('host-below-the-bus', 'the table owner (host, bots, clock) runs the same embedded or on a worker: it knows no bus, role or entry', TABLE_OWNER, `${BUS}|${ROLES}|${ENTRIES}`),
    below('bus-below-the-roles', 'the bus is what worker and gateway share, so it imports neither', BUS, `${ROLES}|${ENTRIES}`),
    below('worker-not-gateway', 'a worker and a gateway share code through the bus or below, never with each other', '^services/worker/', '^services/gateway/'),
    below('gateway-not-worker', 'a worker and a gateway share code through the bus or below, never with each other', '^services/gateway/', '^services/worker/'),
    below('roles-below-the-entries', 'the cli and main.ts start things; nothing they start imports them', ROLES, ENTRIES),
    below('services-not-on-top', 'services/ is what runs in production: no drivers, benchmarks, hardening runs, scripts or test helpers', '^services/', ON_TOP),
    below('drivers-below-their-users', 'drivers/ is the library the benchmarks, hardening runs, scripts and tests share', '^drivers/', '^(bench|hardening|scripts|test)/'),
    {
      name: 'web-client-in-the-browser',
      comment: 'the web client runs in a browser: it imports the core and the socket protocol, never server code',
      severity: 'error',
      from: { path: '^services/gateway/web/src/' },
      to: { pathNot: '^(services/gateway/web/src/|machines/|services/gateway/socketProtocol\\.ts$)' },
    },
    {
      name: 'no-vitest-outside-tests',
      comment: 'only tests and their helpers under test/ may import the test runner',
      severity: 'error',
      from: { path: '^(machines|services|drivers|bench|hardening|scripts)/', pathNot: TESTS },
      to: { path: '(^|/)node_modules/(vitest|@vitest)/' },
    },
    {
      name: 'services-not-dev-dependencies',
      comment: 'production code runs where dev dependencies may not be installed',
      severity: 'error',
      from: { path: '^(machines|services)/', pathNot: TESTS },
      to: { dependencyTypes: ['npm-dev'] },
    },
    {
      name: 'no-cycles',
      comment: 'a cycle makes two modules one: neither can be read, tested or moved alone (type-only imports count too)',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'resolvable',
      comment: 'an import that does not resolve fails at run time',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^services/gateway/web/dist/' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
