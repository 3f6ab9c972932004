/**
 * The import layers, checked by `npm run lint:layers` (and CI). Lower layers
 * never import higher ones; within a layer, anything but a cycle goes.
 *
 *   machines/                      the pure game core: xstate and itself, nothing else
 *   services/ foundations          eventstore, tokens, storage, nats, tableQueues, simulator, diagram, tracing,
 *                                  wholeNumber.ts, settings.ts (every setting from the environment), eventLoopLag.ts
 *   services/ table owner          host, with its bots and turn clock (bots, clock)
 *   services/bus                   what gateways and workers say to each other over NATS
 *   services/ roles                worker, gateway (neither imports the other)
 *   services/ entries              cli, main.ts
 *   on top                         drivers/ (what drives the service from outside, and the checks
 *                                  the runs share), and bench/, hardening/, scripts/, test/, which use it
 *
 * Tests beside the code (*.test.ts, eventStore.contract.ts, fixtures/) are on top too:
 * they may import drivers/ and test/, production code may not. What only
 * tests and runs use does not sit in services/: every production module is
 * reached from a process the service runs.
 */
const TESTS = '(\\.test\\.ts|\\.contract\\.ts|/fixtures/[^/]+)$';
const FOUNDATIONS =
  '^services/((eventstore|tokens|storage|nats|tableQueues|simulator|diagram|tracing)/|(wholeNumber|settings|eventLoopLag)\\.ts$)';
const TABLE_OWNER = '^services/(host|bots|clock)/';
const BUS = '^services/bus/';
const ROLES = '^services/(worker|gateway)/';
const ENTRIES = '^services/(cli/|main\\.ts$)';
const ON_TOP = '^(drivers|bench|hardening|scripts|test)/';
/** The shared given/when/then of a table on the pure machine (test/kit/table.ts), which the core's tests use too. */
const CORE_TEST_KIT = '^test/kit/table\\.ts$';

/** The processes the service runs: `npm start`, a table worker, a distributed gateway, the `suitors` CLI. */
const PROCESSES = '^services/(main\\.ts|worker/main\\.ts|gateway/distributed\\.ts|cli/main\\.ts|cli/bin\\.js)$';
/**
 * Production modules no import reaches, each for its reason:
 * - worker threads, started by URL (new Worker(new URL(...))), which the check cannot follow;
 * - the type declarations of a JavaScript module (.d.mts), which only the type checker reads.
 */
const UNREACHED_ON_PURPOSE = [
  '^services/eventstore/sqliteWriterThread\\.mjs$',
  '^services/eventstore/sqliteGroupCommit\\.d\\.mts$',
  '^services/host/recordImport/(boot\\.mjs|importWorker\\.ts)$',
  '^services/lab/play/playWorker\\.ts$',
].join('|');

/** A rule that an import from `from` to `to` is an error. */
function forbid(name, comment, from, to) {
  return { name, comment, severity: 'error', from, to };
}

/** A rule that `from` (production code, not its tests) never imports `to`. */
function below(name, comment, from, to) {
  return forbid(name, comment, { path: from, pathNot: TESTS }, { path: to });
}

module.exports = {
  forbidden: [
    forbid(
      'machines-only-xstate',
      'machines/ is the pure game core: it imports xstate and itself, nothing else (no node:, no services/)',
      { path: '^machines/', pathNot: TESTS },
      { pathNot: '^machines/|(^|/)node_modules/xstate/' },
    ),
    forbid(
      'machines-tests-stay-in-the-core',
      "the core's tests test the core: no services/, drivers/ or test/ helpers but the core test kit",
      { path: `^machines/.*${TESTS}` },
      { path: '^(services|drivers|bench|hardening|scripts|test)/', pathNot: CORE_TEST_KIT },
    ),
    forbid(
      'core-test-kit-on-the-core',
      "the core test kit is the core's tests' own: it drives the machines and nothing else (vitest's expect aside)",
      { path: CORE_TEST_KIT },
      { pathNot: '^machines/|(^|/)node_modules/(vitest|@vitest)/' },
    ),
    below(
      'foundations-below-the-host',
      'stores, tokens, NATS helpers and queues know nothing of the host, the bus or the roles',
      FOUNDATIONS,
      `${TABLE_OWNER}|${BUS}|${ROLES}|${ENTRIES}`,
    ),
    below(
      'host-below-the-bus',
      'the table owner (host, bots, clock) runs the same embedded or on a worker: it knows no bus, role or entry',
      TABLE_OWNER,
      `${BUS}|${ROLES}|${ENTRIES}`,
    ),
    below('bus-below-the-roles', 'the bus is what worker and gateway share, so it imports neither', BUS, `${ROLES}|${ENTRIES}`),
    below(
      'worker-not-gateway',
      'a worker and a gateway share code through the bus or below, never with each other',
      '^services/worker/',
      '^services/gateway/',
    ),
    below(
      'gateway-not-worker',
      'a worker and a gateway share code through the bus or below, never with each other',
      '^services/gateway/',
      '^services/worker/',
    ),
    below('roles-below-the-entries', 'the cli and main.ts start things; nothing they start imports them', ROLES, ENTRIES),
    below(
      'services-not-on-top',
      'services/ is what runs in production: no drivers, benchmarks, hardening runs, scripts or test helpers',
      '^services/',
      ON_TOP,
    ),
    below(
      'drivers-below-their-users',
      'drivers/ is the library the benchmarks, hardening runs, scripts and tests share',
      '^drivers/',
      '^(bench|hardening|scripts|test)/',
    ),
    forbid(
      'runs-not-test-helpers',
      "test/ is the tests' own: what a benchmark, a hardening run or a script shares with the tests lives in drivers/ (scripts/golden-logs.ts writes the tests' golden logs from their cases, so it is the tests' tool)",
      { path: '^(bench|hardening|scripts)/', pathNot: '^scripts/golden-logs\\.ts$' },
      { path: '^test/' },
    ),
    forbid(
      'services-run-in-production',
      'services/ is what the service runs: a module no process of it reaches is a test or run helper, and belongs in drivers/ or test/',
      { path: PROCESSES },
      { path: '^services/', pathNot: `${TESTS}|${PROCESSES}|^services/gateway/web/|${UNREACHED_ON_PURPOSE}`, reachable: false },
    ),
    forbid(
      'web-client-in-the-browser',
      "the web client runs in a browser: it imports the core, the socket protocol and the types of the service's answers (no imports of their own), never server code",
      { path: '^services/gateway/web/src/' },
      {
        pathNot:
          '^(services/gateway/web/src/|machines/|services/gateway/(socketProtocol|operatorReport)\\.ts$|services/projections/fleet/fleetReportTypes\\.ts$|services/bus/workerStatusRecord\\.ts$)',
      },
    ),
    forbid(
      'no-vitest-outside-tests',
      'only tests and their helpers under test/ may import the test runner',
      { path: '^(machines|services|drivers|bench|hardening|scripts)/', pathNot: TESTS },
      { path: '(^|/)node_modules/(vitest|@vitest)/' },
    ),
    forbid(
      'services-not-dev-dependencies',
      'production code runs where dev dependencies may not be installed',
      { path: '^(machines|services)/', pathNot: TESTS },
      { dependencyTypes: ['npm-dev'] },
    ),
    forbid(
      'no-cycles',
      'a cycle makes two modules one: neither can be read, tested or moved alone (type-only imports count too)',
      {},
      { circular: true },
    ),
    forbid('resolvable', 'an import that does not resolve fails at run time', {}, { couldNotResolve: true }),
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^services/gateway/web/dist/' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
